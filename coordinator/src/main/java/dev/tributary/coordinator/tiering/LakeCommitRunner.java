package dev.tributary.coordinator.tiering;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.LakeIo;
import dev.tributary.coordinator.runtime.LakeIoRunner;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.MetadataStoreFailedException;
import dev.tributary.coordinator.store.TieredOffsets;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.api.RoundCommit;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lake side of one fenced commit (T20, T21, T23, T24), on the lake I/O pool: commits the
 * round's files with snapshot properties from which the lake alone can rebuild the table's record,
 * records the outcome durably, then deletes what the round discarded and, when earlier attempts of
 * the table may have left files, the table's orphan files. Which attempt may commit, and what the
 * table does next, is the manager's business; this class reports back on the loop.
 *
 * <p>A commit running longer than {@code tiering.commit.timeout} is abandoned (by the {@link
 * LakeIoRunner} it runs on): the manager hears {@link Callbacks#failed} with an unknown outcome at
 * once, and {@link Callbacks#ended} only when the lake call has really returned, so the table's
 * next round cannot start while the old commit might still land. A commit that returns in time is
 * {@link Callbacks#ended} right before its outcome. An abandoned commit records nothing:
 * reconciliation reads from the lake whether it landed (T21).
 */
final class LakeCommitRunner {
    private static final Logger LOG = LoggerFactory.getLogger(LakeCommitRunner.class);

    /** Who ran a round and when it started, for its summary. */
    record RoundStart(String jobId, long queueWaitMillis, long startMillis) {}

    /** What became of a commit; every method runs on the loop. */
    interface Callbacks {
        /** The round is in the lake and in the durable record {@code next}. */
        void committed(TieringRecord next, LakeCommitResult result, boolean cleanedUp);

        /**
         * The round did not commit, or nobody knows (a timeout, or a failure after the lake call
         * started).
         */
        void failed(Throwable cause, boolean outcomeUnknown);

        /**
         * The lake I/O of this commit has returned: right before the outcome, or on its own after a
         * timeout was reported.
         */
        void ended();
    }

    /** What a commit that returned in time hands to the loop. */
    private record Committed(TieringRecord next, LakeCommitResult result, boolean cleanedUp) {}

    private final LakeCommitStep lake;
    private final MetadataStore store;
    private final Clock clock;
    private final Executor loop;
    private final LakeIo io;
    private final LakeIoRunner runner;
    private final TieringConfig config;

    /**
     * @param lake the lake, or {@code null} when none is configured (every commit then fails)
     */
    LakeCommitRunner(
            LakeCommitStep lake,
            MetadataStore store,
            Clock clock,
            Executor loop,
            LakeIo io,
            TimerService timers,
            TieringConfig config) {
        this.lake = lake;
        this.store = store;
        this.clock = clock;
        this.loop = loop;
        this.io = io;
        this.runner = new LakeIoRunner(loop, io, timers);
        this.config = config;
    }

    /**
     * Runs the commit of a validated request. Call on the loop.
     *
     * @param table the table as it was when the commit started
     * @param base the table's durable record before this round
     * @param round who ran the round, its queue wait and when it was handed out (for the summary)
     * @param sweepOrphans whether earlier attempts of the table may have left files behind
     * @param partitionNames the name of every partition of a partitioned table that has tiered
     *     offsets after this round (they go into the snapshot properties, T32)
     * @param deadMaintenanceUpTo the newest maintenance grant of the table known to be over: the
     *     sweep may delete the unreferenced files of grants up to it (-1: none)
     */
    void run(
            TableInfo table,
            TieringRecord base,
            RoundStart round,
            RoundCommit r,
            boolean sweepOrphans,
            java.util.function.LongFunction<String> partitionNames,
            long deadMaintenanceUpTo,
            Callbacks callbacks) {
        if (lake == null) {
            callbacks.ended();
            callbacks.failed(new IllegalStateException("no lake is configured"), false);
            return;
        }
        long startedAt = clock.currentTimeMillis();
        TieredOffsets after = base.offsets().merge(r.bucketEndOffsets());
        java.util.Map<Long, String> names = new java.util.HashMap<>();
        for (long id : after.partitionIds()) {
            if (id != dev.tributary.common.id.TableBucket.NO_PARTITION) {
                String name = partitionNames.apply(id);
                if (name != null) {
                    names.put(id, name);
                }
            }
        }
        TieringSnapshotProperties props =
                TieringSnapshotProperties.of(
                        table.tableId(),
                        r.epoch(),
                        r.roundId(),
                        after.asSortedMap(),
                        names,
                        startedAt);
        // no key: TieringCommits starts no commit of a table whose previous one has not ended
        runner.run(
                null,
                config.commitTimeout(),
                "the lake commit of "
                        + table.path()
                        + " round "
                        + r.roundId()
                        + " did not finish within tiering.commit.timeout",
                abandoned ->
                        commitAndRecord(
                                table,
                                base,
                                round,
                                r,
                                props,
                                sweepOrphans,
                                deadMaintenanceUpTo,
                                abandoned),
                // after a timeout only ended() follows, even for a commit recorded just before it:
                // the table is reconciled with the lake, which holds the same
                new LakeIoRunner.Outcome<Committed>() {
                    @Override
                    public void succeeded(Committed c) {
                        if (c != null) {
                            callbacks.committed(c.next(), c.result(), c.cleanedUp());
                        }
                    }

                    @Override
                    public void failed(Throwable cause, boolean outcomeUnknown) {
                        callbacks.failed(cause, outcomeUnknown);
                    }

                    @Override
                    public void ended() {
                        callbacks.ended();
                    }
                });
    }

    /**
     * Runs on the I/O pool; what it throws is a failure of unknown outcome (the lake call started).
     *
     * @return the commit's outcome, or {@code null} when there is nothing to tell: the commit was
     *     abandoned before it was recorded, or recording it stopped the loop
     */
    private Committed commitAndRecord(
            TableInfo table,
            TieringRecord base,
            RoundStart round,
            RoundCommit r,
            TieringSnapshotProperties props,
            boolean sweepOrphans,
            long deadMaintenanceUpTo,
            BooleanSupplier abandoned)
            throws Exception {
        LakeCommitResult result =
                lake.commit(
                        table.path(),
                        r.writeResults(),
                        props,
                        new TieredRound(base.epoch(), base.roundId()));
        long end = clock.currentTimeMillis();
        long snapshotId = result.snapshot().orElse(-1L);
        RoundSummary summary =
                new RoundSummary(
                        r.epoch(),
                        r.roundId(),
                        round.jobId(),
                        round.queueWaitMillis(),
                        round.startMillis(),
                        end,
                        RoundSummary.Outcome.COMMITTED,
                        result.rowCount(),
                        result.fileBytes(),
                        result.fileCount(),
                        r.stats().recordsRead(),
                        r.stats().bytesRead(),
                        r.forceFinished(),
                        snapshotId,
                        null);
        // a round that wrote nothing (T27) moves the offsets on, but the lake's newest round, which
        // reconciliation and the next commit's fence compare with, stays the previous one
        boolean wrote = result.snapshot().isPresent();
        TieringRecord next =
                base.afterRound(
                        r.bucketEndOffsets(),
                        end,
                        wrote ? snapshotId : base.lakeSnapshotId(),
                        wrote ? r.epoch() : base.epoch(),
                        wrote ? r.roundId() : base.roundId(),
                        r.forceFinished(),
                        summary);
        if (abandoned.getAsBoolean()) {
            // the manager already gave up on this commit; reconciliation adopts it (T21)
            return null;
        }
        try {
            // a failure other than the store's own is thrown on: the snapshot is in the lake but
            // not in the record, and reconciliation adopts it
            store.putTieringRecord(next);
        } catch (MetadataStoreFailedException e) {
            // a fault, not a commit failure: the loop stops (and the server with it) at once
            loop.execute(
                    () -> {
                        throw e;
                    });
            return null;
        }
        boolean cleanedUp = cleanUp(table, r, sweepOrphans, deadMaintenanceUpTo);
        return new Committed(next, result, cleanedUp);
    }

    /**
     * Deletes the files of results that will never be committed (T23), on the I/O pool; best
     * effort: what fails here is left to the next commit's orphan cleanup.
     */
    void abort(TablePath path, long epoch, List<byte[]> results) {
        if (lake == null) {
            return;
        }
        io.execute(
                () -> {
                    try {
                        lake.abort(path, results);
                    } catch (Throwable e) {
                        LOG.warn(
                                "deleting {} discarded results of {} (epoch {}) failed; the next"
                                        + " commit's orphan cleanup deletes them",
                                results.size(),
                                path,
                                epoch,
                                e);
                    }
                });
    }

    /**
     * Deletes the files of the round's discarded results and, if asked, the table's orphans. Both
     * are best effort: the round is committed whatever happens here.
     *
     * @return false when something could not be deleted (the next commit tries again)
     */
    private boolean cleanUp(
            TableInfo table, RoundCommit r, boolean sweepOrphans, long deadMaintenanceUpTo) {
        boolean ok = true;
        if (!r.discardedResults().isEmpty()) {
            try {
                lake.abort(table.path(), r.discardedResults());
            } catch (Throwable e) {
                ok = false;
                LOG.warn(
                        "could not delete the discarded files of {} round {}; orphan cleanup"
                                + " retries at the next commit",
                        table.path(),
                        r.roundId(),
                        e);
            }
        }
        if (sweepOrphans || !ok) {
            try {
                Instant olderThan =
                        Instant.ofEpochMilli(clock.currentTimeMillis())
                                .minus(config.orphanGracePeriod());
                List<String> deleted =
                        lake.deleteOrphanFiles(
                                table.path(),
                                new OrphanPolicy(
                                        olderThan,
                                        table.tableId(),
                                        r.epoch(),
                                        deadMaintenanceUpTo));
                if (!deleted.isEmpty()) {
                    LOG.info(
                            "deleted {} orphan files of {} left by earlier attempts",
                            deleted.size(),
                            table.path());
                }
            } catch (Throwable e) {
                ok = false;
                LOG.warn(
                        "orphan cleanup of {} failed; retrying at the next commit",
                        table.path(),
                        e);
            }
        }
        return ok;
    }
}

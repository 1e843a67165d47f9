package dev.tributary.coordinator.tiering;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.maintenance.MaintenanceManager;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.PartitionRegistry;
import dev.tributary.coordinator.runtime.LakeIo;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.tiering.api.CommitOrder;
import dev.tributary.tiering.api.RoundCommit;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit path of tiering rounds (T19, T20, T23, T24, T25): accepts a job's commit of the
 * table's current attempt, holds it while an earlier assignment of the same job is unresolved
 * ({@code commit-order = assignment}), starts the lake commit, applies its outcome to the table,
 * deletes the files of results that can never commit, and drains the commits in flight at shutdown.
 *
 * <p>Separate from {@link TieringManager} because a commit has its own life next to the table's
 * state machine: it outlives a disable/enable of its table and a timeout, it has its own set of
 * tables with lake I/O in flight, and shutdown waits for exactly those. The state machine moves
 * (the round fails, or ends committed) stay with the manager, reached through {@link Rounds}. Not
 * thread safe: runs on the coordinator's event loop like the manager; lake I/O runs in {@link
 * LakeCommitRunner}, which posts its outcome back to the loop.
 */
final class TieringCommits {
    private static final Logger LOG = LoggerFactory.getLogger(TieringCommits.class);

    /** What the commit path needs from the table state machine; every call on the loop. */
    interface Rounds {
        /** The table's current state, or {@code null} if it is not a lake table now. */
        TableTiering current(long tableId);

        /** Tiering -> Failed, then Pending after a backoff. */
        void fail(TableTiering t, String why);

        /**
         * The round's commit landed and is recorded: Tiering -> Tiered -> Scheduled, or at once
         * Pending if the round was force-finished (T13).
         */
        void committed(TableTiering t, boolean forceFinished);
    }

    private final TieringConfig config;
    private final Executor loop;
    private final boolean lakeConfigured;
    private final LakeCommitRunner runner;
    private final PartitionRegistry partitions;
    private final JobRegistry jobs;
    private final Rounds rounds;

    /** Lake maintenance (T38, T39), or {@code null} when there is none. */
    private final MaintenanceManager maintenance;

    /**
     * Tables whose lake commit I/O still runs, also across a disable/enable of the table and after
     * the commit timed out: no new round of such a table starts before it returned.
     */
    private final Set<Long> inFlight = new HashSet<>();

    private final Set<Long> inFlightView = Collections.unmodifiableSet(inFlight);

    /** Set by {@link #refuseNew}: no lake commit starts any more. */
    private boolean shuttingDown;

    /** Completes when the last in-flight lake commit ended after {@link #refuseNew}. */
    private final CompletableFuture<Void> drained = new CompletableFuture<>();

    TieringCommits(
            TieringConfig config,
            Clock clock,
            TimerService timers,
            Executor loop,
            LakeIo io,
            MetadataStore store,
            PartitionRegistry partitions,
            LakeCommitStep lake,
            MaintenanceManager maintenance,
            JobRegistry jobs,
            Rounds rounds) {
        this.config = config;
        this.loop = loop;
        this.lakeConfigured = lake != null;
        this.runner = new LakeCommitRunner(lake, store, clock, loop, io, timers, config);
        this.partitions = partitions;
        this.maintenance = maintenance;
        this.jobs = jobs;
        this.rounds = rounds;
    }

    /** See {@link TieringManager#commit}. */
    CompletableFuture<Long> commit(RoundCommit request) {
        TableTiering t = rounds.current(request.tableId());
        String stale = Attempts.staleness(t, request.tableId(), request.epoch(), request.jobId());
        if (stale == null && t.roundId != request.roundId()) {
            stale =
                    "round "
                            + request.roundId()
                            + " of "
                            + t.table.path()
                            + " is not the current round "
                            + t.roundId;
        }
        if (stale != null) {
            abortUncommitted(t, request.epoch(), request.allResults());
            return CompletableFuture.failedFuture(new FencedException(stale));
        }
        if (t.commitPending()) {
            return t.commitFuture;
        }
        if (shuttingDown) {
            return CompletableFuture.failedFuture(
                    new RetriableException(
                            "the coordinator is shutting down; commit again once it is back (the"
                                    + " round is fenced then and the table tiered again)"));
        }
        SortedMap<PartitionBucket, Long> offsets;
        try {
            offsets = RoundPlanner.validate(t.plan, request.bucketEndOffsets());
        } catch (InvalidInputException e) {
            rounds.fail(t, e.getMessage());
            abortUncommitted(t, request.epoch(), request.allResults());
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Long> future = new CompletableFuture<>();
        t.commitFuture = future;
        RoundCommit validated = request.withOffsets(offsets);
        JobInfo job = jobs.get(t.jobId);
        if (config.commitOrder() == CommitOrder.ASSIGNMENT
                && job != null
                && !job.tables.isEmpty()
                && job.tables.iterator().next() != t.tableId()) {
            t.heldCommit = validated;
        } else {
            start(t, validated);
        }
        return future;
    }

    /** Starts held commits whose predecessors (in assignment order) are all resolved. */
    void releaseHeld(JobInfo job) {
        if (job.tables.isEmpty()) {
            return;
        }
        TableTiering head = rounds.current(job.tables.iterator().next());
        if (head != null && head.heldCommit != null) {
            RoundCommit r = head.heldCommit;
            head.heldCommit = null;
            start(head, r);
        }
    }

    /** Fails a held (not yet started) commit of a table that stops being tiered. */
    void fenceHeld(TableTiering t, String why) {
        if (t.heldCommit != null) {
            t.heldCommit = null;
            t.commitFuture.completeExceptionally(Attempts.fenced(t.tableId(), why));
            t.commitFuture = null;
        }
    }

    /** Whether the table's lake commit I/O still runs (possibly of an earlier enablement). */
    boolean inFlight(long tableId) {
        return inFlight.contains(tableId);
    }

    /** Read-only live view of the tables whose lake commit I/O still runs. */
    Set<Long> inFlightView() {
        return inFlightView;
    }

    /** Shutdown begins: from now on a commit request fails with {@link RetriableException}. */
    void refuseNew() {
        shuttingDown = true;
    }

    /** Completes once no lake commit runs any more; call after {@link #refuseNew}. */
    CompletableFuture<Void> drain() {
        if (inFlight.isEmpty()) {
            drained.complete(null);
        }
        return drained;
    }

    /**
     * Deletes the files of write results of attempt {@code epoch} of a table that will never be
     * committed (T23). Results of the table's last committed round are never touched: a late
     * duplicate of a commit that landed may name live files.
     */
    void abortUncommitted(TableTiering t, long epoch, List<byte[]> results) {
        if (results.isEmpty()) {
            return;
        }
        if (t == null) {
            LOG.debug(
                    "dropping {} results of a table that is no longer tiered; its lake table keeps"
                            + " their files until orphan cleanup",
                    results.size());
        } else if (epoch != t.record.epoch()) {
            runner.abort(t.table.path(), epoch, results);
        }
    }

    private void start(TableTiering t, RoundCommit r) {
        t.commitInFlight = true;
        inFlight.add(t.tableId());
        boolean sweep = t.orphansPossible;
        runner.run(
                t.table,
                t.record,
                new LakeCommitRunner.RoundStart(t.jobId, t.queueWaitMillis, t.roundStartMillis),
                r,
                sweep,
                id -> partitions.byId(t.tableId(), id).map(PartitionInfo::name).orElse(null),
                maintenance == null ? -1 : maintenance.deadUpTo(t.tableId()),
                new LakeCommitRunner.Callbacks() {
                    @Override
                    public void committed(
                            TieringRecord next, LakeCommitResult result, boolean cleanedUp) {
                        onCommitted(t, r, next, result, sweep, cleanedUp);
                    }

                    @Override
                    public void failed(Throwable cause, boolean outcomeUnknown) {
                        onCommitFailed(t, r, cause, outcomeUnknown);
                    }

                    @Override
                    public void ended() {
                        inFlight.remove(t.tableId());
                        if (shuttingDown && inFlight.isEmpty()) {
                            // after this task, which delivers the commit's outcome
                            loop.execute(() -> drained.complete(null));
                        }
                    }
                });
    }

    private void onCommitted(
            TableTiering t,
            RoundCommit r,
            TieringRecord next,
            LakeCommitResult result,
            boolean swept,
            boolean cleanedUp) {
        CompletableFuture<Long> future = t.commitFuture;
        t.commitInFlight = false;
        t.commitFuture = null;
        if (maintenance != null) {
            maintenance.onTieringCommitted(t.tableId(), result.fileCount());
        }
        TableTiering current = rounds.current(t.tableId());
        if (current == t) {
            t.record = next;
            t.rounds.add(next.lastRound());
            t.consecutiveFailures = 0;
            if (!cleanedUp) {
                t.orphansPossible = true;
            } else if (swept) {
                t.orphansPossible = false;
            }
            rounds.committed(t, r.forceFinished());
        } else if (current != null) {
            // Tiering was switched off and on while this commit ran: keep its offsets.
            current.record = next.withEnabledSince(current.record.enabledSinceMillis());
        }
        future.complete(result.snapshot().orElse(-1L));
    }

    private void onCommitFailed(TableTiering t, RoundCommit r, Throwable e, boolean unknown) {
        CompletableFuture<Long> future = t.commitFuture;
        t.commitInFlight = false;
        t.commitFuture = null;
        TableTiering current = rounds.current(t.tableId());
        // the lake refused the round: it holds a newer one, committed by a coordinator that lost
        // its role after it checked the lake; nothing of this round landed, and the table's record
        // must learn the newer round before the next one is planned (T19, T21)
        boolean fencedByLake = e instanceof FencedException;
        if (current != null && (unknown || fencedByLake)) {
            current.needsReconcile = lakeConfigured;
        }
        boolean timedOut = e instanceof TimeoutException;
        String why =
                timedOut
                        ? e.getMessage()
                                + " ("
                                + config.commitTimeout()
                                + "); whether it landed is read from the lake before the next"
                                + " round"
                        : "commit of round " + r.roundId() + " failed: " + e;
        if (current == t && t.state == TieringState.TIERING) {
            rounds.fail(t, why);
        }
        if (!unknown || fencedByLake) {
            // nothing reached the lake: the round's files will never be referenced
            abortUncommitted(current, r.epoch(), r.allResults());
        }
        future.completeExceptionally(
                new StorageException(
                        "lake commit of table "
                                + r.tableId()
                                + " round "
                                + r.roundId()
                                + " failed; the round is dropped and the table retried: "
                                + why,
                        e));
    }
}

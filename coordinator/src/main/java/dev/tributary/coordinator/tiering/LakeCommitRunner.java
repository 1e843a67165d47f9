package dev.tributary.coordinator.tiering;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.LakeCommitRequest;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.TieringRecord;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

/**
 * The lake side of one fenced commit (T20, T21, T24): commits the round's files with snapshot
 * properties from which the lake alone can rebuild the table's record, then records the outcome
 * durably, all on the I/O pool. Which attempt may commit, and what the table does next, is the
 * manager's business; this class only reports the outcome back on the loop.
 */
final class LakeCommitRunner {
    /** Receives a failure and whether the lake may nevertheless hold the round's snapshot. */
    interface FailureHandler {
        void failed(Throwable cause, boolean outcomeUnknown);
    }

    private final LakeCommitStep lake;
    private final MetadataStore store;
    private final Clock clock;
    private final Executor loop;
    private final Executor ioExecutor;

    /**
     * @param lake the lake, or {@code null} when none is configured (every commit then fails)
     */
    LakeCommitRunner(
            LakeCommitStep lake,
            MetadataStore store,
            Clock clock,
            Executor loop,
            Executor ioExecutor) {
        this.lake = lake;
        this.store = store;
        this.clock = clock;
        this.loop = loop;
        this.ioExecutor = ioExecutor;
    }

    /**
     * Runs the commit of a validated request. Exactly one callback runs: on the loop, except
     * without a lake, when {@code onFailed} runs at once on the caller's thread (nothing was
     * written, so the outcome is known).
     *
     * @param table the table as it was when the commit started
     * @param base the table's durable record before this round
     * @param roundStartMillis when the round was handed out (for the round summary)
     * @param onCommitted gets the snapshot id and the record already stored for it
     */
    void run(
            TableInfo table,
            TieringRecord base,
            long roundStartMillis,
            CommitRequest r,
            BiConsumer<Long, TieringRecord> onCommitted,
            FailureHandler onFailed) {
        if (lake == null) {
            onFailed.failed(new IllegalStateException("no lake is configured"), false);
            return;
        }
        LakeCommitRequest lakeRequest = lakeRequest(table, base, r);
        ioExecutor.execute(
                () -> {
                    long snapshotId;
                    try {
                        snapshotId = lake.commit(lakeRequest);
                    } catch (Throwable e) {
                        loop.execute(() -> onFailed.failed(e, true));
                        return;
                    }
                    long end = clock.currentTimeMillis();
                    RoundSummary summary =
                            new RoundSummary(
                                    r.epoch(),
                                    r.roundId(),
                                    roundStartMillis,
                                    end,
                                    RoundSummary.Outcome.COMMITTED,
                                    r.stats().rows(),
                                    r.stats().bytes(),
                                    r.stats().files(),
                                    r.stats().rows(),
                                    r.stats().bytes(),
                                    r.forceFinished(),
                                    snapshotId,
                                    null);
                    TieringRecord next =
                            base.afterCommit(
                                    r.bucketEndOffsets(),
                                    end,
                                    snapshotId,
                                    r.epoch(),
                                    r.roundId(),
                                    r.forceFinished(),
                                    summary);
                    try {
                        store.putTieringRecord(next);
                    } catch (Throwable e) {
                        // the snapshot is in the lake but not in the record: reconciliation adopts
                        // it
                        loop.execute(() -> onFailed.failed(e, true));
                        return;
                    }
                    loop.execute(() -> onCommitted.accept(snapshotId, next));
                });
    }

    /** The request for the lake, stamped with every bucket's tiered offset after this round. */
    private LakeCommitRequest lakeRequest(TableInfo table, TieringRecord base, CommitRequest r) {
        long startedAt = clock.currentTimeMillis();
        TieringRecord merged =
                base.afterCommit(
                        r.bucketEndOffsets(), startedAt, -1, r.epoch(), r.roundId(), false, null);
        Map<String, String> props =
                new TieringSnapshotProperties(
                                table.tableId(),
                                r.epoch(),
                                r.roundId(),
                                merged.tieredOffsets(),
                                startedAt)
                        .toMap();
        return new LakeCommitRequest(
                table.tableId(),
                table.path(),
                table.descriptor(),
                table.schemaId(),
                r.epoch(),
                r.roundId(),
                r.bucketEndOffsets(),
                merged.tieredOffsets(),
                r.committable(),
                props);
    }
}

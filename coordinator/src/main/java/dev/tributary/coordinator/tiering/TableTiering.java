package dev.tributary.coordinator.tiering;

import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import java.util.concurrent.CompletableFuture;

/** The tiering manager's mutable state for one lake table. Event-loop thread only. */
final class TableTiering {
    TableInfo table;
    TieringRecord record;
    TieringState state = TieringState.NEW;
    long epoch;

    // Scheduling.
    TimerService.Timer timer;
    long nextDueMillis = -1;

    /** In-memory freshness base after a round that had nothing to commit. */
    long lastEmptyRoundMillis = -1;

    // Queue.
    long pendingSinceMillis = -1;
    long pendingSeq;
    long queueDeadlineMillis;
    String queuedInGroup;

    // Current round.
    String jobId;
    long roundId;
    long nextRoundId;
    RoundPlan plan;
    long roundStartMillis = -1;
    long queueWaitMillis = -1;
    long lastHeartbeatNanos;

    // Commit.
    boolean commitInFlight;
    RoundCommit heldCommit;
    CompletableFuture<Long> commitFuture;

    // Reconciliation (T21).
    boolean needsReconcile;
    boolean reconciling;

    /**
     * An attempt may have left files that no snapshot references (T23): after a failure, a timed
     * out job, or a restart. The next commit deletes them.
     */
    boolean orphansPossible;

    /** Which partitions of a partitioned table the next round looks at (T32). */
    final PartitionTracker partitions = new PartitionTracker();

    /** The last rounds, committed or not (T28). */
    final RoundHistory rounds;

    // Failures (T22).
    long consecutiveFailures;
    long totalFailures;
    String lastFailure;

    TableTiering(TableInfo table, TieringRecord record) {
        this.table = table;
        this.record = record;
        this.epoch = record.epoch();
        this.nextRoundId = record.roundId() + 1;
        this.rounds = new RoundHistory(record.lastRound());
    }

    long tableId() {
        return table.tableId();
    }

    String group() {
        return table.tieringGroup();
    }

    long freshnessMillis() {
        return table.freshness().toMillis();
    }

    long freshnessBaseMillis() {
        return Math.max(record.freshnessBaseMillis(), lastEmptyRoundMillis);
    }

    void transition(TieringState next) {
        state = state.transitionTo(next, tableId());
    }

    /** A commit is running or held for this table: nothing may reassign or time it out. */
    boolean commitPending() {
        return commitInFlight || heldCommit != null;
    }

    void cancelTimer() {
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
        nextDueMillis = -1;
    }
}

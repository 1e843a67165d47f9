package dev.tributary.tiering.enumerate;

import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.event.CompactionEvent;
import dev.tributary.tiering.event.RoundControlEvent;
import dev.tributary.tiering.split.TieringSplit;
import java.util.List;

/**
 * What the {@link TieringScheduler} asks the outside world to do. Calls that talk to the
 * coordinator are asynchronous: their outcome comes back through the scheduler's {@code on*}
 * methods, on the scheduler's thread.
 */
public interface EnumeratorEffects {
    void assignSplit(int subtask, TieringSplit split);

    void sendToReader(int subtask, RoundControlEvent event);

    /** Starts or cancels a bucket's compaction on a reader (T38). */
    void sendToReader(int subtask, CompactionEvent event);

    /**
     * Ask for a table, or a compaction grant when none is pending and {@code acceptCompaction};
     * answer with onTableGranted, onCompactionGranted, onNoTable or onRequestFailed.
     */
    void requestTable(boolean acceptCompaction);

    /** Answer with onHeartbeatDone or onHeartbeatFailed. */
    void heartbeat(List<Attempt> inFlight, List<MaintenanceAttempt> compactions);

    /** Answer with onCompactionCommitDone. */
    void commitCompaction(MaintenanceAttempt attempt, MaintenanceCommit commit);

    /** Fire and forget; the coordinator deletes the files of {@code discarded}. */
    void reportCompactionFailed(MaintenanceAttempt attempt, String reason, List<byte[]> discarded);

    /** Answer with onCommitDone. */
    void commit(Attempt attempt, RoundCommit request);

    /**
     * Fire and forget; the coordinator also learns of lost attempts by heartbeat timeout. The
     * coordinator deletes the files of {@code discarded}: results that will never be committed.
     */
    void reportFailed(Attempt attempt, String reason, List<byte[]> discarded);
}

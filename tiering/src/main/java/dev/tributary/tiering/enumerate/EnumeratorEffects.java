package dev.tributary.tiering.enumerate;

import dev.tributary.client.tiering.Attempt;
import dev.tributary.client.tiering.RoundCommit;
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

    /** Ask for a table; answer with onTableGranted, onNoTable or onRequestFailed. */
    void requestTable();

    /** Answer with onHeartbeatDone or onHeartbeatFailed. */
    void heartbeat(List<Attempt> inFlight);

    /** Answer with onCommitDone. */
    void commit(Attempt attempt, RoundCommit request);

    /**
     * Fire and forget; the coordinator also learns of lost attempts by heartbeat timeout. The
     * coordinator deletes the files of {@code discarded}: results that will never be committed.
     */
    void reportFailed(Attempt attempt, String reason, List<byte[]> discarded);
}

package dev.tributary.tiering.enumerate;

import dev.tributary.tiering.commit.Attempt;
import dev.tributary.tiering.event.RoundControlEvent;
import dev.tributary.tiering.service.CommitRequest;
import dev.tributary.tiering.service.InFlightTable;
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
    void heartbeat(List<InFlightTable> inFlight);

    /** Answer with onCommitDone. */
    void commit(Attempt attempt, CommitRequest request);

    /** Fire and forget; the coordinator also learns of lost attempts by heartbeat timeout. */
    void reportFailed(Attempt attempt, String reason);
}

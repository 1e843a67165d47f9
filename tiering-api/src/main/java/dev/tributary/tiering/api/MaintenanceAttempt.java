package dev.tributary.tiering.api;

import java.io.Serializable;

/**
 * A compaction a job is working on (T38): the table and the grant's maintenance id (unique per
 * grant, growing across coordinator restarts). The unit heartbeats renew, reports end and commits
 * are fenced on, like {@link Attempt} for rounds.
 */
public record MaintenanceAttempt(long tableId, long maintenanceId) implements Serializable {
    @Override
    public String toString() {
        return "table " + tableId + " compaction " + maintenanceId;
    }
}

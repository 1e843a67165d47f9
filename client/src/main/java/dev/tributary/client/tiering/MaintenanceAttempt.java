package dev.tributary.client.tiering;

import java.io.Serializable;

/**
 * One compaction grant of a table (T38): the unit heartbeats renew, reports end and commits are
 * fenced on, like {@link Attempt} for rounds.
 */
public record MaintenanceAttempt(long tableId, long maintenanceId) implements Serializable {
    @Override
    public String toString() {
        return "table " + tableId + " compaction " + maintenanceId;
    }
}

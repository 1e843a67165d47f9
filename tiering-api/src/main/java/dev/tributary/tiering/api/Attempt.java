package dev.tributary.tiering.api;

import java.io.Serializable;

/**
 * One tiering attempt of a table: the table and the epoch the coordinator handed its round out with
 * (unique per assignment). The unit heartbeats renew, reports end and commits are fenced on (T19).
 *
 * @param tableId the table id
 * @param epoch the epoch from the table's {@link RoundPlan}
 */
public record Attempt(long tableId, long epoch) implements Serializable {
    @Override
    public String toString() {
        return "table " + tableId + " epoch " + epoch;
    }
}

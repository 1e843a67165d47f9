package dev.tributary.client.tiering;

import java.io.Serializable;

/**
 * One tiering attempt of a table: the table and the epoch the coordinator handed it out with. The
 * unit heartbeats renew, reports end and commits are fenced on (T19).
 */
public record Attempt(long tableId, long epoch) implements Serializable {
    @Override
    public String toString() {
        return "table " + tableId + " epoch " + epoch;
    }
}

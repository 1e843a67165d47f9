package dev.tributary.tiering.api;

/**
 * The coordinator's verdict on one table attempt named in a heartbeat.
 *
 * @param tableId the table id
 * @param epoch the epoch the job named
 * @param status the verdict
 * @param message why, for anything but {@link Status#OK}
 */
public record TableAck(long tableId, long epoch, Status status, String message) {

    /** The verdict for one table attempt. */
    public enum Status {
        /** The attempt is current (renewed or report accepted). */
        OK,
        /**
         * The attempt is stale (timed out, superseded, job or coordinator restarted, table dropped
         * or tiering disabled): the job must stop the round and drop its results.
         */
        FENCED
    }

    public boolean fenced() {
        return status == Status.FENCED;
    }

    public Attempt attempt() {
        return new Attempt(tableId, epoch);
    }
}

package dev.tributary.coordinator.status;

/**
 * How one round of a table ended, for status pages, the round history and lag (T28).
 *
 * @param epoch the round's tiering epoch
 * @param roundId the round's id
 * @param jobId the job that ran the round, {@code null} when not known (adopted)
 * @param queueWaitMillis how long the table waited in the pending queue before a job got it (T3,
 *     T16), -1 when not known
 * @param startMillis wall time the table was handed to a job
 * @param endMillis wall time the round ended (commit recorded, nothing to do, or failed)
 * @param outcome how it ended
 * @param rows rows the lake commit added (the lake's own count; -1 when unknown)
 * @param bytes bytes of the data files the lake commit added (-1 when unknown)
 * @param files data files the lake commit added (-1 when unknown)
 * @param recordsRead records the job read from the store for this round (-1 when unknown)
 * @param bytesRead encoded bytes the job read from the store for this round (-1 when unknown)
 * @param forceFinished whether the round was cut by the freshness ceiling (T13)
 * @param lakeSnapshotId lake snapshot the round committed, -1 if none
 * @param failure why the round failed; {@code null} unless {@link Outcome#FAILED}
 */
public record RoundSummary(
        long epoch,
        long roundId,
        String jobId,
        long queueWaitMillis,
        long startMillis,
        long endMillis,
        Outcome outcome,
        long rows,
        long bytes,
        long files,
        long recordsRead,
        long bytesRead,
        boolean forceFinished,
        long lakeSnapshotId,
        String failure) {

    /** How a round ended. */
    public enum Outcome {
        /** A lake snapshot holds the round. */
        COMMITTED,
        /** Nothing new to tier (T27), or force-finished before anything was written (T13). */
        NOTHING_NEW,
        /** The round failed or was abandoned (T22); the table retries with backoff. */
        FAILED,
        /**
         * Not seen ending: found in the lake by reconciliation after a crash between the lake
         * commit and the coordinator's record (T21); its figures are unknown.
         */
        ADOPTED
    }

    public RoundSummary {
        if ((outcome == Outcome.FAILED) != (failure != null)) {
            throw new IllegalArgumentException("a failure message goes with FAILED rounds only");
        }
    }

    public long durationMillis() {
        return endMillis - startMillis;
    }

    /** A round without lake figures: nothing new, or failed. */
    public static RoundSummary withoutCommit(
            long epoch,
            long roundId,
            String jobId,
            long queueWaitMillis,
            long startMillis,
            long endMillis,
            boolean forceFinished,
            String failure) {
        return new RoundSummary(
                epoch,
                roundId,
                jobId,
                queueWaitMillis,
                startMillis,
                endMillis,
                failure == null ? Outcome.NOTHING_NEW : Outcome.FAILED,
                0,
                0,
                0,
                -1,
                -1,
                forceFinished,
                -1,
                failure);
    }

    /** A snapshot adopted from the lake (T21), committed at {@code atMillis}. */
    public static RoundSummary adopted(long epoch, long roundId, long atMillis, long snapshotId) {
        return new RoundSummary(
                epoch,
                roundId,
                null,
                -1,
                atMillis,
                atMillis,
                Outcome.ADOPTED,
                -1,
                -1,
                -1,
                -1,
                -1,
                false,
                snapshotId,
                null);
    }
}

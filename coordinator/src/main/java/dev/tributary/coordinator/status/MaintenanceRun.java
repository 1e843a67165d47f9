package dev.tributary.coordinator.status;

/**
 * One compaction of a table as it ended (T38).
 *
 * @param maintenanceId the grant
 * @param jobId the job that compacted
 * @param grantedAtMillis when the job got it
 * @param endedAtMillis when it ended
 * @param outcome how it ended
 * @param buckets (partition, bucket) units it covered
 * @param filesRemoved files the compaction replaced (data and delete files)
 * @param filesAdded files it wrote
 * @param bytesRewritten bytes of the files replaced
 * @param bytesWritten bytes of the files written
 * @param snapshotId its lake snapshot, -1 unless committed
 * @param message why it did not commit, else {@code null}
 */
public record MaintenanceRun(
        long maintenanceId,
        String jobId,
        long grantedAtMillis,
        long endedAtMillis,
        Outcome outcome,
        int buckets,
        int filesRemoved,
        int filesAdded,
        long bytesRewritten,
        long bytesWritten,
        long snapshotId,
        String message) {

    /** How a compaction ended. */
    public enum Outcome {
        COMMITTED,
        NOTHING_TO_COMMIT,
        /**
         * The lake refused it because tiering (or another writer) changed its files: it gave way.
         */
        YIELDED,
        /** The job failed it, or it timed out or lost its job, or its commit failed. */
        FAILED
    }
}

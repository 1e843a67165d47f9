package dev.tributary.lake.api.maintenance;

/**
 * Outcome of {@link LakeMaintainer#commitCompaction}.
 *
 * @param outcome what happened
 * @param snapshotId the compaction snapshot, -1 unless {@link Outcome#COMMITTED}
 * @param filesRemoved files the snapshot no longer references (data and delete files)
 * @param filesAdded files it added
 * @param bytesRewritten bytes of the files removed
 * @param bytesWritten bytes of the files added
 * @param conflict why the lake refused, for {@link Outcome#CONFLICT}
 */
public record MaintenanceCommitResult(
        Outcome outcome,
        long snapshotId,
        int filesRemoved,
        int filesAdded,
        long bytesRewritten,
        long bytesWritten,
        String conflict) {

    /** What a maintenance commit did. */
    public enum Outcome {
        /** A compaction snapshot replaced the files. */
        COMMITTED,
        /** No result rewrote anything; no snapshot was written. */
        NOTHING_TO_COMMIT,
        /**
         * The table changed underneath (a file to replace is gone, or a delete that applies to it
         * was added): nothing was committed and the compacted files are safe to delete. Tiering
         * won; the bucket is planned again later.
         */
        CONFLICT
    }

    public static MaintenanceCommitResult committed(
            long snapshotId, int removed, int added, long bytesRewritten, long bytesWritten) {
        return new MaintenanceCommitResult(
                Outcome.COMMITTED, snapshotId, removed, added, bytesRewritten, bytesWritten, null);
    }

    public static MaintenanceCommitResult nothingToCommit() {
        return new MaintenanceCommitResult(Outcome.NOTHING_TO_COMMIT, -1, 0, 0, 0, 0, null);
    }

    public static MaintenanceCommitResult conflict(String why) {
        return new MaintenanceCommitResult(Outcome.CONFLICT, -1, 0, 0, 0, 0, why);
    }
}

package dev.tributary.tiering.api;

/**
 * What became of a compaction commit. None of them is an error for the job: a compaction that does
 * not land is planned again.
 *
 * @param kind the outcome
 * @param snapshotId the compaction snapshot, -1 unless {@link Kind#COMMITTED}
 * @param message why it did not commit, else {@code null}
 */
public record MaintenanceOutcome(Kind kind, long snapshotId, String message) {

    /** The outcomes. */
    public enum Kind {
        /** One lake snapshot holds the compaction. */
        COMMITTED,
        /** Nothing needed rewriting; no snapshot. */
        NOTHING_TO_COMMIT,
        /**
         * The lake refused it because the table changed underneath (tiering wins); its files were
         * deleted. Planned again later.
         */
        YIELDED,
        /** The grant was no longer current (timed out, table dropped, job restarted). */
        FENCED,
        /** The commit failed or its outcome is unknown; planned again after a backoff. */
        FAILED
    }

    public static MaintenanceOutcome of(Kind kind, String message) {
        return new MaintenanceOutcome(kind, -1, message);
    }
}

package dev.tributary.client.tiering;

/**
 * What became of a compaction commit; none of them is an error for the job (a compaction that does
 * not land is planned again).
 *
 * @param snapshotId the compaction snapshot, -1 unless {@link Kind#COMMITTED}
 * @param message why it did not commit, else {@code null}
 */
public record MaintenanceOutcome(Kind kind, long snapshotId, String message) {
    /** The outcomes. */
    public enum Kind {
        COMMITTED,
        NOTHING_TO_COMMIT,
        /** The lake refused it because tiering changed the table underneath: tiering won. */
        YIELDED,
        /** The grant was no longer current. */
        FENCED,
        /** The commit failed or its outcome is unknown. */
        FAILED
    }
}

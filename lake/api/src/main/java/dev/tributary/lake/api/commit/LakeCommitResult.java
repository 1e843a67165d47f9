package dev.tributary.lake.api.commit;

import java.util.OptionalLong;

/**
 * Outcome of {@link LakeCommitter#commit}.
 *
 * @param outcome what happened
 * @param snapshotId the lake snapshot that holds the round (valid unless {@link
 *     Outcome#NOTHING_TO_COMMIT})
 * @param rowCount records committed by this call (0 unless {@link Outcome#COMMITTED})
 * @param fileCount files committed by this call
 * @param fileBytes bytes committed by this call
 */
public record LakeCommitResult(
        Outcome outcome, long snapshotId, long rowCount, long fileCount, long fileBytes) {

    /** What a commit call did. */
    public enum Outcome {
        /** A new snapshot holds the round. */
        COMMITTED,
        /** An earlier attempt of the same round had committed; nothing new was written. */
        ALREADY_COMMITTED,
        /** The round had no files; no snapshot was written (T27). */
        NOTHING_TO_COMMIT
    }

    public static LakeCommitResult committed(
            long snapshotId, long rowCount, long fileCount, long fileBytes) {
        return new LakeCommitResult(Outcome.COMMITTED, snapshotId, rowCount, fileCount, fileBytes);
    }

    public static LakeCommitResult alreadyCommitted(long snapshotId) {
        return new LakeCommitResult(Outcome.ALREADY_COMMITTED, snapshotId, 0, 0, 0);
    }

    public static LakeCommitResult nothingToCommit() {
        return new LakeCommitResult(Outcome.NOTHING_TO_COMMIT, -1, 0, 0, 0);
    }

    /** The snapshot holding the round, empty for {@link Outcome#NOTHING_TO_COMMIT}. */
    public OptionalLong snapshot() {
        return outcome == Outcome.NOTHING_TO_COMMIT
                ? OptionalLong.empty()
                : OptionalLong.of(snapshotId);
    }
}

package dev.tributary.tiering.api;

/**
 * What became of a {@link RoundCommit}, as the job sees it. Errors other than fencing are thrown.
 */
public enum CommitOutcome {
    /** The round is recorded (and its data, if any, is in the lake). */
    COMMITTED,
    /** The attempt was no longer current; nothing was committed (T19). Not a failure. */
    FENCED
}

package dev.tributary.client.tiering;

/** What became of a commit request. Errors other than fencing are thrown. */
public enum CommitOutcome {
    /** The round is recorded (and its data, if any, is in the lake). */
    COMMITTED,
    /** The attempt was no longer current; nothing was committed (T19). Not a failure. */
    FENCED
}

package dev.tributary.tiering.api;

/** Order in which one job's tables may commit (T25); the coordinator enforces it. */
public enum CommitOrder {
    /** A table commits as soon as its round is complete (as in Fluss). */
    COMPLETION,
    /** A job's tables commit in the order they were assigned to it. */
    ASSIGNMENT
}

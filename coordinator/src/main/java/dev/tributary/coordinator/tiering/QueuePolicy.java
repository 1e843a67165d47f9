package dev.tributary.coordinator.tiering;

/** How the pending queue orders tables (T16). */
public enum QueuePolicy {
    /** Arrival order into Pending, like Fluss. */
    FIFO,
    /** Earliest {@code pendingSince + freshness} first; ties by arrival order. */
    DEADLINE
}

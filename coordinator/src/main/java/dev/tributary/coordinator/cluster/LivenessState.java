package dev.tributary.coordinator.cluster;

/**
 * Whether the coordinator counts a registered server as alive (T49). Kept in memory only: a new
 * coordinator starts every registered server at {@link #UNKNOWN}.
 *
 * <pre>
 *   UNKNOWN --heartbeat--> ALIVE --timeout--> EXPIRED --heartbeat--> ALIVE
 *      \--------------------timeout--------------^
 * </pre>
 */
public enum LivenessState {
    /** Registered, but no heartbeat reached this coordinator yet. */
    UNKNOWN,
    /** Its last heartbeat is younger than the heartbeat timeout. */
    ALIVE,
    /** No heartbeat for the heartbeat timeout: not counted as alive until it heartbeats again. */
    EXPIRED;

    /** Whether a server in this state may move to {@code next}. */
    public boolean canMoveTo(LivenessState next) {
        return switch (this) {
            case UNKNOWN, EXPIRED -> next == ALIVE || (this == UNKNOWN && next == EXPIRED);
            case ALIVE -> next == EXPIRED;
        };
    }

    /**
     * {@code next}, checked.
     *
     * @throws IllegalStateException when the transition is not one of the diagram's
     */
    public LivenessState moveTo(LivenessState next) {
        if (!canMoveTo(next)) {
            throw new IllegalStateException(
                    "illegal server liveness transition " + this + " -> " + next);
        }
        return next;
    }
}

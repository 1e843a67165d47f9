package dev.tributary.coordinator.tiering;

import java.util.EnumSet;
import java.util.Set;

/**
 * A lake table's tiering state (T15). The legal transitions are exactly: New->Scheduled,
 * Tiered->Scheduled, Scheduled->Pending, Failed->Pending, Tiered->Pending (force-finish),
 * Pending->Tiering, Tiering->Tiered, Tiering->Failed. Removal (drop, disable) is legal from any
 * state and is not a transition.
 */
public enum TieringState {
    /** Registered, first schedule not yet set. */
    NEW,
    /** Waiting for its freshness timer. */
    SCHEDULED,
    /** In the queue, waiting for a job. */
    PENDING,
    /** A job works on a round. */
    TIERING,
    /** The round ended (committed, empty or force-finished); transient. */
    TIERED,
    /** The round failed or timed out; waits for its backoff. */
    FAILED;

    private Set<TieringState> successors() {
        switch (this) {
            case NEW:
                return EnumSet.of(SCHEDULED);
            case SCHEDULED:
                return EnumSet.of(PENDING);
            case PENDING:
                return EnumSet.of(TIERING);
            case TIERING:
                return EnumSet.of(TIERED, FAILED);
            case TIERED:
                return EnumSet.of(SCHEDULED, PENDING);
            case FAILED:
                return EnumSet.of(PENDING);
            default:
                throw new AssertionError(this);
        }
    }

    public boolean canTransitionTo(TieringState next) {
        return successors().contains(next);
    }

    /**
     * Checks a transition.
     *
     * @throws IllegalTransitionException if {@code this -> next} is not legal
     */
    public TieringState transitionTo(TieringState next, long tableId) {
        if (!canTransitionTo(next)) {
            throw new IllegalTransitionException(tableId, this, next);
        }
        return next;
    }
}

package dev.tributary.coordinator.tiering;

/** A tiering state transition that T15 does not allow: a coordinator bug, never ignored. */
public final class IllegalTransitionException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final TieringState from;
    private final TieringState to;

    public IllegalTransitionException(long tableId, TieringState from, TieringState to) {
        super("illegal tiering transition " + from + " -> " + to + " for table " + tableId);
        this.from = from;
        this.to = to;
    }

    public TieringState from() {
        return from;
    }

    public TieringState to() {
        return to;
    }
}

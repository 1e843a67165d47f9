package dev.tributary.lake.api.write;

/**
 * The life of a {@link LakeWriter}: OPEN until {@code complete()} (COMPLETED) or {@code abort()}
 * (ABORTED), then CLOSED. Formats share it so every writer refuses a misuse the same way.
 */
public enum LakeWriterState {
    OPEN,
    COMPLETED,
    ABORTED,
    CLOSED;

    /**
     * Throws unless this, the writer's current state, is {@code expected}.
     *
     * @throws IllegalStateException naming the action and both states
     */
    public void require(LakeWriterState expected, String action) {
        if (this != expected) {
            throw new IllegalStateException(
                    "cannot "
                            + action
                            + " a lake writer that is "
                            + this
                            + " (expected "
                            + expected
                            + ")");
        }
    }
}

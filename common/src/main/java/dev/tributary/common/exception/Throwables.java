package dev.tributary.common.exception;

/** Questions about an exception's chain of causes. */
public final class Throwables {
    /** How deep a chain is followed: a cause cycle must not loop forever. */
    private static final int MAX_DEPTH = 32;

    private Throwables() {}

    /** Whether {@code t} or one of its causes is a {@code type}. */
    public static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}

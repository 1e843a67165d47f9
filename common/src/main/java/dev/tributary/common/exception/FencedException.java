package dev.tributary.common.exception;

/**
 * The caller's attempt is no longer the current one (stale epoch, round or job); it must stop and
 * drop its work, not retry.
 */
public class FencedException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public FencedException(String message) {
        super(message);
    }

    public FencedException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.tributary.common.exception;

/**
 * A transient failure (timeout, overload, shutting down, lost connection); the same request may
 * succeed later.
 */
public class RetriableException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public RetriableException(String message) {
        super(message);
    }

    public RetriableException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.tributary.common.exception;

/** The call carried no valid credentials. */
public class UnauthenticatedException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public UnauthenticatedException(String message) {
        super(message);
    }

    public UnauthenticatedException(String message, Throwable cause) {
        super(message, cause);
    }
}

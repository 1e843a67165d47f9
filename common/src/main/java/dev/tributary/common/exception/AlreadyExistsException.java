package dev.tributary.common.exception;

/** The database or table to create already exists. */
public class AlreadyExistsException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public AlreadyExistsException(String message) {
        super(message);
    }

    public AlreadyExistsException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.tributary.common.exception;

/**
 * The request is wrong (bad schema, value, option or batch); retrying it unchanged fails again.
 * Nothing was written.
 */
public class InvalidInputException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public InvalidInputException(String message) {
        super(message);
    }

    public InvalidInputException(String message, Throwable cause) {
        super(message, cause);
    }
}

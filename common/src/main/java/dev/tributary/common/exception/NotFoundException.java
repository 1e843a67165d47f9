package dev.tributary.common.exception;

/** The named database, table, bucket or snapshot does not exist. */
public class NotFoundException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public NotFoundException(String message) {
        super(message);
    }

    public NotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}

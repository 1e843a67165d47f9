package dev.tributary.common.exception;

/**
 * Stored data failed verification (checksum, framing) somewhere other than a recoverable torn tail;
 * an operator must look.
 */
public class CorruptDataException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public CorruptDataException(String message) {
        super(message);
    }

    public CorruptDataException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.tributary.common.exception;

/**
 * Root of Tributary's exception hierarchy. Subclasses are typed by what the caller can do next: fix
 * the input ({@link InvalidInputException}), look elsewhere ({@link NotFoundException}, {@link
 * AlreadyExistsException}), try again ({@link RetriableException}), give up its attempt ({@link
 * FencedException}), or escalate ({@link CorruptDataException}, {@link StorageException}).
 */
public abstract class TributaryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected TributaryException(String message) {
        super(message);
    }

    protected TributaryException(String message, Throwable cause) {
        super(message, cause);
    }
}

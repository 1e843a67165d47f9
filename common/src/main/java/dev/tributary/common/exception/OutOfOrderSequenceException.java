package dev.tributary.common.exception;

/**
 * An idempotent writer's batch does not follow the last batch the server appended for that writer
 * and bucket (T42): batches in between are missing, or it is an old batch that a newer one already
 * followed. Nothing was written. Retrying the same batch fails again: the writer must continue
 * under a new writer id (the Java client does so by itself), and the rows of its failed batches are
 * in doubt.
 */
public class OutOfOrderSequenceException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    public OutOfOrderSequenceException(String message) {
        super(message);
    }
}

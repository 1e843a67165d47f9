package dev.tributary.common.exception;

/**
 * Fewer replicas of a bucket are in sync than its {@code min.insync.replicas} asks for (T50).
 * Either nothing was appended (refused before the append), or the records were appended on the
 * leader but are not acknowledged: a retry by an idempotent writer then adds no duplicate.
 * Retriable once replicas catch up again.
 */
public class NotEnoughReplicasException extends RetriableException {
    private static final long serialVersionUID = 1L;

    public NotEnoughReplicasException(String message) {
        super(message);
    }
}

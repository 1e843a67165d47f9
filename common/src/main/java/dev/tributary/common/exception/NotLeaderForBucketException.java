package dev.tributary.common.exception;

/**
 * The server that answered does not hold the bucket a write, read or lookup named (T49): the
 * metadata assigns it to another server, named in the message, or to none yet. Nothing of the
 * request was applied. Retriable once the caller sends it to the bucket's server (or, when none is
 * assigned yet, after a short wait).
 */
public class NotLeaderForBucketException extends RetriableException {
    private static final long serialVersionUID = 1L;

    public NotLeaderForBucketException(String message) {
        super(message);
    }
}

package dev.tributary.common.exception;

/** The local disk or an embedded store failed (I/O error, RocksDB error). */
public class StorageException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.tributary.coordinator.store;

/**
 * The coordinator's durable metadata could not be written (a failed write, fsync or checkpoint).
 * From then on the store refuses every write: its log may end in a partial record, and the
 * coordinator's in-memory state may hold a change the log does not. Deliberately not a {@link
 * dev.tributary.common.exception.TributaryException}: it is no caller's mistake to retry, but a
 * fault that stops the coordinator's event loop, and with it the server, which recovers from the
 * log when it restarts.
 */
public final class MetadataStoreFailedException extends RuntimeException {
    MetadataStoreFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}

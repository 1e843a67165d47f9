package dev.tributary.tiering.service;

/** A held KV snapshot lease (T9). Renew before its TTL passes; always release. */
public interface SnapshotLease extends AutoCloseable {
    /** Extends the lease by its TTL from now. */
    void renew();

    /** Releases the lease; idempotent. */
    @Override
    void close();
}

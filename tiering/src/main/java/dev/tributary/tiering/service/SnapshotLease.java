package dev.tributary.tiering.service;

import java.time.Duration;

/**
 * A held KV snapshot lease (T9). It lapses {@link #ttl()} after it was taken or last renewed (the
 * server's {@code kv.snapshot.lease-timeout}): renew well within it, and always release.
 */
public interface SnapshotLease extends AutoCloseable {
    /** How long the lease holds without a renewal. */
    Duration ttl();

    /**
     * Extends the lease by its TTL from now.
     *
     * @throws dev.tributary.common.exception.NotFoundException when it had already lapsed (the
     *     snapshot may be gone: the read must fail rather than trust it)
     */
    void renew();

    /** Releases the lease; idempotent. */
    @Override
    void close();
}

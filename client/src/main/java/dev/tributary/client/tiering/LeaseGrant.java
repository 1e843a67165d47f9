package dev.tributary.client.tiering;

/**
 * A lease that keeps a KV snapshot from retention until released or expired (T9).
 *
 * @param ttlMillis the server's lease timeout: the lease lapses this long after it was taken or
 *     last renewed, so the holder renews well within it
 */
public record LeaseGrant(String leaseId, long expiresAtMillis, long ttlMillis) {}

package dev.tributary.tiering.api;

import java.util.OptionalLong;

/**
 * A lease that keeps a KV snapshot from retention until released or expired (T9).
 *
 * @param leaseId the lease, named to renew or release it
 * @param expiresAtMillis when the lease lapses, by the server's wall clock (for logs; the holder
 *     renews by {@code ttlMillis})
 * @param ttlMillis the server's lease timeout: the lease lapses this long after it was taken or
 *     last renewed, so the holder renews well within it
 * @param snapshotId the snapshot held
 * @param logOffset the log offset the snapshot was taken at, when the grant chose the snapshot (the
 *     bucket's newest); empty when the holder named it
 */
public record LeaseGrant(
        String leaseId,
        long expiresAtMillis,
        long ttlMillis,
        long snapshotId,
        OptionalLong logOffset) {}

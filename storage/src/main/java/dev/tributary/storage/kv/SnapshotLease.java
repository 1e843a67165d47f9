package dev.tributary.storage.kv;

import dev.tributary.common.id.TableBucket;

/**
 * A reader's hold on a KV snapshot: while the lease is live, snapshot retention keeps the snapshot.
 * A lease expires {@code kv.snapshot.lease-timeout} after it was taken or last renewed.
 *
 * @param bucket the bucket
 * @param leaseId the id to renew or release the lease with
 * @param snapshotId the snapshot held
 * @param expiresAtNanos expiry on the store clock's monotonic time ({@code Clock.nanoTime()})
 */
public record SnapshotLease(
        TableBucket bucket, long leaseId, long snapshotId, long expiresAtNanos) {}

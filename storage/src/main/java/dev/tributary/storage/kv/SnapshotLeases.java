package dev.tributary.storage.kv;

import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Live leases on a bucket's snapshots, kept in memory (a restarted server has no readers streaming
 * from it). Expiry uses the clock's monotonic time.
 */
final class SnapshotLeases {
    private static final AtomicLong NEXT_ID = new AtomicLong(1);

    private final TableBucket bucket;
    private final Clock clock;
    private final long timeoutNanos;
    private final Map<Long, SnapshotLease> leases = new HashMap<>();

    SnapshotLeases(TableBucket bucket, Clock clock, long timeoutNanos) {
        this.bucket = bucket;
        this.clock = clock;
        this.timeoutNanos = timeoutNanos;
    }

    synchronized SnapshotLease acquire(long snapshotId) {
        SnapshotLease lease =
                new SnapshotLease(
                        bucket,
                        NEXT_ID.getAndIncrement(),
                        snapshotId,
                        clock.nanoTime() + timeoutNanos);
        leases.put(lease.leaseId(), lease);
        return lease;
    }

    synchronized SnapshotLease renew(long leaseId) {
        SnapshotLease lease = leases.get(leaseId);
        long now = clock.nanoTime();
        if (lease == null || lease.expiresAtNanos() <= now) {
            leases.remove(leaseId);
            throw new NotFoundException(
                    "snapshot lease "
                            + leaseId
                            + " of bucket "
                            + bucket
                            + " expired or was released; take a new lease (the snapshot may have"
                            + " been deleted meanwhile)");
        }
        SnapshotLease renewed =
                new SnapshotLease(bucket, leaseId, lease.snapshotId(), now + timeoutNanos);
        leases.put(leaseId, renewed);
        return renewed;
    }

    synchronized void release(long leaseId) {
        leases.remove(leaseId);
    }

    /** True if a live lease holds the snapshot; drops expired leases on the way. */
    synchronized boolean isLeased(long snapshotId) {
        long now = clock.nanoTime();
        leases.values().removeIf(l -> l.expiresAtNanos() <= now);
        return leases.values().stream().anyMatch(l -> l.snapshotId() == snapshotId);
    }
}

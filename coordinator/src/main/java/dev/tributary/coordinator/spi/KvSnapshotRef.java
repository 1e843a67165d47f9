package dev.tributary.coordinator.spi;

/**
 * A completed KV snapshot of a primary-key bucket.
 *
 * @param snapshotId the storage's snapshot id
 * @param logOffset the bucket's log offset the snapshot is consistent at (exclusive end: every
 *     record below it is in the snapshot)
 */
public record KvSnapshotRef(long snapshotId, long logOffset) {
    public KvSnapshotRef {
        if (logOffset < 0) {
            throw new IllegalArgumentException("log offset must be >= 0: " + logOffset);
        }
    }
}

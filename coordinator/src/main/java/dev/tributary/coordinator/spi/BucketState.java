package dev.tributary.coordinator.spi;

/**
 * What the store knows about one bucket right now.
 *
 * @param bucket bucket number
 * @param endOffset the log end offset (exclusive: the next offset to be written)
 * @param newestKvSnapshot the newest completed KV snapshot of a primary-key bucket, or {@code null}
 *     (always {@code null} for log tables)
 * @param known false for a bucket whose server has not reported it to this coordinator yet (T49:
 *     the first heartbeats after a failover); such a bucket has nothing to tier yet, which is not
 *     the same as a bucket that really ends at 0
 */
public record BucketState(
        int bucket, long endOffset, KvSnapshotRef newestKvSnapshot, boolean known) {
    public BucketState {
        if (endOffset < 0) {
            throw new IllegalArgumentException("end offset must be >= 0: " + endOffset);
        }
    }

    /** A bucket the store knows. */
    public BucketState(int bucket, long endOffset, KvSnapshotRef newestKvSnapshot) {
        this(bucket, endOffset, newestKvSnapshot, true);
    }

    public static BucketState log(int bucket, long endOffset) {
        return new BucketState(bucket, endOffset, null);
    }

    /** A bucket of another server that has not reported it yet. */
    public static BucketState notReported(int bucket) {
        return new BucketState(bucket, 0, null, false);
    }
}

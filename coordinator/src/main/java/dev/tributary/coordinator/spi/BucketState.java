package dev.tributary.coordinator.spi;

/**
 * What the store knows about one bucket right now.
 *
 * @param bucket bucket number
 * @param endOffset the log end offset (exclusive: the next offset to be written)
 * @param newestKvSnapshot the newest completed KV snapshot of a primary-key bucket, or {@code null}
 *     (always {@code null} for log tables)
 */
public record BucketState(int bucket, long endOffset, KvSnapshotRef newestKvSnapshot) {
    public BucketState {
        if (endOffset < 0) {
            throw new IllegalArgumentException("end offset must be >= 0: " + endOffset);
        }
    }

    public static BucketState log(int bucket, long endOffset) {
        return new BucketState(bucket, endOffset, null);
    }
}

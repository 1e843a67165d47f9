package dev.tributary.coordinator.tiering;

/**
 * The work of one bucket in a round (T1, T7). A round lists only buckets that have data past their
 * tiered offset.
 *
 * @param bucket the bucket
 * @param kind log range or KV snapshot
 * @param startOffset LOG: first offset to read (the tiered offset); SNAPSHOT: 0
 * @param endOffset LOG: the cutoff, exclusive; SNAPSHOT: the snapshot's log offset, which becomes
 *     the bucket's tiered offset when the round commits
 * @param snapshotId SNAPSHOT: the KV snapshot id; LOG: -1
 */
public record BucketWork(int bucket, Kind kind, long startOffset, long endOffset, long snapshotId) {

    /** What a split reads. */
    public enum Kind {
        /** The log range {@code [startOffset, endOffset)}. */
        LOG,
        /** The whole KV snapshot {@code snapshotId} (first round of a primary-key bucket). */
        SNAPSHOT
    }

    public static BucketWork log(int bucket, long startOffset, long endOffset) {
        return new BucketWork(bucket, Kind.LOG, startOffset, endOffset, -1);
    }

    public static BucketWork snapshot(int bucket, long snapshotId, long logOffset) {
        return new BucketWork(bucket, Kind.SNAPSHOT, 0, logOffset, snapshotId);
    }
}

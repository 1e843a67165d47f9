package dev.tributary.coordinator.tiering;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;

/**
 * The work of one bucket (of one partition, for a partitioned table) in a round (T1, T7, T32). A
 * round lists only buckets that have data past their tiered offset.
 *
 * @param partitionId the bucket's partition, {@link TableBucket#NO_PARTITION} for an unpartitioned
 *     table
 * @param bucket the bucket within its partition
 * @param kind log range or KV snapshot
 * @param startOffset LOG: first offset to read (the tiered offset); SNAPSHOT: 0
 * @param endOffset LOG: the cutoff, exclusive; SNAPSHOT: the snapshot's log offset, which becomes
 *     the bucket's tiered offset when the round commits
 * @param snapshotId SNAPSHOT: the KV snapshot id; LOG: -1
 */
public record BucketWork(
        long partitionId,
        int bucket,
        Kind kind,
        long startOffset,
        long endOffset,
        long snapshotId) {

    /** What a split reads. */
    public enum Kind {
        /** The log range {@code [startOffset, endOffset)}. */
        LOG,
        /** The whole KV snapshot {@code snapshotId} (first round of a primary-key bucket). */
        SNAPSHOT
    }

    /** A log range of a bucket of an unpartitioned table. */
    public static BucketWork log(int bucket, long startOffset, long endOffset) {
        return log(TableBucket.NO_PARTITION, bucket, startOffset, endOffset);
    }

    public static BucketWork log(long partitionId, int bucket, long startOffset, long endOffset) {
        return new BucketWork(partitionId, bucket, Kind.LOG, startOffset, endOffset, -1);
    }

    /** A KV snapshot of a bucket of an unpartitioned table. */
    public static BucketWork snapshot(int bucket, long snapshotId, long logOffset) {
        return snapshot(TableBucket.NO_PARTITION, bucket, snapshotId, logOffset);
    }

    public static BucketWork snapshot(
            long partitionId, int bucket, long snapshotId, long logOffset) {
        return new BucketWork(partitionId, bucket, Kind.SNAPSHOT, 0, logOffset, snapshotId);
    }

    /** The bucket within its table. */
    public PartitionBucket key() {
        return new PartitionBucket(partitionId, bucket);
    }
}

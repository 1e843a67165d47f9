package dev.tributary.tiering.api;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import java.io.Serializable;

/**
 * What one round reads from one bucket (of one partition, for a partitioned table; T1, T7, T32):
 * the log range {@code [startOffset, endOffset)} or, for the first round of a primary-key bucket
 * with a KV snapshot, the whole snapshot. A round lists only buckets that have data past their
 * tiered offset.
 *
 * @param partitionId the bucket's partition, {@link TableBucket#NO_PARTITION} for an unpartitioned
 *     table (its name is in {@link RoundPlan#partitionNames()})
 * @param bucket the bucket within its partition
 * @param kind log range or KV snapshot
 * @param startOffset LOG: first offset to read (the tiered offset); SNAPSHOT: 0
 * @param endOffset LOG: the cutoff, exclusive; SNAPSHOT: the snapshot's log offset, which becomes
 *     the bucket's tiered offset when the round commits
 * @param snapshotId SNAPSHOT: the KV snapshot id; LOG: {@link #NO_SNAPSHOT}
 */
public record BucketPlan(
        long partitionId, int bucket, Kind kind, long startOffset, long endOffset, long snapshotId)
        implements Serializable {

    /** The snapshot id of a LOG plan. */
    public static final long NO_SNAPSHOT = -1L;

    /** What a split reads. */
    public enum Kind {
        /** The log range {@code [startOffset, endOffset)}. */
        LOG,
        /** The whole KV snapshot {@code snapshotId} (first round of a primary-key bucket). */
        SNAPSHOT
    }

    public BucketPlan {
        if (kind == Kind.LOG && endOffset < startOffset) {
            throw new IllegalArgumentException(
                    "bucket " + bucket + ": cutoff " + endOffset + " < start " + startOffset);
        }
    }

    /** A log range of a bucket of an unpartitioned table. */
    public static BucketPlan log(int bucket, long startOffset, long endOffset) {
        return log(TableBucket.NO_PARTITION, bucket, startOffset, endOffset);
    }

    /** A log range of a bucket of a partition. */
    public static BucketPlan log(long partitionId, int bucket, long startOffset, long endOffset) {
        return new BucketPlan(partitionId, bucket, Kind.LOG, startOffset, endOffset, NO_SNAPSHOT);
    }

    /** A KV snapshot of a bucket of an unpartitioned table. */
    public static BucketPlan snapshot(int bucket, long snapshotId, long logOffset) {
        return snapshot(TableBucket.NO_PARTITION, bucket, snapshotId, logOffset);
    }

    /** A KV snapshot of a bucket of a partition; {@code logOffset} becomes its tiered offset. */
    public static BucketPlan snapshot(
            long partitionId, int bucket, long snapshotId, long logOffset) {
        return new BucketPlan(partitionId, bucket, Kind.SNAPSHOT, 0, logOffset, snapshotId);
    }

    /** The bucket within its table. */
    public PartitionBucket key() {
        return new PartitionBucket(partitionId, bucket);
    }

    public boolean isSnapshot() {
        return kind == Kind.SNAPSHOT;
    }

    public boolean isPartitioned() {
        return partitionId != TableBucket.NO_PARTITION;
    }

    /** Records pending in the log range (0 for snapshot reads, whose size is unknown). */
    public long pendingRecords() {
        return isSnapshot() ? 0 : endOffset - startOffset;
    }
}

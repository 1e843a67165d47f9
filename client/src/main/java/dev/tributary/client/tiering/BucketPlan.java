package dev.tributary.client.tiering;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import java.io.Serializable;

/**
 * What one round reads from one bucket (of one partition, T32): either the log range {@code
 * [startOffset, cutoff)} or, for the first round of a PK bucket with a KV snapshot (T7), the whole
 * snapshot, after which the bucket's tiered offset is the snapshot's log offset.
 *
 * @param partitionId the bucket's partition, {@link TableBucket#NO_PARTITION} for an unpartitioned
 *     table
 * @param partitionName the partition's name ({@code dt=2026-12-01}), {@code null} for an
 *     unpartitioned table
 */
public record BucketPlan(
        int bucket,
        long startOffset,
        long cutoff,
        long snapshotId,
        long partitionId,
        String partitionName)
        implements Serializable {
    /** Marks a plan without a snapshot. */
    public static final long NO_SNAPSHOT = -1L;

    public BucketPlan {
        if (snapshotId == NO_SNAPSHOT && cutoff < startOffset) {
            throw new IllegalArgumentException(
                    "bucket " + bucket + ": cutoff " + cutoff + " < start " + startOffset);
        }
        if ((partitionId == TableBucket.NO_PARTITION) != (partitionName == null)) {
            throw new IllegalArgumentException(
                    "bucket "
                            + bucket
                            + ": a partition needs both an id and a name, got "
                            + partitionId
                            + " / "
                            + partitionName);
        }
    }

    /** A bucket of an unpartitioned table. */
    public BucketPlan(int bucket, long startOffset, long cutoff, long snapshotId) {
        this(bucket, startOffset, cutoff, snapshotId, TableBucket.NO_PARTITION, null);
    }

    public static BucketPlan log(int bucket, long startOffset, long cutoff) {
        return new BucketPlan(bucket, startOffset, cutoff, NO_SNAPSHOT);
    }

    /** A snapshot read; {@code snapshotLogOffset} becomes the bucket's tiered offset. */
    public static BucketPlan snapshot(int bucket, long snapshotId, long snapshotLogOffset) {
        return new BucketPlan(bucket, snapshotLogOffset, snapshotLogOffset, snapshotId);
    }

    /** This plan for a bucket of the given partition. */
    public BucketPlan inPartition(long id, String name) {
        return new BucketPlan(bucket, startOffset, cutoff, snapshotId, id, name);
    }

    public boolean isSnapshot() {
        return snapshotId != NO_SNAPSHOT;
    }

    public boolean isPartitioned() {
        return partitionId != TableBucket.NO_PARTITION;
    }

    /** The bucket within its table. */
    public PartitionBucket key() {
        return new PartitionBucket(partitionId, bucket);
    }

    /** Records pending in the log range (0 for snapshot reads, whose size is unknown). */
    public long pendingRecords() {
        return isSnapshot() ? 0 : cutoff - startOffset;
    }
}

package dev.tributary.client.tiering;

import java.io.Serializable;

/**
 * What one round reads from one bucket: either the log range {@code [startOffset, cutoff)} or, for
 * the first round of a PK bucket with a KV snapshot (T7), the whole snapshot, after which the
 * bucket's tiered offset is the snapshot's log offset.
 */
public record BucketPlan(int bucket, long startOffset, long cutoff, long snapshotId)
        implements Serializable {
    /** Marks a plan without a snapshot. */
    public static final long NO_SNAPSHOT = -1L;

    public BucketPlan {
        if (snapshotId == NO_SNAPSHOT && cutoff < startOffset) {
            throw new IllegalArgumentException(
                    "bucket " + bucket + ": cutoff " + cutoff + " < start " + startOffset);
        }
    }

    public static BucketPlan log(int bucket, long startOffset, long cutoff) {
        return new BucketPlan(bucket, startOffset, cutoff, NO_SNAPSHOT);
    }

    /** A snapshot read; {@code snapshotLogOffset} becomes the bucket's tiered offset. */
    public static BucketPlan snapshot(int bucket, long snapshotId, long snapshotLogOffset) {
        return new BucketPlan(bucket, snapshotLogOffset, snapshotLogOffset, snapshotId);
    }

    public boolean isSnapshot() {
        return snapshotId != NO_SNAPSHOT;
    }

    /** Records pending in the log range (0 for snapshot reads, whose size is unknown). */
    public long pendingRecords() {
        return isSnapshot() ? 0 : cutoff - startOffset;
    }
}

package dev.tributary.common.id;

/**
 * A bucket within one table: its partition id ({@link TableBucket#NO_PARTITION} for an
 * unpartitioned table) and its bucket number. The key of everything the tiering protocol records
 * per bucket (plans, commits, tiered offsets, lake snapshot properties). Sorted by partition, then
 * bucket.
 */
public record PartitionBucket(long partitionId, int bucket) implements Comparable<PartitionBucket> {

    public PartitionBucket {
        if (partitionId < TableBucket.NO_PARTITION) {
            throw new IllegalArgumentException("partition id must be >= -1: " + partitionId);
        }
        if (bucket < 0) {
            throw new IllegalArgumentException("bucket must be >= 0: " + bucket);
        }
    }

    /** A bucket of an unpartitioned table. */
    public static PartitionBucket of(int bucket) {
        return new PartitionBucket(TableBucket.NO_PARTITION, bucket);
    }

    public static PartitionBucket of(long partitionId, int bucket) {
        return new PartitionBucket(partitionId, bucket);
    }

    public boolean isPartitioned() {
        return partitionId != TableBucket.NO_PARTITION;
    }

    @Override
    public int compareTo(PartitionBucket o) {
        int c = Long.compare(partitionId, o.partitionId);
        return c != 0 ? c : Integer.compare(bucket, o.bucket);
    }

    @Override
    public String toString() {
        return isPartitioned() ? "p" + partitionId + "/" + bucket : Integer.toString(bucket);
    }
}

package dev.tributary.common.id;

/**
 * One bucket of one table, or of one partition of a partitioned table. The table id (not the path)
 * identifies the table, and the partition id (not the partition's values) identifies the partition,
 * so a dropped and re-created table or partition never shares buckets or offsets with its
 * predecessor.
 *
 * @param tableId the table id
 * @param partitionId the partition id, {@link #NO_PARTITION} for an unpartitioned table
 * @param bucket the bucket within the table or partition
 */
public record TableBucket(long tableId, long partitionId, int bucket)
        implements Comparable<TableBucket> {

    /** The partition id of every bucket of an unpartitioned table. */
    public static final long NO_PARTITION = -1L;

    public TableBucket {
        if (tableId < 0) {
            throw new IllegalArgumentException("table id must be >= 0: " + tableId);
        }
        if (partitionId < NO_PARTITION) {
            throw new IllegalArgumentException("partition id must be >= -1: " + partitionId);
        }
        if (bucket < 0) {
            throw new IllegalArgumentException("bucket must be >= 0: " + bucket);
        }
    }

    /** A bucket of an unpartitioned table. */
    public TableBucket(long tableId, int bucket) {
        this(tableId, NO_PARTITION, bucket);
    }

    /** A bucket of a partition ({@code partitionId} may be {@link #NO_PARTITION}). */
    public static TableBucket of(long tableId, PartitionBucket bucket) {
        return new TableBucket(tableId, bucket.partitionId(), bucket.bucket());
    }

    public boolean isPartitioned() {
        return partitionId != NO_PARTITION;
    }

    /** The bucket within its table: partition and bucket number. */
    public PartitionBucket partitionBucket() {
        return new PartitionBucket(partitionId, bucket);
    }

    @Override
    public int compareTo(TableBucket o) {
        int c = Long.compare(tableId, o.tableId);
        if (c != 0) {
            return c;
        }
        c = Long.compare(partitionId, o.partitionId);
        return c != 0 ? c : Integer.compare(bucket, o.bucket);
    }

    @Override
    public String toString() {
        return isPartitioned()
                ? tableId + "/p" + partitionId + "/" + bucket
                : tableId + "/" + bucket;
    }
}

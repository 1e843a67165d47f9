package dev.tributary.common.id;

import java.util.Objects;

/**
 * One bucket of one lake partition: the unit of lake compaction (T38). A partitioned lake table's
 * bucket b of one partition is a different set of files from bucket b of another; the two are
 * planned, granted, compacted and counted apart, so a budget of N units is N rewrites whatever the
 * number of partitions.
 *
 * @param partition the lake partition as the lake names it ({@code dt=2026-12-01}, {@code
 *     k1=v1/k2=v2}), {@link #UNPARTITIONED} for an unpartitioned table
 * @param bucket the lake bucket (the Paimon bucket or the Iceberg {@code bucket[N]} value; -1 is
 *     Iceberg's partition of NULL keys, 0 a table without buckets)
 */
public record LakeBucket(String partition, int bucket) implements Comparable<LakeBucket> {
    /** The partition name of an unpartitioned table's files. */
    public static final String UNPARTITIONED = "";

    public LakeBucket {
        Objects.requireNonNull(partition, "partition");
        if (bucket < -1) {
            throw new IllegalArgumentException("bucket must be >= -1: " + bucket);
        }
    }

    /** A bucket of an unpartitioned lake table. */
    public static LakeBucket of(int bucket) {
        return new LakeBucket(UNPARTITIONED, bucket);
    }

    @Override
    public int compareTo(LakeBucket o) {
        int c = partition.compareTo(o.partition);
        return c != 0 ? c : Integer.compare(bucket, o.bucket);
    }

    @Override
    public String toString() {
        return partition.isEmpty() ? "bucket " + bucket : partition + " bucket " + bucket;
    }
}

package dev.tributary.server.status;

import java.util.Map;
import java.util.OptionalLong;

/**
 * Where a lake lag's numbers come from: each bucket's end offset (its high watermark) and the
 * append time of its first record not in the lake yet, wherever the bucket is held (T28).
 */
public interface BucketEnds {

    /**
     * The ends of buckets {@code 0..buckets-1} of a table, or of one of its partitions.
     *
     * @param partitionId the partition, or {@code TableBucket.NO_PARTITION}
     * @param tiered per bucket number, the offset up to which the lake holds the bucket: the append
     *     time asked for is that of the first record at or after it
     * @return per bucket number
     * @throws dev.tributary.common.exception.TributaryException when a bucket cannot be read
     */
    Map<Integer, End> ends(long tableId, long partitionId, int buckets, Map<Integer, Long> tiered);

    /**
     * @param endOffset the bucket's end offset
     * @param firstUntieredMillis append time of the first record at or after the tiered offset;
     *     empty when the end is not past it
     */
    record End(long endOffset, OptionalLong firstUntieredMillis) {}
}

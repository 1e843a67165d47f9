package dev.tributary.lake.api.maintenance;

/**
 * Which buckets need compaction and how much one maintenance round may do (T38).
 *
 * @param maxFiles a (partition, bucket) with more live files than this (data files, plus delete
 *     files for formats that have them) is compacted down to at most this many
 * @param maxBuckets at most this many lake buckets per maintenance round, the ones with the most
 *     files first, a bucket of each partition counting as one ({@link
 *     dev.tributary.common.id.LakeBucket}): the budget that keeps one round short whatever the
 *     number of partitions
 */
public record CompactionPolicy(int maxFiles, int maxBuckets) {
    public CompactionPolicy {
        if (maxFiles < 1) {
            throw new IllegalArgumentException("maxFiles must be >= 1: " + maxFiles);
        }
        if (maxBuckets < 1) {
            throw new IllegalArgumentException("maxBuckets must be >= 1: " + maxBuckets);
        }
    }
}

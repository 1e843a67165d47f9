package dev.tributary.lake.api.maintenance;

import dev.tributary.common.id.LakeBucket;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a lake table holds now, read from its latest snapshot's metadata (no data file is opened).
 *
 * <p>The unit of compaction is a lake (partition, bucket): a partitioned table's bucket b of one
 * partition is a different set of files from bucket b of another, and the two are never compacted
 * together. {@link #dataFilesPerPartition()} holds the live files of every (partition, bucket);
 * {@link #dataFilesPerBucket()} is derived from it as the most files any one partition holds in
 * that bucket, so a {@code max-files} threshold compared with it triggers exactly when some
 * (partition, bucket) exceeds it, never because the partitions together do.
 *
 * @param snapshotId the latest snapshot, -1 when the table has none
 * @param snapshots snapshots the table retains
 * @param oldestSnapshotMillis commit time of the oldest retained snapshot, -1 when none
 * @param dataFilesPerBucket per lake bucket (the Paimon bucket, or the Iceberg {@code bucket[N]}
 *     partition value, -1 for its NULL-key partition; 0 for a table without buckets), the most live
 *     data files one partition holds in it (an unpartitioned table has one partition); delete files
 *     not counted. Derived from {@code dataFilesPerPartition} when that is not empty
 * @param deleteFiles live delete files (Iceberg equality/position deletes; 0 for Paimon)
 * @param dataBytes bytes of the live data files
 * @param dataFilesPerPartition live data files per lake partition name ({@code dt=2026-12-01},
 *     {@link #UNPARTITIONED} for an unpartitioned table) and bucket
 */
public record LakeTableStats(
        long snapshotId,
        int snapshots,
        long oldestSnapshotMillis,
        SortedMap<Integer, Integer> dataFilesPerBucket,
        int deleteFiles,
        long dataBytes,
        SortedMap<String, SortedMap<Integer, Integer>> dataFilesPerPartition) {

    /** The partition name of an unpartitioned table's files. */
    public static final String UNPARTITIONED = LakeBucket.UNPARTITIONED;

    public static final LakeTableStats EMPTY = new LakeTableStats(-1, 0, -1, new TreeMap<>(), 0, 0);

    public LakeTableStats {
        SortedMap<String, SortedMap<Integer, Integer>> partitions = new TreeMap<>();
        if (dataFilesPerPartition.isEmpty()) {
            if (!dataFilesPerBucket.isEmpty()) {
                partitions.put(UNPARTITIONED, new TreeMap<>(dataFilesPerBucket));
            }
        } else {
            dataFilesPerPartition.forEach(
                    (p, buckets) ->
                            partitions.put(
                                    p, Collections.unmodifiableSortedMap(new TreeMap<>(buckets))));
        }
        SortedMap<Integer, Integer> worst = new TreeMap<>();
        partitions
                .values()
                .forEach(buckets -> buckets.forEach((b, n) -> worst.merge(b, n, Math::max)));
        dataFilesPerBucket = Collections.unmodifiableSortedMap(worst);
        dataFilesPerPartition = Collections.unmodifiableSortedMap(partitions);
    }

    /** An unpartitioned table's statistics. */
    public LakeTableStats(
            long snapshotId,
            int snapshots,
            long oldestSnapshotMillis,
            SortedMap<Integer, Integer> dataFilesPerBucket,
            int deleteFiles,
            long dataBytes) {
        this(
                snapshotId,
                snapshots,
                oldestSnapshotMillis,
                dataFilesPerBucket,
                deleteFiles,
                dataBytes,
                new TreeMap<>());
    }

    /** A table's statistics from its live files per (partition, bucket). */
    public static LakeTableStats of(
            long snapshotId,
            int snapshots,
            long oldestSnapshotMillis,
            SortedMap<String, SortedMap<Integer, Integer>> dataFilesPerPartition,
            int deleteFiles,
            long dataBytes) {
        return new LakeTableStats(
                snapshotId,
                snapshots,
                oldestSnapshotMillis,
                new TreeMap<>(),
                deleteFiles,
                dataBytes,
                dataFilesPerPartition);
    }

    /** Live data files over every (partition, bucket). */
    public int dataFiles() {
        return dataFilesPerPartition.values().stream()
                .flatMap(b -> b.values().stream())
                .mapToInt(Integer::intValue)
                .sum();
    }

    /** The most live data files any (partition, bucket) has (0 for an empty table). */
    public int maxDataFilesPerBucket() {
        return dataFilesPerBucket.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /** Live data files per (partition, bucket) unit. */
    public SortedMap<LakeBucket, Integer> dataFilesPerUnit() {
        SortedMap<LakeBucket, Integer> out = new TreeMap<>();
        dataFilesPerPartition.forEach(
                (p, buckets) -> buckets.forEach((b, n) -> out.put(new LakeBucket(p, b), n)));
        return out;
    }
}

package dev.tributary.lake.api.maintenance;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a lake table holds now, read from its latest snapshot's metadata (no data file is opened).
 *
 * @param snapshotId the latest snapshot, -1 when the table has none
 * @param snapshots snapshots the table retains
 * @param oldestSnapshotMillis commit time of the oldest retained snapshot, -1 when none
 * @param dataFilesPerBucket live data files per lake bucket (the Paimon bucket, or the Iceberg
 *     {@code bucket[N]} partition value, -1 for its NULL-key partition; 0 for a table without
 *     buckets); delete files not counted
 * @param deleteFiles live delete files (Iceberg equality/position deletes; 0 for Paimon)
 * @param dataBytes bytes of the live data files
 */
public record LakeTableStats(
        long snapshotId,
        int snapshots,
        long oldestSnapshotMillis,
        SortedMap<Integer, Integer> dataFilesPerBucket,
        int deleteFiles,
        long dataBytes) {

    public static final LakeTableStats EMPTY = new LakeTableStats(-1, 0, -1, new TreeMap<>(), 0, 0);

    public LakeTableStats {
        dataFilesPerBucket = Collections.unmodifiableSortedMap(new TreeMap<>(dataFilesPerBucket));
    }

    /** Live data files over every bucket. */
    public int dataFiles() {
        return dataFilesPerBucket.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The most live data files any bucket has (0 for an empty table). */
    public int maxDataFilesPerBucket() {
        return dataFilesPerBucket.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }
}

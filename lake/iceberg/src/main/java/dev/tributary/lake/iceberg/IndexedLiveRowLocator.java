package dev.tributary.lake.iceberg;

import dev.tributary.lake.api.index.LakeRowLocation;
import dev.tributary.lake.api.index.LakeRowLocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.util.StructLikeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Locates keys through the store's lake row index (T48): one lookup per split for the keys it
 * retracts, then only the manifests of the bucket's files (for the files' metadata and existing
 * deletes), no data file read. The rows are found by reading the lake instead when that is cheaper
 * (the split retracts many of the bucket's rows), when the index cannot answer (the server keeps
 * none for the table), or when it names a file the table's snapshot does not hold.
 */
final class IndexedLiveRowLocator implements LiveRowLocator {
    private static final Logger LOG = LoggerFactory.getLogger(IndexedLiveRowLocator.class);

    private final IcebergBucketRows bucket;
    private final LakeRowLocator index;
    private final IcebergRowKeys keys;
    private final IcebergLakeRowLocator lake;
    private final int minRowsPerKey;

    /**
     * @param minRowsPerKey ask the index only when the bucket's files hold at least this many rows
     *     per key to locate ({@code table.datalake.pk-deletes.index-min-rows-per-key}; 0: always):
     *     locating keys through the index costs the lookup and the index's catch-up, which reads
     *     the rows the rounds since the indexed snapshot added and writes them into RocksDB (or
     *     every row, when the index was never built); reading the lake costs a read of every row of
     *     the bucket's files
     */
    IndexedLiveRowLocator(
            IcebergBucketRows bucket,
            LakeRowLocator index,
            IcebergLakeRowLocator lake,
            int minRowsPerKey) {
        this.bucket = bucket;
        this.index = index;
        this.keys = new IcebergRowKeys(bucket.keySchema().asStruct());
        this.lake = lake;
        this.minRowsPerKey = minRowsPerKey;
    }

    /** Whether reading every row of the files costs less than locating the keys in the index. */
    private boolean cheaperToReadTheLake(int keyCount, List<FileScanTask> files) {
        long rows = 0;
        for (FileScanTask task : files) {
            rows += task.file().recordCount();
        }
        return rows < (long) keyCount * minRowsPerKey;
    }

    @Override
    public LiveRows locate(StructLikeSet wanted) {
        bucket.table().refresh();
        Snapshot base = bucket.table().currentSnapshot();
        if (base == null) {
            return new LiveRows(null, List.of(), wanted.size());
        }
        List<FileScanTask> tasks = bucket.files(base.snapshotId());
        if (cheaperToReadTheLake(wanted.size(), tasks)) {
            return lake.locate(wanted, base.snapshotId(), tasks);
        }
        List<byte[]> encoded = new ArrayList<>(wanted.size());
        for (StructLike k : wanted) {
            encoded.add(keys.encode(k));
        }
        Optional<LakeRowLocation[]> found = index.locate(base.snapshotId(), encoded);
        if (found.isEmpty()) {
            return lake.locate(wanted, base.snapshotId(), tasks);
        }
        Map<String, long[]> byFile = new HashMap<>();
        Map<String, Integer> counts = new HashMap<>();
        long notFound = 0;
        for (LakeRowLocation at : found.get()) {
            if (at == null) {
                notFound++;
                continue;
            }
            int n = counts.merge(at.file(), 1, Integer::sum);
            long[] positions = byFile.computeIfAbsent(at.file(), f -> new long[8]);
            if (n > positions.length) {
                positions = Arrays.copyOf(positions, positions.length * 2);
                byFile.put(at.file(), positions);
            }
            positions[n - 1] = at.position();
        }
        List<FileRows> files = new ArrayList<>();
        if (!byFile.isEmpty()) {
            for (FileScanTask task : tasks) {
                long[] positions = byFile.remove(task.file().location());
                if (positions != null) {
                    long[] sorted = Arrays.copyOf(positions, counts.get(task.file().location()));
                    Arrays.sort(sorted);
                    files.add(new FileRows(task.file(), sorted, bucket.existingDeletes(task)));
                }
            }
        }
        if (!byFile.isEmpty()) {
            // the index and the lake disagree: never retract a row on a guess
            LOG.warn(
                    "the lake row index of bucket {} of Iceberg table '{}' names files snapshot {}"
                            + " does not hold ({}); reading the lake instead",
                    bucket,
                    bucket.table().name(),
                    base.snapshotId(),
                    byFile.keySet());
            return lake.locate(wanted, base.snapshotId(), tasks);
        }
        return new LiveRows(base.snapshotId(), files, notFound);
    }
}

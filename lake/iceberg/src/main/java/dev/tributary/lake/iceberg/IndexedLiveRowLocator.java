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
 * deletes), no data file read. When the index cannot answer (the server keeps none for the table),
 * or names a file the table's snapshot does not hold, the rows are found by reading the lake
 * ({@code fallback}).
 */
final class IndexedLiveRowLocator implements LiveRowLocator {
    private static final Logger LOG = LoggerFactory.getLogger(IndexedLiveRowLocator.class);

    private final IcebergBucketRows bucket;
    private final LakeRowLocator index;
    private final IcebergRowKeys keys;
    private final LiveRowLocator fallback;

    IndexedLiveRowLocator(IcebergBucketRows bucket, LakeRowLocator index, LiveRowLocator fallback) {
        this.bucket = bucket;
        this.index = index;
        this.keys = new IcebergRowKeys(bucket.keySchema().asStruct());
        this.fallback = fallback;
    }

    @Override
    public LiveRows locate(StructLikeSet wanted) {
        bucket.table().refresh();
        Snapshot base = bucket.table().currentSnapshot();
        if (base == null) {
            return new LiveRows(null, List.of(), wanted.size());
        }
        List<byte[]> encoded = new ArrayList<>(wanted.size());
        for (StructLike k : wanted) {
            encoded.add(keys.encode(k));
        }
        Optional<LakeRowLocation[]> found = index.locate(base.snapshotId(), encoded);
        if (found.isEmpty()) {
            return fallback.locate(wanted);
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
            for (FileScanTask task : bucket.files(base.snapshotId())) {
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
            return fallback.locate(wanted);
        }
        return new LiveRows(base.snapshotId(), files, notFound);
    }
}

package dev.tributary.lake.iceberg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.util.StructLikeSet;
import org.apache.iceberg.util.StructLikeUtil;

/**
 * Locates keys by reading the bucket's live rows from the lake at the table's current snapshot (the
 * key columns and positions of every data file that can hold the bucket, the table's deletes
 * applied; see {@link IcebergBucketRows}). Used when the store keeps no lake row index for the
 * split, and when its index and the lake disagree.
 */
final class IcebergLakeRowLocator implements LiveRowLocator {
    private final IcebergBucketRows bucket;

    IcebergLakeRowLocator(IcebergBucketRows bucket) {
        this.bucket = bucket;
    }

    @Override
    public LiveRows locate(StructLikeSet keys) {
        bucket.table().refresh();
        Snapshot base = bucket.table().currentSnapshot();
        if (base == null) {
            return new LiveRows(null, List.of(), keys.size());
        }
        return locate(keys, base.snapshotId(), bucket.files(base.snapshotId()));
    }

    /**
     * Locates the live rows of {@code keys} in the bucket's {@code files} at {@code snapshotId}.
     */
    LiveRows locate(StructLikeSet keys, long snapshotId, List<FileScanTask> files) {
        StructLikeSet found = StructLikeSet.create(bucket.keySchema().asStruct());
        List<FileRows> out = new ArrayList<>();
        for (FileScanTask task : files) {
            long[][] positions = {new long[8]};
            int[] n = {0};
            PositionDeleteIndex existing =
                    bucket.forEachLiveRow(
                            task,
                            (key, position) -> {
                                if (keys.contains(key)) {
                                    if (n[0] == positions[0].length) {
                                        positions[0] = Arrays.copyOf(positions[0], n[0] * 2);
                                    }
                                    positions[0][n[0]++] = position;
                                    found.add(StructLikeUtil.copy(key));
                                }
                            });
            if (n[0] > 0) {
                long[] sorted = Arrays.copyOf(positions[0], n[0]);
                Arrays.sort(sorted);
                out.add(new FileRows(task.file(), sorted, existing));
            }
        }
        return new LiveRows(snapshotId, out, keys.size() - found.size());
    }
}

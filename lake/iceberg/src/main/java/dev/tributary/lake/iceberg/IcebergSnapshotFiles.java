package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.StorageException;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The data files of an Iceberg table's snapshot, each with its deletes, planned once per process
 * and shared (T48): in a PK round every bucket's writer, and the server's index catch-up for every
 * bucket, need the files of the same snapshot, and each planning reads every manifest of it, which
 * made planning most of what locating a round's rows cost. A snapshot never changes, so a plan
 * stays right; only small plans are kept, and only the last few.
 */
final class IcebergSnapshotFiles {
    /** Plans of more files than this are not kept: each one costs about a kilobyte of heap. */
    static final int MAX_CACHED_FILES = 50_000;

    private static final int MAX_CACHED_SNAPSHOTS = 8;

    private record Key(String table, long snapshotId) {}

    private static final Map<Key, List<FileScanTask>> PLANS =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Key, List<FileScanTask>> eldest) {
                    return size() > MAX_CACHED_SNAPSHOTS;
                }
            };

    private IcebergSnapshotFiles() {}

    /**
     * Every live data file of {@code snapshotId} with its deletes, and the bounds of its {@link
     * LakeSystemColumns#BUCKET} column only.
     */
    static List<FileScanTask> of(Table table, long snapshotId) {
        // the location tells apart tables of several catalogs that share a UUID (a copied table)
        Key key = new Key(table.uuid() + "@" + table.location(), snapshotId);
        synchronized (PLANS) {
            List<FileScanTask> plan = PLANS.get(key);
            if (plan != null) {
                return plan;
            }
        }
        List<FileScanTask> plan = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks =
                table.newScan()
                        .useSnapshot(snapshotId)
                        // the bucket column's bounds tell a bucket's files apart (T36)
                        .includeColumnStats(List.of(LakeSystemColumns.BUCKET))
                        .planFiles()) {
            tasks.forEach(plan::add);
        } catch (IOException e) {
            throw new StorageException(
                    "planning snapshot "
                            + snapshotId
                            + " of Iceberg table '"
                            + table.name()
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
        plan = List.copyOf(plan);
        if (plan.size() <= MAX_CACHED_FILES) {
            synchronized (PLANS) {
                PLANS.put(key, plan);
            }
        }
        return plan;
    }
}

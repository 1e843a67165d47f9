package dev.tributary.tiering.testutil;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Schema;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;

/**
 * {@link LakeLayout} of an Iceberg (Hadoop catalog) warehouse, through Iceberg's own snapshots,
 * planner, generic reader and partitioning.
 */
final class IcebergLakeLayout implements LakeLayout {
    private final File warehouse;

    IcebergLakeLayout(File warehouse) {
        this.warehouse = warehouse;
    }

    private interface TableAction<T> {
        T apply(Table table) throws Exception;
    }

    private <T> T withTable(TablePath path, TableAction<T> action) throws Exception {
        try (HadoopCatalog catalog =
                new HadoopCatalog(
                        new org.apache.hadoop.conf.Configuration(), warehouse.toURI().toString())) {
            return action.apply(
                    catalog.loadTable(TableIdentifier.of(path.database(), path.table())));
        }
    }

    @Override
    public LiveFiles liveFiles(TablePath path) throws Exception {
        return withTable(
                path,
                table -> {
                    int dataFiles = 0;
                    java.util.Set<String> deletes = new java.util.HashSet<>();
                    java.util.Set<String> equality = new java.util.HashSet<>();
                    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                        for (FileScanTask t : tasks) {
                            dataFiles++;
                            for (DeleteFile d : t.deletes()) {
                                deletes.add(d.location());
                                if (d.content() == FileContent.EQUALITY_DELETES) {
                                    equality.add(d.location());
                                }
                            }
                        }
                    }
                    return new LiveFiles(
                            dataFiles,
                            deletes.size(),
                            equality.size(),
                            List.of(),
                            equality.isEmpty());
                });
    }

    @Override
    public List<Round> rounds(TablePath path) throws Exception {
        return withTable(
                path,
                table -> {
                    List<Round> out = new ArrayList<>();
                    List<Snapshot> snapshots = new ArrayList<>();
                    table.snapshots().forEach(snapshots::add);
                    snapshots.sort(java.util.Comparator.comparingLong(Snapshot::sequenceNumber));
                    for (Snapshot s : snapshots) {
                        Optional<TieringSnapshotProperties> p =
                                TieringSnapshotProperties.fromProperties(s.summary());
                        if (p.isEmpty()) {
                            continue;
                        }
                        Map<Integer, Integer> added = new HashMap<>();
                        for (DataFile f : s.addedDataFiles(table.io())) {
                            added.merge(bucketOf(f.partition()), 1, Integer::sum);
                        }
                        out.add(new Round(s.snapshotId(), p.get(), added));
                    }
                    return out;
                });
    }

    @Override
    public List<PlacedRow> rows(TablePath path, Schema schema) throws Exception {
        return withTable(
                path,
                table -> {
                    List<PlacedRow> out = new ArrayList<>();
                    PartitionKey partition = new PartitionKey(table.spec(), table.schema());
                    InternalRecordWrapper internal =
                            new InternalRecordWrapper(table.schema().asStruct());
                    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
                        for (Record r : records) {
                            Object[] values = new Object[schema.fieldCount()];
                            for (int i = 0; i < values.length; i++) {
                                values[i] = r.getField(schema.columns().get(i).name());
                            }
                            partition.partition(internal.wrap(r));
                            out.add(
                                    new PlacedRow(
                                            Row.wrap(values),
                                            (Integer) r.getField("__bucket"),
                                            bucketOf(partition)));
                        }
                    }
                    return out;
                });
    }

    @Override
    public Map<Integer, Integer> dataFilesPlannedFor(TablePath path, String column, Object value)
            throws Exception {
        return withTable(
                path,
                table -> {
                    TableScan scan = table.newScan().filter(Expressions.equal(column, value));
                    Map<Integer, Integer> out = new HashMap<>();
                    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
                        for (FileScanTask t : tasks) {
                            out.merge(bucketOf(t.file().partition()), 1, Integer::sum);
                        }
                    }
                    return out;
                });
    }

    /** The bucket partition value; null for an unpartitioned table or the NULL partition. */
    private static Integer bucketOf(StructLike partition) {
        return partition.size() == 0 ? null : partition.get(0, Integer.class);
    }
}

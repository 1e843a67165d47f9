package dev.tributary.tiering.objectstore;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Schema;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.testutil.PaimonLakeReader;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * An Iceberg lake as another engine finds it: through the same REST catalog, with Iceberg's own
 * catalog client, S3FileIO and generic reader (none of Tributary's lake code).
 */
final class RestCatalogLake implements AutoCloseable {
    private final Catalog catalog;

    RestCatalogLake(Map<String, String> catalogProperties) {
        this.catalog =
                CatalogUtil.buildIcebergCatalog(
                        "other-engine",
                        catalogProperties,
                        new org.apache.hadoop.conf.Configuration());
    }

    Table table(TablePath path) {
        return catalog.loadTable(TableIdentifier.of(path.database(), path.table()));
    }

    /** The tiering properties of the table's snapshots, oldest first. */
    List<TieringSnapshotProperties> tieringSnapshots(TablePath path) {
        List<Snapshot> all = new ArrayList<>();
        table(path).snapshots().forEach(all::add);
        all.sort(Comparator.comparingLong(Snapshot::sequenceNumber));
        List<TieringSnapshotProperties> out = new ArrayList<>();
        for (Snapshot s : all) {
            TieringSnapshotProperties.fromProperties(s.summary()).ifPresent(out::add);
        }
        return out;
    }

    /** The offsets of the newest tiering snapshot, per (partition, bucket). */
    Map<PartitionBucket, Long> committedOffsets(TablePath path) {
        List<TieringSnapshotProperties> s = tieringSnapshots(path);
        return s.isEmpty() ? Map.of() : s.get(s.size() - 1).offsets();
    }

    int snapshotCount(TablePath path) {
        int n = 0;
        for (Snapshot ignored : table(path).snapshots()) {
            n++;
        }
        return n;
    }

    /** Every live row with its bucket, offset and timestamp, deletes applied. */
    List<PaimonLakeReader.LakeRow> rows(TablePath path, Schema schema) throws Exception {
        List<PaimonLakeReader.LakeRow> out = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table(path)).build()) {
            for (Record r : records) {
                Object[] values = new Object[schema.fieldCount()];
                for (int i = 0; i < values.length; i++) {
                    Object v = r.getField(schema.columns().get(i).name());
                    values[i] = v instanceof CharSequence c ? c.toString() : v;
                }
                OffsetDateTime ts = (OffsetDateTime) r.getField("__timestamp");
                out.add(
                        new PaimonLakeReader.LakeRow(
                                Row.wrap(values),
                                (Integer) r.getField("__bucket"),
                                (Long) r.getField("__offset"),
                                ts.toInstant().toEpochMilli()));
            }
        }
        return out;
    }

    /** Every data and delete file some retained snapshot of the table reads, as s3:// locations. */
    Set<String> referencedFiles(TablePath path) throws Exception {
        Table table = table(path);
        Set<String> out = new TreeSet<>();
        for (Snapshot s : table.snapshots()) {
            try (CloseableIterable<FileScanTask> tasks =
                    table.newScan().useSnapshot(s.snapshotId()).planFiles()) {
                for (FileScanTask t : tasks) {
                    out.add(t.file().location());
                    t.deletes().forEach(d -> out.add(d.location()));
                }
            }
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        if (catalog instanceof AutoCloseable c) {
            c.close();
        }
    }
}

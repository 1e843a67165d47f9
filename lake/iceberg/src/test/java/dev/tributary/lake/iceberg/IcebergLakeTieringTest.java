package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypeRoot;
import dev.tributary.common.types.DataTypes;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeTieringContractTest;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * The lake contract on real Iceberg tables, read back with Iceberg's own {@link IcebergGenerics}.
 */
class IcebergLakeTieringTest extends LakeTieringContractTest {

    /**
     * Iceberg catalog properties beyond the warehouse; empty means Tributary's default (the Hadoop
     * catalog). Passed through unchanged, as a user would configure them.
     */
    protected Map<String, String> catalogProperties() {
        return Map.of();
    }

    /** The warehouse Tributary is given: the local directory unless a subclass moves it. */
    protected String warehouseLocation() {
        return warehouse.toString();
    }

    /**
     * The local directory where the warehouse's files can be seen (for a store, its backing dir).
     */
    protected Path warehouseDir() {
        return warehouse;
    }

    @Override
    protected LakeStorage createStorage(Path warehouse) {
        Map<String, String> conf = new HashMap<>(catalogProperties());
        conf.put("warehouse", warehouseLocation());
        return LakeStoragePlugins.find("iceberg").createLakeStorage(Configuration.fromMap(conf));
    }

    @Override
    protected String format() {
        return "iceberg";
    }

    /** An independent Iceberg catalog, as another engine would open it. */
    private <T> T withNativeTable(TablePath path, IcebergNativeCatalog.TableAction<T> action)
            throws Exception {
        return IcebergNativeCatalog.withTable(
                catalogProperties(),
                warehouseLocation(),
                TableIdentifier.of(path.database(), path.table()),
                action);
    }

    @Override
    protected List<Row> readWithFormatReader(TablePath path) throws Exception {
        return withNativeTable(path, IcebergLakeTieringTest::read);
    }

    private static List<Row> read(Table table) throws Exception {
        List<Row> out = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            int columns = table.schema().columns().size();
            for (Record r : records) {
                // reads that apply position deletes append the _pos metadata column
                Object[] f = new Object[columns];
                for (int i = 0; i < f.length; i++) {
                    Object v = r.get(i);
                    if (v instanceof ByteBuffer b) {
                        byte[] bytes = new byte[b.remaining()];
                        b.duplicate().get(bytes);
                        v = bytes;
                    } else if (v instanceof OffsetDateTime t) {
                        v = t.toInstant();
                    } else if (v instanceof CharSequence s) {
                        v = s.toString();
                    }
                    f[i] = v;
                }
                out.add(Row.wrap(f));
            }
        }
        return out;
    }

    @Override
    protected DataType describedType(DataType t) {
        DataType d =
                switch (t.root()) {
                    case TINYINT, SMALLINT -> DataTypes.INT();
                    case TIMESTAMP -> DataTypes.TIMESTAMP(t.precision() > 6 ? 9 : 6);
                    case TIMESTAMP_LTZ -> DataTypes.TIMESTAMP_LTZ(t.precision() > 6 ? 9 : 6);
                    default -> t;
                };
        return d.copy(t.isNullable());
    }

    @Override
    protected Object readBackValue(DataType t, Object v) {
        if (t.root() == DataTypeRoot.TINYINT) {
            return (int) (Byte) v;
        }
        if (t.root() == DataTypeRoot.SMALLINT) {
            return (int) (Short) v;
        }
        return v;
    }

    @Override
    protected List<Path> dataFilesOnDisk(TablePath path) throws Exception {
        Path dir = warehouseDir().resolve(path.database()).resolve(path.table()).resolve("data");
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith("."))
                    .toList();
        }
    }

    @Override
    protected Map<Integer, Integer> liveDataFilesPerLakeBucket(TablePath path) throws Exception {
        return withNativeTable(path, t -> filesPerBucket(t.newScan()));
    }

    /** Iceberg's own planning with a key filter: partition pruning (and file stats) included. */
    @Override
    protected Map<Integer, Integer> dataFilesPlannedFor(TablePath path, String column, Object value)
            throws Exception {
        return withNativeTable(
                path, t -> filesPerBucket(t.newScan().filter(Expressions.equal(column, value))));
    }

    /** Data files per bucket partition value (null: unpartitioned or the NULL partition). */
    private static Map<Integer, Integer> filesPerBucket(TableScan scan) throws Exception {
        Map<Integer, Integer> out = new HashMap<>();
        try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
            for (FileScanTask task : tasks) {
                StructLike p = task.file().partition();
                Integer bucket = p.size() == 0 ? null : p.get(0, Integer.class);
                out.merge(bucket, 1, Integer::sum);
                // position and equality deletes must sit in their data file's partition
                for (DeleteFile d : task.deletes()) {
                    assertThat(d.specId()).isEqualTo(task.file().specId());
                    StructLike dp = d.partition();
                    assertThat(dp.size() == 0 ? null : dp.get(0, Integer.class)).isEqualTo(bucket);
                }
            }
        }
        return out;
    }

    /**
     * T48: no snapshot holds an equality-delete file (PyIceberg and Snowflake refuse them); on a
     * format v3 table every delete is a deletion vector, at most one per data file.
     */
    @Override
    protected void assertReadableWithoutKeyMerge(TablePath path) throws Exception {
        withNativeTable(
                path,
                t -> {
                    for (Snapshot s : t.snapshots()) {
                        for (DeleteFile d : IcebergBuckets.liveDeleteFiles(t, s)) {
                            assertThat(d.content())
                                    .as("%s in snapshot %s", d.location(), s.snapshotId())
                                    .isEqualTo(FileContent.POSITION_DELETES);
                        }
                    }
                    if (t.currentSnapshot() != null && TableUtil.formatVersion(t) >= 3) {
                        java.util.Set<String> seen = new java.util.HashSet<>();
                        for (DeleteFile d :
                                IcebergBuckets.liveDeleteFiles(t, t.currentSnapshot())) {
                            assertThat(d.format()).isEqualTo(FileFormat.PUFFIN);
                            assertThat(seen.add(d.referencedDataFile()))
                                    .as("one deletion vector for %s", d.referencedDataFile())
                                    .isTrue();
                        }
                    }
                    return null;
                });
    }

    @Override
    protected void widenIntColumnOutsideTributary(TablePath path, String column) throws Exception {
        withNativeTable(
                path,
                t -> {
                    t.updateSchema().updateColumn(column, Types.LongType.get()).commit();
                    return null;
                });
    }
}

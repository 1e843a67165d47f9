package dev.tributary.lake.iceberg;

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
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * The lake contract on real Iceberg tables, read back with Iceberg's own {@link IcebergGenerics}.
 */
class IcebergLakeTieringTest extends LakeTieringContractTest {

    @Override
    protected LakeStorage createStorage(Path warehouse) {
        return LakeStoragePlugins.find("iceberg").createLakeStorage(warehouseConfig(warehouse));
    }

    @Override
    protected String format() {
        return "iceberg";
    }

    /** An independent Iceberg catalog, as another engine would open it. */
    private Table nativeTable(TablePath path) {
        HadoopCatalog catalog =
                new HadoopCatalog(
                        new org.apache.hadoop.conf.Configuration(), warehouse.toUri().toString());
        return catalog.loadTable(TableIdentifier.of(path.database(), path.table()));
    }

    @Override
    protected List<Row> readWithFormatReader(TablePath path) throws Exception {
        Table table = nativeTable(path);
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
        Path dir = warehouse.resolve(path.database()).resolve(path.table()).resolve("data");
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
    protected void widenIntColumnOutsideTributary(TablePath path, String column) {
        nativeTable(path).updateSchema().updateColumn(column, Types.LongType.get()).commit();
    }
}

package dev.tributary.tiering.testutil;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Schema;
import java.io.File;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;

/** Reads a tiered table back with Iceberg's own generic reader (T29), deletes applied. */
public final class IcebergLakeReader {
    private IcebergLakeReader() {}

    public static List<PaimonLakeReader.LakeRow> read(File warehouse, TablePath path, Schema schema)
            throws Exception {
        try (HadoopCatalog catalog =
                new HadoopCatalog(
                        new org.apache.hadoop.conf.Configuration(), warehouse.toURI().toString())) {
            Table table = catalog.loadTable(TableIdentifier.of(path.database(), path.table()));
            List<PaimonLakeReader.LakeRow> out = new ArrayList<>();
            try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
                for (Record r : records) {
                    Object[] values = new Object[schema.fieldCount()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = r.getField(schema.columns().get(i).name());
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
    }
}

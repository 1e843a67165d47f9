package dev.tributary.tiering.testutil;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypeRoot;
import dev.tributary.common.types.Schema;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;

/** Reads a tiered table back with Paimon's own reader (T29), independent of the plugin's code. */
public final class PaimonLakeReader {
    /** One lake row: the Tributary columns plus the system columns. */
    public record LakeRow(Row row, int bucket, long offset, long timestampMillis) {}

    private PaimonLakeReader() {}

    public static List<LakeRow> read(File warehouse, TablePath path, Schema schema)
            throws Exception {
        Options options =
                Options.fromMap(
                        Map.of(
                                "warehouse",
                                warehouse.toURI().toString(),
                                "cache-enabled",
                                "false"));
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
            ReadBuilder rb = table.newReadBuilder();
            List<LakeRow> out = new ArrayList<>();
            int n = schema.fieldCount();
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan().splits())) {
                reader.forEachRemaining(
                        r -> {
                            Object[] values = new Object[n];
                            for (int i = 0; i < n; i++) {
                                values[i] = r.isNullAt(i) ? null : value(schema, r, i);
                            }
                            out.add(
                                    new LakeRow(
                                            Row.wrap(values),
                                            r.getInt(n),
                                            r.getLong(n + 1),
                                            r.getTimestamp(n + 2, 3).getMillisecond()));
                        });
            }
            return out;
        }
    }

    static Object value(Schema schema, InternalRow r, int i) {
        DataTypeRoot root = schema.typeAt(i).root();
        return switch (root) {
            case BIGINT -> r.getLong(i);
            case INT -> r.getInt(i);
            case STRING -> r.getString(i).toString();
            case DATE -> java.time.LocalDate.ofEpochDay(r.getInt(i));
            default -> throw new IllegalArgumentException("test reader does not map " + root);
        };
    }
}

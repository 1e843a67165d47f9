package dev.tributary.tiering.testutil;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypeRoot;
import dev.tributary.common.types.Schema;
import java.io.File;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;

/**
 * A partitioned table as the lake formats lay it out (T32), read with their own APIs: the lake
 * table's partition columns, and per lake partition the rows that the format's partition-pruned
 * read returns. A partition is a value of the one partition column, as a string.
 */
public final class LakePartitions {
    /** The lake table's partition columns and its rows by lake partition. */
    public record Layout(
            List<String> partitionKeys, Map<String, List<PaimonLakeReader.LakeRow>> rows) {}

    private LakePartitions() {}

    public static Layout read(
            String format, File warehouse, TablePath path, Schema schema, String column)
            throws Exception {
        return format.equals("iceberg")
                ? iceberg(warehouse, path, schema, column)
                : paimon(warehouse, path, schema, column);
    }

    private static Layout paimon(File warehouse, TablePath path, Schema schema, String column)
            throws Exception {
        Options options =
                Options.fromMap(
                        Map.of(
                                "warehouse",
                                warehouse.toURI().toString(),
                                "cache-enabled",
                                "false"));
        DataTypeRoot type = schema.typeAt(schema.indexOf(column)).root();
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
            List<String> partitionKeys = table.partitionKeys();
            Map<String, List<PaimonLakeReader.LakeRow>> out = new TreeMap<>();
            for (Split s : table.newReadBuilder().newScan().plan().splits()) {
                BinaryRow p = ((DataSplit) s).partition();
                String value =
                        type == DataTypeRoot.DATE
                                ? LocalDate.ofEpochDay(p.getInt(0)).toString()
                                : p.getString(0).toString();
                out.putIfAbsent(value, null);
            }
            for (String value : List.copyOf(out.keySet())) {
                ReadBuilder rb = table.newReadBuilder().withPartitionFilter(Map.of(column, value));
                List<PaimonLakeReader.LakeRow> rows = new ArrayList<>();
                int n = schema.fieldCount();
                try (RecordReader<InternalRow> reader =
                        rb.newRead().createReader(rb.newScan().plan().splits())) {
                    reader.forEachRemaining(
                            r -> {
                                Object[] values = new Object[n];
                                for (int i = 0; i < n; i++) {
                                    values[i] =
                                            r.isNullAt(i)
                                                    ? null
                                                    : PaimonLakeReader.value(schema, r, i);
                                }
                                rows.add(
                                        new PaimonLakeReader.LakeRow(
                                                Row.wrap(values),
                                                r.getInt(n),
                                                r.getLong(n + 1),
                                                r.getTimestamp(n + 2, 3).getMillisecond()));
                            });
                }
                out.put(value, rows);
            }
            return new Layout(partitionKeys, out);
        }
    }

    private static Layout iceberg(File warehouse, TablePath path, Schema schema, String column)
            throws Exception {
        try (HadoopCatalog catalog =
                new HadoopCatalog(
                        new org.apache.hadoop.conf.Configuration(), warehouse.toURI().toString())) {
            org.apache.iceberg.Table table =
                    catalog.loadTable(TableIdentifier.of(path.database(), path.table()));
            List<String> identity = new ArrayList<>();
            int position = -1;
            for (PartitionField f : table.spec().fields()) {
                if (f.transform().isIdentity()) {
                    identity.add(table.schema().findColumnName(f.sourceId()));
                    if (table.schema().findColumnName(f.sourceId()).equals(column)) {
                        position = table.spec().fields().indexOf(f);
                    }
                }
            }
            Map<String, List<PaimonLakeReader.LakeRow>> out = new TreeMap<>();
            try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                for (FileScanTask t : tasks) {
                    StructLike p = t.file().partition();
                    Object v = p.get(position, Object.class);
                    out.putIfAbsent(
                            v instanceof Integer days
                                    ? LocalDate.ofEpochDay(days).toString()
                                    : String.valueOf(v),
                            null);
                }
            }
            for (String value : List.copyOf(out.keySet())) {
                List<PaimonLakeReader.LakeRow> rows = new ArrayList<>();
                try (CloseableIterable<Record> records =
                        IcebergGenerics.read(table)
                                .where(Expressions.equal(column, value))
                                .build()) {
                    for (Record r : records) {
                        Object[] values = new Object[schema.fieldCount()];
                        for (int i = 0; i < values.length; i++) {
                            values[i] = r.getField(schema.columns().get(i).name());
                        }
                        OffsetDateTime ts = (OffsetDateTime) r.getField("__timestamp");
                        rows.add(
                                new PaimonLakeReader.LakeRow(
                                        Row.wrap(values),
                                        (Integer) r.getField("__bucket"),
                                        (Long) r.getField("__offset"),
                                        ts.toInstant().toEpochMilli()));
                    }
                }
                out.put(value, rows);
            }
            return new Layout(identity, out);
        }
    }
}

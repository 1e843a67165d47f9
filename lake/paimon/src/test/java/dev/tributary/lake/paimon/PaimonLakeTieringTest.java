package dev.tributary.lake.paimon;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataType;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeTieringContractTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataField;

/** The lake contract on real Paimon tables, read back with Paimon's own {@link ReadBuilder}. */
class PaimonLakeTieringTest extends LakeTieringContractTest {

    /**
     * Paimon catalog options beyond the warehouse; empty means Tributary's default (the filesystem
     * catalog). Passed through unchanged, as a user would configure them.
     */
    protected Map<String, String> catalogOptions() {
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
        return LakeStoragePlugins.find("paimon").createLakeStorage(storageConfig());
    }

    /** The format configuration Tributary is given ({@code datalake.paimon.*} without prefix). */
    protected Configuration storageConfig() {
        Map<String, String> conf = new HashMap<>(catalogOptions());
        conf.put("warehouse", warehouseLocation());
        return Configuration.fromMap(conf);
    }

    @Override
    protected String format() {
        return "paimon";
    }

    /** An independent Paimon catalog, as another engine would open it. */
    protected Catalog nativeCatalog() {
        Map<String, String> options = new HashMap<>(catalogOptions());
        options.put("warehouse", LakeStorageOptions.warehouseUri(warehouseLocation()));
        return CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(options)));
    }

    @Override
    protected List<Row> readWithFormatReader(TablePath path) throws Exception {
        try (Catalog catalog = nativeCatalog()) {
            Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
            List<DataField> fields = table.rowType().getFields();
            InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[fields.size()];
            DataType[] types = new DataType[fields.size()];
            for (int i = 0; i < getters.length; i++) {
                getters[i] = InternalRow.createFieldGetter(fields.get(i).type(), i);
                types[i] = PaimonTypes.fromPaimon(fields.get(i).type());
            }
            ReadBuilder rb = table.newReadBuilder();
            List<Row> out = new ArrayList<>();
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan().splits())) {
                reader.forEachRemaining(
                        r -> {
                            Object[] f = new Object[getters.length];
                            for (int i = 0; i < f.length; i++) {
                                f[i] = toTributary(types[i], getters[i].getFieldOrNull(r));
                            }
                            out.add(Row.wrap(f));
                        });
            }
            return out;
        }
    }

    private static Object toTributary(DataType t, Object v) {
        if (v == null) {
            return null;
        }
        return switch (t.root()) {
            case STRING -> ((BinaryString) v).toString();
            case DECIMAL -> ((Decimal) v).toBigDecimal();
            case DATE -> LocalDate.ofEpochDay((Integer) v);
            case TIME -> LocalTime.ofNanoOfDay((Integer) v * 1_000_000L);
            case TIMESTAMP -> ((Timestamp) v).toLocalDateTime();
            case TIMESTAMP_LTZ -> ((Timestamp) v).toInstant();
            default -> v;
        };
    }

    @Override
    protected List<Path> dataFilesOnDisk(TablePath path) throws Exception {
        Path dir = warehouseDir().resolve(path.database() + ".db").resolve(path.table());
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> p.getParent().getFileName().toString().startsWith("bucket-"))
                    .toList();
        }
    }

    @Override
    protected Map<Integer, Integer> liveDataFilesPerLakeBucket(TablePath path) throws Exception {
        try (Catalog catalog = nativeCatalog()) {
            Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
            return filesPerBucket(table.newReadBuilder().newScan().plan().splits());
        }
    }

    /** Paimon's own planning with a key filter: bucket pruning (and file stats) included. */
    @Override
    protected Map<Integer, Integer> dataFilesPlannedFor(TablePath path, String column, Object value)
            throws Exception {
        try (Catalog catalog = nativeCatalog()) {
            Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
            int index = table.rowType().getFieldIndex(column);
            DataType type = PaimonTypes.fromPaimon(table.rowType().getTypeAt(index));
            Predicate equal =
                    new PredicateBuilder(table.rowType())
                            .equal(index, PaimonValues.converterFor(type).convert(value));
            return filesPerBucket(
                    table.newReadBuilder().withFilter(equal).newScan().plan().splits());
        }
    }

    private static Map<Integer, Integer> filesPerBucket(List<Split> splits) {
        Map<Integer, Integer> out = new TreeMap<>();
        for (Split s : splits) {
            DataSplit d = (DataSplit) s;
            out.merge(d.bucket(), d.dataFiles().size(), Integer::sum);
        }
        return out;
    }

    @Override
    protected void widenIntColumnOutsideTributary(TablePath path, String column) throws Exception {
        try (Catalog catalog = nativeCatalog()) {
            catalog.alterTable(
                    Identifier.create(path.database(), path.table()),
                    SchemaChange.updateColumnType(
                            column, org.apache.paimon.types.DataTypes.BIGINT()),
                    false);
        }
    }
}

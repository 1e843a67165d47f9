package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.RandomValues;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.bucket.DefaultBucketFunction;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.codegen.CodeGenUtils;
import org.apache.paimon.codegen.Projection;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.FixedBucketRowKeyExtractor;
import org.apache.paimon.table.sink.KeyAndBucketExtractor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T36 for Paimon: Tributary's {@code paimon} bucket function (in common, which cannot see Paimon)
 * puts every key in the bucket that the Paimon table Tributary creates puts it in, as computed by
 * that table's own row-key extractor, over seeded random values of every type (NULLs, negative
 * numbers, extremes, unicode) and multi-column keys, for log tables with a bucket key and for PK
 * tables. Each row is also checked against several other bucket counts, up to Integer.MAX_VALUE,
 * where the bucket is nearly the whole hash.
 */
class PaimonBucketFunctionTest {
    private static final int[] EXTRA_BUCKET_COUNTS = {
        1, 2, 7, 12, 1024, 1_000_003, Integer.MAX_VALUE
    };

    @TempDir Path warehouse;
    private LakeStorage storage;
    private Catalog nativeCatalog;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private int tables;

    @BeforeEach
    void open() {
        storage =
                LakeStoragePlugins.find("paimon")
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", warehouse.toString())));
        nativeCatalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(
                                Options.fromMap(
                                        Map.of("warehouse", warehouse.toUri().toString()))));
    }

    @AfterEach
    void close() throws Exception {
        nativeCatalog.close();
        storage.close();
    }

    @Test
    void t36_singleColumnKeysOfEveryTypeLandInPaimonsBucket() throws Exception {
        for (DataType type : RandomValues.KEY_TYPES) {
            // nullable: a log table's bucket key may be NULL
            checkAgainstPaimon(List.of(type), false, 300);
            checkAgainstPaimon(List.of(type.notNull()), true, 100);
        }
    }

    @Test
    void t36_multiColumnKeysLandInPaimonsBucket() throws Exception {
        List<DataType> types = RandomValues.KEY_TYPES;
        for (int t = 0; t < 25; t++) {
            List<DataType> key = new ArrayList<>();
            int columns = 2 + random.nextInt(3);
            for (int c = 0; c < columns; c++) {
                key.add(types.get(random.nextInt(types.size())));
            }
            boolean pk = random.nextBoolean();
            checkAgainstPaimon(pk ? key.stream().map(DataType::notNull).toList() : key, pk, 200);
        }
    }

    private void checkAgainstPaimon(List<DataType> keyTypes, boolean primaryKey, int rows)
            throws Exception {
        Schema.Builder sb = Schema.newBuilder();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < keyTypes.size(); i++) {
            sb.column("k" + i, keyTypes.get(i));
            keys.add("k" + i);
        }
        sb.column("payload", DataTypes.STRING());
        if (primaryKey) {
            sb.primaryKey(keys);
        }
        Schema schema = sb.build();
        int buckets = 1 + random.nextInt(TableDescriptor.MAX_BUCKETS);
        TableDescriptor table =
                TableDescriptor.builder(schema)
                        .bucketCount(buckets)
                        .bucketKeys(keys)
                        .property(TableOptions.BUCKET_FUNCTION.key(), "paimon")
                        .build();
        TablePath path = TablePath.of("bucketing", "t" + tables++);
        storage.catalog().createTable(path, table);
        FileStoreTable lake =
                (FileStoreTable)
                        nativeCatalog.getTable(Identifier.create(path.database(), path.table()));
        KeyAndBucketExtractor<org.apache.paimon.data.InternalRow> extractor =
                lake.createRowKeyExtractor();
        assertThat(extractor).isInstanceOf(FixedBucketRowKeyExtractor.class);
        FixedBucketRowKeyExtractor fixed = (FixedBucketRowKeyExtractor) extractor;
        // the same projection the extractor makes, for bucket counts other than the table's
        TableSchema lakeSchema = lake.schema();
        Projection bucketKey =
                CodeGenUtils.newProjection(
                        lakeSchema.logicalRowType(),
                        lakeSchema.projection(lakeSchema.bucketKeys()));
        DefaultBucketFunction paimonFunction = new DefaultBucketFunction();

        BucketFunction ours = BucketFunction.of(table);
        List<BucketFunction> oursAtOtherCounts = new ArrayList<>();
        for (int n : EXTRA_BUCKET_COUNTS) {
            oursAtOtherCounts.add(BucketFunction.of(BucketFunctionType.PAIMON, schema, keys, n));
        }
        PaimonValues.Converter[] converters = new PaimonValues.Converter[schema.fieldCount()];
        for (int i = 0; i < converters.length; i++) {
            converters[i] = PaimonValues.converterFor(schema.typeAt(i));
        }
        RandomValues values = new RandomValues(random);
        int lakeArity = lake.rowType().getFieldCount();
        for (int n = 0; n < rows; n++) {
            Object[] f = new Object[schema.fieldCount()];
            for (int i = 0; i < f.length; i++) {
                f[i] = values.next(schema.typeAt(i));
            }
            Row row = Row.wrap(f);
            schema.validate(row);
            GenericRow g = new GenericRow(lakeArity);
            for (int i = 0; i < f.length; i++) {
                g.setField(i, f[i] == null ? null : converters[i].convert(f[i]));
            }
            g.setField(schema.fieldCount(), 0);
            g.setField(schema.fieldCount() + 1, 0L);
            g.setField(schema.fieldCount() + 2, Timestamp.fromEpochMillis(0));
            fixed.setRecord(g);
            String why =
                    "seed " + seed + ", key " + keyTypes + " pk=" + primaryKey + ", row " + row;
            assertThat(ours.bucketOf(row)).as(why).isEqualTo(fixed.bucket());
            BinaryRow key = bucketKey.apply(g);
            for (int c = 0; c < EXTRA_BUCKET_COUNTS.length; c++) {
                assertThat(oursAtOtherCounts.get(c).bucketOf(row))
                        .as("%s, %s buckets", why, EXTRA_BUCKET_COUNTS[c])
                        .isEqualTo(paimonFunction.bucket(key, EXTRA_BUCKET_COUNTS[c]));
            }
        }
    }

    @Test
    void t36_keysOfDifferentColumnsOfOneRowAreNotConfused() {
        // the key is the projection of the bucket-key columns, wherever they sit in the row
        Schema schema =
                Schema.of(
                        List.of(
                                new Column("a", DataTypes.STRING(), null),
                                new Column("b", DataTypes.BIGINT(), null),
                                new Column("c", DataTypes.INT(), null)),
                        List.of("c", "a"));
        BucketFunction f =
                BucketFunction.of(BucketFunctionType.PAIMON, schema, List.of("c", "a"), 97);
        BucketFunction swapped =
                BucketFunction.of(BucketFunctionType.PAIMON, schema, List.of("a", "c"), 97);
        int differs = 0;
        for (int i = 0; i < 200; i++) {
            Row r = Row.of("k" + i, (long) i, i);
            if (f.bucketOf(r) != swapped.bucketOf(r)) {
                differs++;
            }
        }
        assertThat(differs).as("the key's column order is part of the hash").isGreaterThan(150);
    }
}

package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.RandomValues;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Type;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T36 for Iceberg: Tributary's {@code iceberg} bucket function (in common, which cannot see
 * Iceberg) puts every key in the partition that the Iceberg table Tributary creates puts it in, as
 * Iceberg's own {@link PartitionKey} computes it from the table's spec, over seeded random values
 * of every type Iceberg can bucket (NULLs, negative numbers, extremes, unicode, nanosecond
 * timestamps); each value is also checked against {@code Transforms.bucket(n)} for other bucket
 * counts up to Integer.MAX_VALUE, where the bucket is the hash without its sign bit. Keys Iceberg
 * cannot bucket are refused exactly where Iceberg's transform refuses them.
 */
class IcebergBucketFunctionTest {
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
                LakeStoragePlugins.find("iceberg")
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", warehouse.toString())));
        Map<String, String> props =
                Map.of(
                        CatalogProperties.WAREHOUSE_LOCATION,
                        warehouse.toUri().toString(),
                        CatalogUtil.ICEBERG_CATALOG_TYPE,
                        CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP);
        nativeCatalog =
                CatalogUtil.buildIcebergCatalog(
                        "native", props, new org.apache.hadoop.conf.Configuration());
    }

    @AfterEach
    void close() throws Exception {
        if (nativeCatalog instanceof AutoCloseable c) {
            c.close();
        }
        storage.close();
    }

    @Test
    void t36_keysOfEveryBucketableTypeLandInIcebergsPartition() {
        int checked = 0;
        for (DataType type : RandomValues.KEY_TYPES) {
            Type icebergType = IcebergTypes.toIceberg(type);
            boolean icebergCanBucket = Transforms.bucket(4).canTransform(icebergType);
            boolean weCanBucket =
                    BucketFunctionType.ICEBERG
                            .unsupportedReason(schemaWithKey(type, false), List.of("k"))
                            .isEmpty();
            assertThat(weCanBucket).as("%s", type).isEqualTo(icebergCanBucket);
            if (!weCanBucket) {
                continue;
            }
            // nullable key: a log table; NOT NULL: the primary key of a PK table
            checkAgainstIceberg(type, false, 300);
            checkAgainstIceberg(type.notNull(), true, 100);
            checked++;
        }
        assertThat(checked).isEqualTo(RandomValues.KEY_TYPES.size() - 3);
    }

    private static Schema schemaWithKey(DataType keyType, boolean primaryKey) {
        Schema.Builder b =
                Schema.newBuilder().column("k", keyType).column("payload", DataTypes.STRING());
        if (primaryKey) {
            b.primaryKey("k");
        }
        return b.build();
    }

    private void checkAgainstIceberg(DataType keyType, boolean primaryKey, int rows) {
        Schema schema = schemaWithKey(keyType, primaryKey);
        int buckets = 1 + random.nextInt(TableDescriptor.MAX_BUCKETS);
        TableDescriptor table =
                TableDescriptor.builder(schema)
                        .bucketCount(buckets)
                        .bucketKeys("k")
                        .property(TableOptions.BUCKET_FUNCTION.key(), "iceberg")
                        .build();
        TablePath path = TablePath.of("bucketing", "t" + tables++);
        storage.catalog().createTable(path, table);
        Table lake = nativeCatalog.loadTable(TableIdentifier.of(path.database(), path.table()));
        assertThat(lake.spec().fields()).hasSize(1);
        PartitionField field = lake.spec().fields().get(0);
        assertThat(field.transform().toString()).isEqualTo("bucket[" + buckets + "]");
        assertThat(lake.schema().findColumnName(field.sourceId())).isEqualTo("k");

        BucketFunction ours = BucketFunction.of(table);
        List<BucketFunction> oursAtOtherCounts = new ArrayList<>();
        for (int n : EXTRA_BUCKET_COUNTS) {
            oursAtOtherCounts.add(
                    BucketFunction.of(BucketFunctionType.ICEBERG, schema, List.of("k"), n));
        }
        Type icebergType = lake.schema().findType("k");
        PartitionKey partition = new PartitionKey(lake.spec(), lake.schema());
        InternalRecordWrapper internal = new InternalRecordWrapper(lake.schema().asStruct());
        GenericRecord record = GenericRecord.create(lake.schema());
        IcebergValues.Converter[] converters = new IcebergValues.Converter[schema.fieldCount()];
        for (int i = 0; i < converters.length; i++) {
            converters[i] = IcebergValues.converterFor(schema.typeAt(i));
        }
        RandomValues values = new RandomValues(random);
        for (int n = 0; n < rows; n++) {
            Object[] f = new Object[schema.fieldCount()];
            for (int i = 0; i < f.length; i++) {
                f[i] = values.next(schema.typeAt(i));
            }
            Row row = Row.wrap(f);
            schema.validate(row);
            for (int i = 0; i < f.length; i++) {
                record.set(i, f[i] == null ? null : converters[i].convert(f[i]));
            }
            record.set(f.length, 0);
            record.set(f.length + 1, 0L);
            record.set(f.length + 2, OffsetDateTime.ofInstant(Instant.EPOCH, ZoneOffset.UTC));
            partition.partition(internal.wrap(record));
            Integer lakeBucket = partition.get(0, Integer.class);
            String why = "seed " + seed + ", key " + keyType + ", row " + row;
            if (f[0] == null) {
                assertThat(lakeBucket).as(why).isNull();
                assertThat(ours.bucketOf(row)).as(why + ": NULL keys live in bucket 0").isZero();
                continue;
            }
            assertThat(ours.bucketOf(row)).as(why).isEqualTo(lakeBucket);
            Object internalValue = internal.wrap(record).get(0, Object.class);
            for (int c = 0; c < EXTRA_BUCKET_COUNTS.length; c++) {
                Integer expected =
                        Transforms.<Object>bucket(EXTRA_BUCKET_COUNTS[c])
                                .bind(icebergType)
                                .apply(internalValue);
                assertThat(oursAtOtherCounts.get(c).bucketOf(row))
                        .as("%s, %s buckets", why, EXTRA_BUCKET_COUNTS[c])
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void t36_keysIcebergCannotBucketAreRefusedAndTheirLakeTableIsUnpartitioned() {
        Schema composite =
                Schema.newBuilder()
                        .column("a", DataTypes.INT())
                        .column("b", DataTypes.STRING())
                        .primaryKey("a", "b")
                        .build();
        TableDescriptor iceberg =
                TableDescriptor.builder(composite)
                        .bucketCount(4)
                        .property(TableOptions.BUCKET_FUNCTION.key(), "iceberg")
                        .build();
        assertThatThrownBy(() -> BucketFunction.of(iceberg))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("[a, b]");
        // created before T36 (Tributary's hash) and enabled for the lake: tiered unpartitioned
        TableDescriptor legacy = TableDescriptor.builder(composite).bucketCount(4).build();
        TablePath path = TablePath.of("bucketing", "composite");
        storage.catalog().createTable(path, legacy);
        Table lake = nativeCatalog.loadTable(TableIdentifier.of(path.database(), path.table()));
        assertThat(lake.spec().isUnpartitioned()).isTrue();
    }
}

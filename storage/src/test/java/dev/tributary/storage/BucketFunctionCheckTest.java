package dev.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.BucketRouter;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T36 in the store: the bucket check uses the table's own bucket function, for PK tables and for
 * log tables with a bucket key, so rows the client routes with it are accepted and rows placed by
 * any other function are refused.
 */
class BucketFunctionCheckTest {
    private static final Schema PK =
            Schema.newBuilder()
                    .column("id", DataTypes.STRING())
                    .column("v", DataTypes.BIGINT())
                    .primaryKey("id")
                    .build();
    private static final Schema LOG =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("v", DataTypes.STRING())
                    .build();

    @TempDir Path dir;
    private BucketStore store;

    @BeforeEach
    void open() {
        store = BucketStore.open(dir, new Configuration(), new ManualClock(1000));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void t36_theStoreChecksRecordsWithTheTablesOwnFunction() {
        long tableId = 1;
        for (BucketFunctionType type : BucketFunctionType.values()) {
            for (boolean pk : new boolean[] {true, false}) {
                Schema schema = pk ? PK : LOG;
                TableDescriptor table =
                        TableDescriptor.builder(schema)
                                .bucketCount(6)
                                .bucketKeys("id")
                                .property(TableOptions.BUCKET_FUNCTION.key(), type.value())
                                .build();
                store.createTable(tableId, table, 1, schema);
                BucketRouter router = BucketRouter.of(table);
                BucketFunction other =
                        BucketFunction.of(
                                type == BucketFunctionType.PAIMON
                                        ? BucketFunctionType.ICEBERG
                                        : BucketFunctionType.PAIMON,
                                schema,
                                List.of("id"),
                                6);
                int accepted = 0;
                int refused = 0;
                for (int i = 0; i < 60; i++) {
                    Row row = pk ? Row.of("key-" + i, (long) i) : Row.of((long) i * 7919, "v");
                    int right = router.bucketOf(row);
                    store.append(batch(tableId, right, schema, pk, row)).join();
                    accepted++;
                    int wrong = other.bucketOf(row);
                    if (wrong != right) {
                        WriteBatch misrouted = batch(tableId, wrong, schema, pk, row);
                        assertThatThrownBy(() -> store.append(misrouted))
                                .as("%s pk=%s row %s", type, pk, row)
                                .isInstanceOf(InvalidInputException.class)
                                .hasMessageContaining("belongs to bucket " + right)
                                .hasMessageContaining(type.value() + " bucket function");
                        refused++;
                    }
                }
                long stored = 0;
                for (int b = 0; b < 6; b++) {
                    stored += store.endOffset(new TableBucket(tableId, b));
                }
                assertThat(stored).isEqualTo(accepted);
                assertThat(refused).as("%s pk=%s", type, pk).isGreaterThan(20);
                tableId++;
            }
        }
    }

    private static WriteBatch batch(long tableId, int bucket, Schema schema, boolean pk, Row row) {
        WriteBatchBuilder b = WriteBatch.builder(tableId, bucket, 1, schema);
        return (pk ? b.upsert(row) : b.append(row)).build();
    }
}

package dev.tributary.storage;

import static dev.tributary.storage.StoreTestSupport.LOG_SCHEMA;
import static dev.tributary.storage.StoreTestSupport.PK_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.BucketRouter;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.TableDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BucketStoreTest {
    private static final long TABLE = 11;

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(123_000);

    @Test
    void logTableRoundTripAcrossBucketsAndRestart() {
        TableDescriptor d = TableDescriptor.builder(LOG_SCHEMA).bucketCount(3).build();
        BucketRouter router = BucketRouter.of(d);
        List<List<Row>> expected = new ArrayList<>();
        for (int b = 0; b < 3; b++) {
            expected.add(new ArrayList<>());
        }
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 0, LOG_SCHEMA);
            assertThatThrownBy(() -> store.createTable(TABLE, d, 0, LOG_SCHEMA))
                    .isInstanceOf(AlreadyExistsException.class);
            for (int i = 0; i < 9; i++) {
                int bucket = router.nextBucket();
                WriteBatchBuilder b = WriteBatch.builder(TABLE, bucket, 0, LOG_SCHEMA);
                for (int r = 0; r < 5; r++) {
                    Row row = Row.of((long) (i * 10 + r), "n" + r, new byte[] {(byte) r});
                    b.append(row);
                    expected.get(bucket).add(row);
                }
                AppendResult res = store.append(b.build()).join();
                assertThat(res.bucket()).isEqualTo(new TableBucket(TABLE, bucket));
                assertThat(res.recordCount()).isEqualTo(5);
            }
        }
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.openTable(TABLE, d, 0, LOG_SCHEMA);
            for (int b = 0; b < 3; b++) {
                TableBucket tb = new TableBucket(TABLE, b);
                List<LogRecord> records = StoreTestSupport.readAll(store, tb, 0, LOG_SCHEMA);
                assertThat(records)
                        .extracting(LogRecord::row)
                        .containsExactlyElementsOf(expected.get(b));
                assertThat(records)
                        .allMatch(
                                r ->
                                        r.changeType() == ChangeType.APPEND_ONLY
                                                && r.timestamp() == 123_000);
                assertThat(store.endOffset(tb)).isEqualTo(15);
            }
        }
    }

    @Test
    void concurrentWritersAreAllAcknowledgedWithDisjointOffsets() throws Exception {
        TableDescriptor d = TableDescriptor.builder(LOG_SCHEMA).bucketCount(1).build();
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 0, LOG_SCHEMA);
            List<CompletableFuture<AppendResult>> futures =
                    java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long writer = t;
                Thread th =
                        new Thread(
                                () -> {
                                    for (int i = 0; i < 25; i++) {
                                        futures.add(
                                                store.append(
                                                        WriteBatch.builder(TABLE, 0, 0, LOG_SCHEMA)
                                                                .append(Row.of(writer, "w", null))
                                                                .append(Row.of(writer, "w", null))
                                                                .build()));
                                    }
                                });
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join(60_000);
            }
            CompletableFuture.allOf(futures.toArray(new CompletableFuture[0])).join();
            List<Long> bases = futures.stream().map(f -> f.join().baseOffset()).sorted().toList();
            for (int i = 0; i < bases.size(); i++) {
                assertThat(bases.get(i)).isEqualTo(2L * i);
            }
            assertThat(store.endOffset(new TableBucket(TABLE, 0))).isEqualTo(200);
        }
    }

    @Test
    void droppedTablesAreGoneAndTheirIdsCanBeCreatedAgain() {
        TableDescriptor d = TableDescriptor.builder(LOG_SCHEMA).bucketCount(1).build();
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 0, LOG_SCHEMA);
            store.append(
                            WriteBatch.builder(TABLE, 0, 0, LOG_SCHEMA)
                                    .append(Row.of(1L, "x", null))
                                    .build())
                    .join();
            store.dropTable(TABLE);
            assertThat(store.hasTable(TABLE)).isFalse();
            assertThatThrownBy(() -> store.endOffset(new TableBucket(TABLE, 0)))
                    .isInstanceOf(NotFoundException.class);
            store.createTable(TABLE, d, 0, LOG_SCHEMA);
            assertThat(store.endOffset(new TableBucket(TABLE, 0))).isZero();
        }
    }

    @Test
    void aResetBucketStartsEmptyWhileTheOthersKeepTheirDataAcrossARestart() throws Exception {
        TableDescriptor d = TableDescriptor.builder(PK_SCHEMA).bucketCount(2).build();
        BucketRouter router = BucketRouter.of(d);
        int[] keyOf = new int[2];
        for (int b = 0; b < 2; b++) {
            int key = 0;
            while (router.bucketOf(Row.of(key, null, null)) != b) {
                key++;
            }
            keyOf[b] = key;
        }
        TableBucket b0 = new TableBucket(TABLE, 0);
        TableBucket b1 = new TableBucket(TABLE, 1);
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 0, PK_SCHEMA);
            for (int b = 0; b < 2; b++) {
                store.append(
                                WriteBatch.builder(TABLE, b, 0, PK_SCHEMA)
                                        .upsert(Row.of(keyOf[b], "v" + b, 1L))
                                        .build())
                        .join();
            }
            store.snapshot(b0);
            store.resetBucket(b0);
            assertThat(store.endOffset(b0)).isZero();
            assertThat(store.lookup(b0, Row.of(keyOf[0]))).isEmpty();
            assertThat(store.listSnapshots(b0)).isEmpty();
            assertThat(store.lookup(b1, Row.of(keyOf[1]))).contains(Row.of(keyOf[1], "v1", 1L));
            // the empty bucket takes writes again from offset 0
            store.append(
                            WriteBatch.builder(TABLE, 0, 0, PK_SCHEMA)
                                    .upsert(Row.of(keyOf[0], "again", 2L))
                                    .build())
                    .join();
        }
        // a crash after the rename left the doomed directory: the next open deletes it
        Path tableDir;
        try (java.util.stream.Stream<Path> tables = Files.list(dir.resolve("tables"))) {
            tableDir = tables.findFirst().orElseThrow();
        }
        Path leftover = Files.createDirectories(tableDir.resolve("1.deleting-7").resolve("log"));
        Files.writeString(leftover.resolve("00000000000000000000.log"), "old");
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.openTable(TABLE, d, 0, PK_SCHEMA);
            assertThat(tableDir.resolve("1.deleting-7")).doesNotExist();
            assertThat(store.endOffset(b0)).isEqualTo(1);
            assertThat(store.lookup(b0, Row.of(keyOf[0]))).contains(Row.of(keyOf[0], "again", 2L));
            assertThat(store.lookup(b1, Row.of(keyOf[1]))).contains(Row.of(keyOf[1], "v1", 1L));
        }
    }

    @Test
    void schemaEvolutionAddsNullableColumnsAndOldRowsReadWithNull() {
        TableDescriptor d = TableDescriptor.builder(LOG_SCHEMA).bucketCount(1).build();
        TableBucket tb = new TableBucket(TABLE, 0);
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 0, LOG_SCHEMA);
            store.append(
                            WriteBatch.builder(TABLE, 0, 0, LOG_SCHEMA)
                                    .append(Row.of(1L, "old", null))
                                    .build())
                    .join();
            dev.tributary.common.types.Schema v1 =
                    LOG_SCHEMA.addColumn(
                            new dev.tributary.common.types.Column(
                                    "extra", dev.tributary.common.types.DataTypes.INT()));
            store.updateSchema(TABLE, 1, v1);
            store.append(
                            WriteBatch.builder(TABLE, 0, 1, v1)
                                    .append(Row.of(2L, "new", null, 7))
                                    .build())
                    .join();
            List<LogRecord> records = StoreTestSupport.readAll(store, tb, 0, v1);
            assertThat(records)
                    .extracting(LogRecord::row)
                    .containsExactly(Row.of(1L, "old", null, null), Row.of(2L, "new", null, 7));
            // dropping or changing a column, or going back to an older id, is refused
            assertThatThrownBy(() -> store.updateSchema(TABLE, 2, LOG_SCHEMA))
                    .isInstanceOf(dev.tributary.common.exception.InvalidInputException.class)
                    .hasMessageContaining("only add nullable");
            assertThatThrownBy(() -> store.updateSchema(TABLE, 0, LOG_SCHEMA))
                    .isInstanceOf(dev.tributary.common.exception.InvalidInputException.class)
                    .hasMessageContaining("older");
        }
    }

    @Test
    void t48_statusReadsTheLakeRowIndexOnlyOnceSomethingOpenedIt() {
        TableBucket b0 = new TableBucket(TABLE, 0);
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            assertThat(store.readLakeRowIndexIfOpen(i -> i.indexedSnapshotId(b0))).isEmpty();
            assertThat(dir.resolve("lake-row-index")).as("status creates nothing").doesNotExist();
            try (var u = store.lakeRowIndex().beginUpdate(b0, true)) {
                u.commit(5, List.of());
            }
            assertThat(store.readLakeRowIndexIfOpen(i -> i.indexedSnapshotId(b0).getAsLong()))
                    .contains(5L);
        }
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            // on disk but not opened since the store opened: status does not open it
            assertThat(store.readLakeRowIndexIfOpen(i -> i.indexedSnapshotId(b0))).isEmpty();
            store.close();
            assertThat(store.readLakeRowIndexIfOpen(i -> i.indexedSnapshotId(b0))).isEmpty();
        }
    }
}

package dev.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.BucketRouter;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** T30 in the store: each partition has its own buckets, logs, KV state and KV snapshots. */
class PartitionedStoreTest {
    private static final long TABLE = 7;
    private static final Schema EVENTS =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("dt", DataTypes.STRING())
                    .build();
    private static final Schema ORDERS =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("dt", DataTypes.DATE())
                    .column("amount", DataTypes.INT())
                    .primaryKey("id", "dt")
                    .build();

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(1_000);

    private static WriteBatch events(int bucket, String dt, long... ids) {
        var b = WriteBatch.builder(TABLE, bucket, 1, EVENTS);
        for (long id : ids) {
            b.append(Row.of(id, dt));
        }
        return b.build();
    }

    @Test
    void t30_eachPartitionHasItsOwnBucketsAndOffsets() {
        TableDescriptor d =
                TableDescriptor.builder(EVENTS).partitionKeys("dt").bucketCount(2).build();
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 1, EVENTS);
            store.createPartition(TABLE, 1, PartitionSpec.of("dt", "2026-12-01"));
            store.createPartition(TABLE, 2, PartitionSpec.of("dt", "2026-12-02"));
            assertThatThrownBy(() -> store.createPartition(TABLE, 1, PartitionSpec.of("dt", "x")))
                    .isInstanceOf(AlreadyExistsException.class);

            assertThat(store.append(1, events(0, "2026-12-01", 1, 2, 3)).join().bucket())
                    .isEqualTo(new TableBucket(TABLE, 1, 0));
            store.append(2, events(0, "2026-12-02", 4)).join();
            store.append(2, events(1, "2026-12-02", 5, 6)).join();

            assertThat(store.endOffset(new TableBucket(TABLE, 1, 0))).isEqualTo(3);
            assertThat(store.endOffset(new TableBucket(TABLE, 1, 1))).isZero();
            assertThat(store.endOffset(new TableBucket(TABLE, 2, 0))).isEqualTo(1);
            assertThat(store.endOffset(new TableBucket(TABLE, 2, 1))).isEqualTo(2);
            assertThat(store.partitionIds(TABLE)).containsExactly(1L, 2L);
            assertThat(Files.isDirectory(dir.resolve("tables/7/p2/1/log"))).isTrue();

            assertThatThrownBy(() -> store.append(events(0, "2026-12-01", 9)))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("must name its partition");
            assertThatThrownBy(() -> store.endOffset(new TableBucket(TABLE, 0)))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("name the bucket's partition");
            assertThatThrownBy(() -> store.endOffset(new TableBucket(TABLE, 3, 0)))
                    .isInstanceOf(NotFoundException.class);
        }
        // recovery: the partitions' logs are where they were
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.openTable(TABLE, d, 1, EVENTS);
            store.openPartition(TABLE, 1, PartitionSpec.of("dt", "2026-12-01"));
            store.openPartition(TABLE, 2, PartitionSpec.of("dt", "2026-12-02"));
            List<LogRecord> p1 =
                    StoreTestSupport.readAll(store, new TableBucket(TABLE, 1, 0), 0, EVENTS);
            assertThat(p1).extracting(r -> r.row().getLong(0)).containsExactly(1L, 2L, 3L);
            assertThat(store.endOffset(new TableBucket(TABLE, 2, 1))).isEqualTo(2);
        }
    }

    @Test
    void t30_aBatchWithARecordOfAnotherPartitionIsRefusedAndNothingIsWritten() {
        TableDescriptor d = TableDescriptor.builder(EVENTS).partitionKeys("dt").build();
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 1, EVENTS);
            store.createPartition(TABLE, 1, PartitionSpec.of("dt", "2026-12-01"));
            WriteBatch mixed =
                    WriteBatch.builder(TABLE, 0, 1, EVENTS)
                            .append(Row.of(1L, "2026-12-01"))
                            .append(Row.of(2L, "2026-12-02"))
                            .build();
            assertThatThrownBy(() -> store.append(1, mixed))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("record 1")
                    .hasMessageContaining(
                            "belongs to partition dt=2026-12-02, not to dt=2026-12-01");
            assertThat(store.endOffset(new TableBucket(TABLE, 1, 0))).isZero();
            assertThatThrownBy(() -> store.append(5, events(0, "2026-12-01", 1)))
                    .isInstanceOf(PartitionNotFoundException.class);
        }
    }

    @Test
    void t30_primaryKeyPartitionsHaveTheirOwnKvStateAndSnapshots() {
        TableDescriptor d =
                TableDescriptor.builder(ORDERS).partitionKeys("dt").bucketCount(2).build();
        BucketRouter router = BucketRouter.of(d);
        java.time.LocalDate day1 = java.time.LocalDate.of(2026, 12, 1);
        java.time.LocalDate day2 = java.time.LocalDate.of(2026, 12, 2);
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 1, ORDERS);
            store.createPartition(TABLE, 10, PartitionSpec.of("dt", "2026-12-01"));
            store.createPartition(TABLE, 11, PartitionSpec.of("dt", "2026-12-02"));
            Row a = Row.of(1L, day1, 5);
            Row b = Row.of(1L, day2, 6);
            int bucketA = router.bucketOf(a);
            int bucketB = router.bucketOf(b);
            assertThat(bucketA).as("the bucket key is id alone").isEqualTo(bucketB);
            store.append(10, WriteBatch.builder(TABLE, bucketA, 1, ORDERS).upsert(a).build())
                    .join();
            store.append(11, WriteBatch.builder(TABLE, bucketB, 1, ORDERS).upsert(b).build())
                    .join();
            assertThat(store.lookup(new TableBucket(TABLE, 10, bucketA), Row.of(1L, day1)))
                    .contains(a);
            assertThat(store.lookup(new TableBucket(TABLE, 11, bucketB), Row.of(1L, day2)))
                    .contains(b);
            assertThat(store.lookup(new TableBucket(TABLE, 10, bucketA), Row.of(1L, day2)))
                    .isEqualTo(Optional.empty());
            var snap = store.snapshot(new TableBucket(TABLE, 11, bucketB));
            assertThat(snap.bucket()).isEqualTo(new TableBucket(TABLE, 11, bucketB));
            assertThat(store.listSnapshots(new TableBucket(TABLE, 10, bucketA))).isEmpty();
        }
    }

    @Test
    void t33_aSealedPartitionTakesNoWritesAndADroppedOneLeavesNoData() {
        TableDescriptor d = TableDescriptor.builder(EVENTS).partitionKeys("dt").build();
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 1, EVENTS);
            store.createPartition(TABLE, 1, PartitionSpec.of("dt", "a"));
            store.append(1, events(0, "a", 1)).join();
            assertThat(store.sealPartition(TABLE, 1)).isTrue();
            assertThatThrownBy(() -> store.append(1, events(0, "a", 2)))
                    .isInstanceOf(PartitionNotFoundException.class)
                    .hasMessageContaining("being dropped");
            assertThat(store.endOffset(new TableBucket(TABLE, 1, 0))).isEqualTo(1);
            store.dropPartition(TABLE, 1);
            assertThat(store.hasPartition(TABLE, 1)).isFalse();
            assertThat(Files.exists(dir.resolve("tables/7/p1"))).isFalse();
        }
    }

    @Test
    void partitionsTheMetadataNoLongerListsAreDeletedAtRecovery() {
        TableDescriptor d = TableDescriptor.builder(EVENTS).partitionKeys("dt").build();
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 1, EVENTS);
            store.createPartition(TABLE, 1, PartitionSpec.of("dt", "a"));
            store.createPartition(TABLE, 2, PartitionSpec.of("dt", "b"));
        }
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.openTable(TABLE, d, 1, EVENTS);
            store.openPartition(TABLE, 2, PartitionSpec.of("dt", "b"));
            assertThat(store.deleteUnknownPartitions(TABLE, Set.of(2L))).containsExactly(1L);
            assertThat(Files.exists(dir.resolve("tables/7/p1"))).isFalse();
            assertThat(store.partitionIds(TABLE)).containsExactly(2L);
        }
    }

    @Test
    void t32_writesMarkTheirPartitionChangedUntilTheNextDrain() {
        TableDescriptor d = TableDescriptor.builder(EVENTS).partitionKeys("dt").build();
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            store.createTable(TABLE, d, 1, EVENTS);
            store.createPartition(TABLE, 1, PartitionSpec.of("dt", "a"));
            store.createPartition(TABLE, 2, PartitionSpec.of("dt", "b"));
            store.createPartition(TABLE, 3, PartitionSpec.of("dt", "c"));
            assertThat(store.drainChangedPartitions(TABLE)).isEmpty();
            store.append(1, events(0, "a", 1)).join();
            store.append(3, events(0, "c", 1)).join();
            assertThat(store.drainChangedPartitions(TABLE)).containsExactlyInAnyOrder(1L, 3L);
            assertThat(store.drainChangedPartitions(TABLE)).isEmpty();
        }
    }
}

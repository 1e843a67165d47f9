package dev.tributary.server.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.coordinator.store.TieredOffsets;
import dev.tributary.coordinator.tiering.TieringState;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.storage.BucketStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TieringStatusServiceTest {
    private static final Schema SCHEMA =
            Schema.newBuilder().column("id", DataTypes.BIGINT()).build();
    private static final long TABLE = 7;

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(100_000);
    private final TableCatalog catalog = new TableCatalog();
    private BucketStore store;
    private TieringStatusService service;
    private List<PartitionInfo> partitions = List.of();

    @BeforeEach
    void setUp() {
        store = BucketStore.open(dir, new Configuration(), clock);
        service =
                new TieringStatusService(
                        null,
                        store,
                        new LocalBucketEnds(store),
                        catalog::get,
                        clock,
                        Duration.ofSeconds(8),
                        new LakeLocation("paimon", "filesystem", "file:/lake"),
                        path -> partitions,
                        path -> null);
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    private void createTable() {
        TableDescriptor d = TableDescriptor.builder(SCHEMA).bucketCount(1).build();
        TableInfo t =
                TableInfo.create(TABLE, TablePath.of("db", "t"), d, clock.currentTimeMillis());
        store.createTable(TABLE, d, t.schemaId(), t.schema());
        catalog.put(t);
    }

    private static TableTieringStatus tiered(long offset) {
        TreeMap<Integer, Long> offsets = new TreeMap<>();
        offsets.put(0, offset);
        return status(TieredOffsets.ofBuckets(offsets));
    }

    @Test
    void t28LagIsTheAgeOfTheOldestUntieredRecordAndTheRecordsBehind() {
        createTable();
        WriteBatchBuilder b = WriteBatch.builder(TABLE, 0, 1, SCHEMA);
        for (long i = 0; i < 5; i++) {
            b.append(Row.of(i));
        }
        store.append(b.build()).join();
        clock.advance(Duration.ofSeconds(30));

        TableStatusView v = service.view(tiered(2));

        assertThat(v.lagKnown()).isTrue();
        assertThat(v.lagRecords()).isEqualTo(3);
        assertThat(v.lagMillis()).isEqualTo(30_000);
    }

    @Test
    void t28ATableThatCannotBeReadShowsWhyInsteadOfALagOfZero() {
        // in the coordinator's status but gone from the store's catalog (e.g. a drop racing it)
        TableStatusView v = service.view(tiered(0));

        assertThat(v.lagKnown()).isFalse();
        assertThat(v.lagMillis()).isNull();
        assertThat(v.lagRecords()).isNull();
        assertThat(v.lagError()).contains("7");
    }

    @Test
    void t35EachPartitionHasItsLagAndTheTableSumsThem() {
        Schema schema =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.STRING())
                        .build();
        TableDescriptor d =
                TableDescriptor.builder(schema).partitionKeys("dt").bucketCount(2).build();
        TableInfo t =
                TableInfo.create(TABLE, TablePath.of("db", "t"), d, clock.currentTimeMillis());
        store.createTable(TABLE, d, t.schemaId(), t.schema());
        catalog.put(t);
        PartitionInfo day1 =
                PartitionInfo.create(
                        TABLE, 11, PartitionSpec.of("dt", "2026-12-01"), clock.currentTimeMillis());
        PartitionInfo day2 =
                PartitionInfo.create(
                        TABLE, 12, PartitionSpec.of("dt", "2026-12-02"), clock.currentTimeMillis());
        store.createPartition(TABLE, 11, day1.spec());
        store.createPartition(TABLE, 12, day2.spec());
        partitions = List.of(day2.dropping(clock.currentTimeMillis(), false), day1);
        // day 1: 4 rows in bucket 0 at t0 and 1 in bucket 1 at t0+10s; day 2: 2 rows at t0+20s
        append(t, 11, 0, 4, "2026-12-01");
        clock.advance(Duration.ofSeconds(10));
        append(t, 11, 1, 1, "2026-12-01");
        clock.advance(Duration.ofSeconds(10));
        append(t, 12, 0, 2, "2026-12-02");
        clock.advance(Duration.ofSeconds(5));
        // bucket 0 of day 1 is tiered to 3 (one row behind, 25 s old); day 2 not at all
        TieredOffsets tiered = TieredOffsets.of(Map.of(new PartitionBucket(11, 0), 3L));

        TableStatusView v = service.view(status(tiered));

        assertThat(v.lagKnown()).isTrue();
        assertThat(v.lagRecords()).isEqualTo(4);
        assertThat(v.lagMillis()).isEqualTo(25_000);
        // per bucket number over the partitions, for write rates
        assertThat(v.endOffsets()).containsOnly(Map.entry(0, 6L), Map.entry(1, 1L));
        assertThat(v.partitions())
                .extracting(PartitionLagView::name)
                .containsExactly("dt=2026-12-01", "dt=2026-12-02");
        PartitionLagView first = v.partitions().get(0);
        assertThat(first.lagRecords()).isEqualTo(2);
        assertThat(first.lagMillis()).isEqualTo(25_000);
        assertThat(first.state()).isEqualTo("ACTIVE");
        assertThat(first.endOffsets()).containsEntry(0, 4L).containsEntry(1, 1L);
        assertThat(first.tieredOffsets()).containsOnly(Map.entry(0, 3L));
        PartitionLagView second = v.partitions().get(1);
        assertThat(second.lagRecords()).isEqualTo(2);
        assertThat(second.lagMillis()).isEqualTo(5_000);
        assertThat(second.state()).isEqualTo("DROPPING");

        // caught up: zero everywhere, still one view per partition
        TableStatusView caughtUp =
                service.view(
                        status(
                                TieredOffsets.of(
                                        Map.of(
                                                new PartitionBucket(11, 0), 4L,
                                                new PartitionBucket(11, 1), 1L,
                                                new PartitionBucket(12, 0), 2L))));
        assertThat(caughtUp.lagRecords()).isZero();
        assertThat(caughtUp.lagMillis()).isZero();
        assertThat(caughtUp.partitions())
                .hasSize(2)
                .allSatisfy(p -> assertThat(p.lagRecords()).isZero());
    }

    @Test
    void t35AnUnreadablePartitionLeavesTheOthersLagAndTheTablesUnknown() {
        Schema schema =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.STRING())
                        .build();
        TableDescriptor d =
                TableDescriptor.builder(schema).partitionKeys("dt").bucketCount(1).build();
        TableInfo t =
                TableInfo.create(TABLE, TablePath.of("db", "t"), d, clock.currentTimeMillis());
        store.createTable(TABLE, d, t.schemaId(), t.schema());
        catalog.put(t);
        PartitionInfo day1 =
                PartitionInfo.create(
                        TABLE, 11, PartitionSpec.of("dt", "2026-12-01"), clock.currentTimeMillis());
        store.createPartition(TABLE, 11, day1.spec());
        // known to the coordinator, not (or no longer) in the store
        PartitionInfo gone =
                PartitionInfo.create(
                        TABLE, 12, PartitionSpec.of("dt", "2026-12-02"), clock.currentTimeMillis());
        partitions = List.of(day1, gone);
        append(t, 11, 0, 3, "2026-12-01");

        TableStatusView v = service.view(status(TieredOffsets.EMPTY));

        assertThat(v.lagKnown()).isFalse();
        assertThat(v.partitions()).hasSize(2);
        assertThat(v.partitions().get(0).lagRecords()).isEqualTo(3);
        assertThat(v.partitions().get(1).lagKnown()).isFalse();
        assertThat(v.partitions().get(1).lagError()).isNotBlank();
    }

    private void append(TableInfo t, long partitionId, int bucket, int rows, String dt) {
        WriteBatchBuilder b = WriteBatch.builder(TABLE, bucket, t.schemaId(), t.schema());
        for (long i = 0; i < rows; i++) {
            b.append(Row.of(i, dt));
        }
        store.append(partitionId, b.build()).join();
    }

    private static TableTieringStatus status(TieredOffsets offsets) {
        return new TableTieringStatus(
                TABLE,
                TablePath.of("db", "t"),
                "default",
                TieringState.SCHEDULED,
                1,
                null,
                -1,
                -1,
                -1,
                false,
                -1,
                Duration.ofMinutes(1),
                null,
                List.of(),
                0,
                0,
                null,
                offsets,
                -1,
                -1,
                null);
    }
}

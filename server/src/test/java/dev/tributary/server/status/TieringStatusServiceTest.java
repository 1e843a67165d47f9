package dev.tributary.server.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.coordinator.tiering.TieringState;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.storage.BucketStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

    @BeforeEach
    void setUp() {
        store = BucketStore.open(dir, new Configuration(), clock);
        service =
                new TieringStatusService(
                        null, store, catalog, clock, Duration.ofSeconds(8), "paimon");
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
                -1);
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
}

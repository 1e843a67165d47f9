package dev.tributary.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.store.FileMetadataStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** T30: partition ids, names and states, durable and never reused. */
class PartitionRegistryTest {
    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(1_000);

    private TableInfo createTable(TableRegistry tables) {
        tables.createDatabase("shop", null, true);
        Schema s =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.INT())
                        .build();
        return tables.createTable(
                        TablePath.of("shop", "events"),
                        TableDescriptor.builder(s).partitionKeys("dt").build(),
                        false)
                .table();
    }

    @Test
    void t30_aDroppedAndReaddedPartitionGetsANewIdAlsoAfterARestart() {
        long first;
        TableInfo t;
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            var state = store.load();
            TableRegistry tables = new TableRegistry(store, clock, state);
            PartitionRegistry parts = new PartitionRegistry(store, clock, state);
            t = createTable(tables);
            // values are made canonical: 020261201 and 20261201 are one partition
            first =
                    parts.create(t, PartitionSpec.of("dt", "020261201"), false)
                            .partition()
                            .partitionId();
            assertThat(parts.byName(t.tableId(), "dt=20261201")).isPresent();
            assertThatThrownBy(() -> parts.create(t, PartitionSpec.of("dt", "20261201"), false))
                    .isInstanceOf(AlreadyExistsException.class);
            assertThat(parts.create(t, PartitionSpec.of("dt", "20261201"), true).created())
                    .isFalse();
            PartitionInfo dropping =
                    parts.markDropping(t, PartitionSpec.of("dt", "20261201"), false, false)
                            .orElseThrow();
            assertThat(dropping.state()).isEqualTo(PartitionState.DROPPING);
            assertThatThrownBy(() -> parts.create(t, PartitionSpec.of("dt", "20261201"), true))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("is being dropped");
            parts.remove(t.tableId(), first);
        }
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            var state = store.load();
            PartitionRegistry parts = new PartitionRegistry(store, clock, state);
            assertThat(parts.list(t.tableId())).isEmpty();
            long second =
                    parts.create(t, PartitionSpec.of("dt", "20261201"), false)
                            .partition()
                            .partitionId();
            assertThat(second).isGreaterThan(first);
        }
    }

    @Test
    void t30_partitionsOfAnUnpartitionedTableOrUnknownPartitionsAreClearErrors() {
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            var state = store.load();
            TableRegistry tables = new TableRegistry(store, clock, state);
            PartitionRegistry parts = new PartitionRegistry(store, clock, state);
            TableInfo t = createTable(tables);
            TableInfo plain =
                    tables.createTable(
                                    TablePath.of("shop", "plain"),
                                    TableDescriptor.builder(t.schema()).build(),
                                    false)
                            .table();
            assertThatThrownBy(() -> parts.create(plain, PartitionSpec.of("dt", "1"), false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("is not partitioned");
            assertThatThrownBy(() -> parts.create(t, PartitionSpec.of("day", "1"), false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("must name exactly the partition keys [dt]");
            assertThatThrownBy(
                            () -> parts.markDropping(t, PartitionSpec.of("dt", "5"), false, false))
                    .isInstanceOf(PartitionNotFoundException.class)
                    .hasMessageContaining("partition dt=5 of table shop.events does not exist");
            assertThat(parts.markDropping(t, PartitionSpec.of("dt", "5"), true, false)).isEmpty();
        }
    }
}

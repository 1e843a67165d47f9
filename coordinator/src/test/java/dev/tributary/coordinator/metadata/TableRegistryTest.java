package dev.tributary.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.AlreadyExistsException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.store.FileMetadataStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableRegistryTest {
    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(1000);

    private static TableDescriptor desc(String... props) {
        TableDescriptor.Builder b =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT())
                                        .column("v", DataTypes.STRING())
                                        .build())
                        .bucketCount(2);
        for (int i = 0; i < props.length; i += 2) {
            b.property(props[i], props[i + 1]);
        }
        return b.build();
    }

    private TableRegistry open(FileMetadataStore store) {
        return new TableRegistry(store, clock, store.load());
    }

    @Test
    @DisplayName(
            "create, list, describe, alter, drop with typed errors; ids survive restarts and are never reused")
    void lifecycle() {
        TablePath a = TablePath.of("shop", "a");
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            TableRegistry r = open(store);
            assertThatThrownBy(() -> r.createTable(a, desc(), false))
                    .isInstanceOf(NotFoundException.class)
                    .hasMessageContaining("database 'shop'");
            r.createDatabase("shop", null, false);
            assertThatThrownBy(() -> r.createDatabase("shop", null, false))
                    .isInstanceOf(AlreadyExistsException.class);
            r.createDatabase("shop", null, true);
            TableInfo ta = r.createTable(a, desc("table.datalake.enabled", "true"), false).table();
            assertThat(ta.tableId()).isEqualTo(1);
            assertThat(ta.lakeEnabled()).isTrue();
            assertThat(ta.freshness()).isEqualTo(Duration.ofMinutes(3));
            assertThat(ta.lakeFormat()).isEqualTo("paimon");
            assertThat(ta.tieringGroup()).isEqualTo("default");
            assertThatThrownBy(() -> r.createTable(a, desc(), false))
                    .isInstanceOf(AlreadyExistsException.class);
            assertThat(r.createTable(a, desc(), true).created()).isFalse();
            TableInfo tb = r.createTable(TablePath.of("shop", "b"), desc(), false).table();
            assertThat(tb.tableId()).isEqualTo(2);
            assertThat(r.listTables("shop")).containsExactly(a, TablePath.of("shop", "b"));
            assertThat(r.dropTable(TablePath.of("shop", "b"), false)).isPresent();
            assertThatThrownBy(() -> r.dropTable(TablePath.of("shop", "b"), false))
                    .isInstanceOf(NotFoundException.class);
            assertThat(r.dropTable(TablePath.of("shop", "b"), true)).isEmpty();
            assertThatThrownBy(() -> r.dropDatabase("shop", false, false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("CASCADE");
        }
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            TableRegistry r = open(store);
            assertThat(r.describe(a).lakeEnabled()).isTrue();
            TableInfo tc = r.createTable(TablePath.of("shop", "b"), desc(), false).table();
            assertThat(tc.tableId()).isEqualTo(3); // 2 was dropped and is not reused
            r.dropDatabase("shop", false, true);
            assertThat(r.listDatabases()).isEmpty();
        }
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            TableRegistry r = open(store);
            assertThat(r.tables()).isEmpty();
            assertThat(r.maxTableId()).isEqualTo(3);
        }
    }

    @Test
    @DisplayName("invalid properties are rejected with the key, the value and the expected form")
    void invalidProperties() {
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            TableRegistry r = open(store);
            r.createDatabase("db", null, false);
            TablePath p = TablePath.of("db", "t");
            assertThatThrownBy(
                            () -> r.createTable(p, desc("table.datalake.freshness", "abc"), false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("table.datalake.freshness")
                    .hasMessageContaining("abc")
                    .hasMessageContaining("duration");
            assertThatThrownBy(() -> r.createTable(p, desc("bucket.num", "0"), false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("bucket.num");
            assertThatThrownBy(
                            () -> r.createTable(p, desc("table.datalake.format", "delta"), false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("paimon");
            assertThatThrownBy(() -> r.createTable(p, desc("table.datalake.enabled", "yes"), false))
                    .isInstanceOf(InvalidInputException.class);
            r.createTable(p, desc(), false);
            assertThatThrownBy(
                            () ->
                                    r.alterTable(
                                            p,
                                            List.of(
                                                    TableChange.set(
                                                            "table.datalake.freshness", "0s"))))
                    .isInstanceOf(InvalidInputException.class);
            assertThat(r.describe(p).properties()).isEmpty(); // nothing applied
            assertThat(store.load().tables().get(r.describe(p).tableId()).properties()).isEmpty();
        }
    }

    @Test
    @DisplayName("adding a nullable column creates a new schema id; old schema ids stay readable")
    void schemaVersions() {
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            TableRegistry r = open(store);
            r.createDatabase("db", null, false);
            TablePath p = TablePath.of("db", "t");
            TableInfo t = r.createTable(p, desc(), false).table();
            assertThat(t.schemaId()).isEqualTo(1);
            TableInfo t2 =
                    r.alterTable(
                                    p,
                                    List.of(
                                            TableChange.addColumn(
                                                    new Column("extra", DataTypes.BIGINT())),
                                            TableChange.set("table.datalake.freshness", "30s")))
                            .after();
            assertThat(t2.schemaId()).isEqualTo(2);
            assertThat(t2.schema().columnNames()).containsExactly("id", "v", "extra");
            assertThat(t2.freshness()).isEqualTo(Duration.ofSeconds(30));
            assertThat(r.schema(t.tableId(), 1).columnNames()).containsExactly("id", "v");
            assertThatThrownBy(() -> r.schema(t.tableId(), 9))
                    .isInstanceOf(NotFoundException.class);
            assertThatThrownBy(
                            () ->
                                    r.alterTable(
                                            p,
                                            List.of(
                                                    TableChange.addColumn(
                                                            new Column(
                                                                    "nn",
                                                                    DataTypes.INT().notNull())))))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("nullable");
        }
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            TableRegistry r = open(store);
            TableInfo t = r.describe(TablePath.of("db", "t"));
            assertThat(t.schemaId()).isEqualTo(2);
            assertThat(r.schema(t.tableId(), 1).columnNames()).containsExactly("id", "v");
        }
    }

    @Test
    @DisplayName(
            "T36: the bucket function is checked at create, durable, and no ALTER can change it")
    void t36_bucketFunctionIsFixedAtCreate() {
        Schema composite =
                Schema.newBuilder()
                        .column("a", DataTypes.INT())
                        .column("b", DataTypes.STRING())
                        .primaryKey("a", "b")
                        .build();
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            TableRegistry r = open(store);
            r.createDatabase("db", null, false);
            assertThatThrownBy(
                            () ->
                                    r.createTable(
                                            TablePath.of("db", "x"),
                                            desc("table.bucket.function", "md5"),
                                            false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("table.bucket.function")
                    .hasMessageContaining("tributary, paimon, iceberg");
            assertThatThrownBy(
                            () ->
                                    r.createTable(
                                            TablePath.of("db", "x"),
                                            TableDescriptor.builder(composite)
                                                    .bucketCount(4)
                                                    .property("table.bucket.function", "iceberg")
                                                    .build(),
                                            false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("[a, b]");
            assertThat(r.listTables("db")).isEmpty();

            TablePath p = TablePath.of("db", "t");
            r.createTable(p, desc("table.bucket.function", "paimon"), false);
            TablePath legacy = TablePath.of("db", "legacy");
            r.createTable(legacy, desc(), false);
            for (TableChange change :
                    List.of(
                            TableChange.set("table.bucket.function", "iceberg"),
                            TableChange.set("table.bucket.function", "tributary"),
                            TableChange.reset("table.bucket.function"))) {
                assertThatThrownBy(() -> r.alterTable(p, List.of(change)))
                        .isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("cannot be changed from 'paimon'")
                        .hasMessageContaining("Create a new table");
            }
            assertThatThrownBy(
                            () ->
                                    r.alterTable(
                                            legacy,
                                            List.of(
                                                    TableChange.set(
                                                            "table.bucket.function", "paimon"))))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("from 'tributary' to 'paimon'");
            // re-applying the current value is not a change
            r.alterTable(p, List.of(TableChange.set("table.bucket.function", "paimon")));
            r.alterTable(legacy, List.of(TableChange.set("table.bucket.function", "tributary")));
        }
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            TableRegistry r = open(store);
            assertThat(r.describe(TablePath.of("db", "t")).properties())
                    .containsEntry("table.bucket.function", "paimon");
        }
    }
}

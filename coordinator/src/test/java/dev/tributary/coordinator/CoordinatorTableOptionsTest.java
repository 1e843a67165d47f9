package dev.tributary.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.FileMetadataStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real coordinator (event loop, file store, manual clock) checks table options (T56). */
class CoordinatorTableOptionsTest {
    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(1_000_000);
    private final TablePath path = TablePath.of("shop", "orders");

    private static TableDescriptor table(String... props) {
        TableDescriptor.Builder b =
                TableDescriptor.builder(Schema.newBuilder().column("id", DataTypes.INT()).build())
                        .bucketCount(2);
        for (int i = 0; i < props.length; i += 2) {
            b.property(props[i], props[i + 1]);
        }
        return b.build();
    }

    private Coordinator start(FileMetadataStore store) {
        return Coordinator.start(
                new Configuration(), clock, store, new FakeBuckets(), new FakeLake());
    }

    private static Throwable failure(Runnable r) {
        try {
            r.run();
            throw new AssertionError("no failure");
        } catch (CompletionException e) {
            return e.getCause();
        }
    }

    @Test
    void t56_createWithATypoIsRefusedAndCreatesNothing() {
        try (FileMetadataStore store = FileMetadataStore.open(dir);
                Coordinator c = start(store)) {
            c.createDatabase("shop", null, false).join();
            Throwable e =
                    failure(
                            () ->
                                    c.createTable(
                                                    path,
                                                    table(
                                                            "table.datalake.enabled", "true",
                                                            "table.datalake.freshnes", "10s"),
                                                    false)
                                            .join());
            assertThat(e)
                    .isInstanceOf(InvalidConfigException.class)
                    .hasMessage(
                            "unknown table option 'table.datalake.freshnes'; did you mean"
                                    + " 'table.datalake.freshness'?");
            assertThat(c.listTables("shop").join()).isEmpty();
            assertThat(c.cachedTable(path)).isEmpty();
            assertThat(c.tableStatus(1).join()).isEmpty();
            // the next table gets the first id: nothing was taken by the refused one
            TableInfo t =
                    c.createTable(path, table("table.datalake.freshness", "10s"), false).join();
            assertThat(t.tableId()).isEqualTo(1);
            assertThat(t.freshness()).isEqualTo(Duration.ofSeconds(10));
        }
    }

    @Test
    void t56_alterWithATypoOrABadValueIsRefusedAndChangesNothing() {
        try (FileMetadataStore store = FileMetadataStore.open(dir);
                Coordinator c = start(store)) {
            c.createDatabase("shop", null, false).join();
            TableInfo before =
                    c.createTable(path, table("table.datalake.enabled", "true"), false).join();
            clock.advance(Duration.ofSeconds(5));
            Throwable typo =
                    failure(
                            () ->
                                    c.alterTable(
                                                    path,
                                                    List.of(
                                                            TableChange.set(
                                                                    "table.datalake.freshness",
                                                                    "1min"),
                                                            TableChange.set("table.log.tll", "1d")))
                                            .join());
            assertThat(typo)
                    .isInstanceOf(InvalidConfigException.class)
                    .hasMessage(
                            "unknown table option 'table.log.tll'; did you mean 'table.log.ttl'?");
            Throwable bad =
                    failure(
                            () ->
                                    c.alterTable(
                                                    path,
                                                    List.of(
                                                            TableChange.set(
                                                                    "table.log.ttl", "a week")))
                                            .join());
            assertThat(bad)
                    .isInstanceOf(InvalidConfigException.class)
                    .hasMessageContaining("'a week'")
                    .hasMessageContaining("'table.log.ttl'")
                    .hasMessageContaining("a duration such as");
            TableInfo now = c.describeTable(path).join();
            assertThat(now).isEqualTo(before);
            assertThat(now.properties()).isEqualTo(before.properties());
            assertThat(now.freshness()).isEqualTo(TableOptions.DATALAKE_FRESHNESS.defaultValue());
            // lake-format keys and the user's own keys pass
            TableInfo after =
                    c.alterTable(
                                    path,
                                    List.of(
                                            TableChange.set(
                                                    "table.datalake.paimon.file.format", "orc"),
                                            TableChange.set("owner", "team-a")))
                            .join();
            assertThat(after.properties())
                    .containsEntry("table.datalake.paimon.file.format", "orc")
                    .containsEntry("owner", "team-a");
        }
    }

    @Test
    void t56_aStoredTableWithAnUnknownKeyStillLoadsAndTheKeyCanBeReset() {
        // a table stored before the check: written to the metadata store directly
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            store.putDatabase(new DatabaseInfo("shop", null, 1));
            store.putTable(
                    TableInfo.create(
                            1,
                            path,
                            table(
                                    "table.datalake.enabled", "true",
                                    "table.datalake.freshnes", "10s"),
                            1));
        }
        try (FileMetadataStore store = FileMetadataStore.open(dir);
                Coordinator c = start(store)) {
            TableInfo t = c.describeTable(path).join();
            assertThat(t.lakeEnabled()).isTrue();
            assertThat(t.freshness()).isEqualTo(Duration.ofMinutes(3));
            assertThat(t.options().warnings())
                    .singleElement()
                    .asString()
                    .contains("table.datalake.freshnes")
                    .contains("did you mean 'table.datalake.freshness'");
            assertThat(c.tableStatus(t.tableId()).join()).isPresent();
            TableInfo fixed =
                    c.alterTable(path, List.of(TableChange.reset("table.datalake.freshnes")))
                            .join();
            assertThat(fixed.properties()).doesNotContainKey("table.datalake.freshnes");
            assertThat(fixed.options().warnings()).isEmpty();
        }
    }
}

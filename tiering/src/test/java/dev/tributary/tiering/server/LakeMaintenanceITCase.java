package dev.tributary.tiering.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.LakeMaintenance;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.testutil.LakeCheck;
import dev.tributary.tiering.testutil.TestSchemas;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Lake maintenance on the real server with its embedded job: what a user sees of it (client, HTTP,
 * Prometheus), auto-compaction switched off for one table only, and lake tables changed by other
 * engines while they are tiered: a safe change is tolerated, a corrupting one fails that table
 * alone with a typed error.
 */
class LakeMaintenanceITCase {
    @TempDir File dataDir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private TributaryServer server;
    private Connection conn;

    @AfterEach
    void tearDown() {
        if (conn != null) {
            conn.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void startServer(String format) {
        Configuration conf = new Configuration();
        conf.setString("datalake.format", format);
        conf.setString("data.dir", dataDir.getAbsolutePath());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("tiering.embedded.parallelism", "2");
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        conf.setString("tiering.failure.backoff.max", "1s");
        server =
                TributaryServer.start(
                        conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
        conn = Connection.open(server.rpcTarget());
        conn.admin().createDatabase("shop", true);
    }

    private TableInfo table(String name, Map<String, String> props) {
        TableDescriptor.Builder d =
                TableDescriptor.builder(TestSchemas.LOG)
                        .bucketCount(2)
                        .bucketKeys("id")
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "300ms")
                        .property("table.datalake.compaction.max-files", "2")
                        .property("table.datalake.compaction.interval", "0s");
        props.forEach(d::property);
        return conn.admin().createTable(TablePath.of("shop", name), d.build(), false);
    }

    private void append(TablePath path, int rows) throws Exception {
        try (AppendWriter w = conn.appendWriter(path)) {
            List<CompletableFuture<?>> acks = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                long id = random.nextLong();
                acks.add(w.append(Row.of(id, "click-" + id)));
            }
            w.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
    }

    private String http(String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                "http://127.0.0.1:"
                                                        + server.httpAddress()
                                                                .orElseThrow()
                                                                .getPort()
                                                        + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private LakeMaintenance maintenance(TablePath path) {
        return conn.admin().tieringStatus(path).maintenance().orElseThrow();
    }

    @Test
    void t38_t39_maintenanceIsVisibleEverywhereAndAutoCompactionIsOffForOneTableOnly()
            throws Exception {
        startServer("paimon");
        TableInfo compacted = table("compacted", Map.of());
        TableInfo untouched = table("untouched", Map.of("table.datalake.auto-compaction", "false"));
        LakeCheck lake = new LakeCheck(new File(dataDir, "lake"), seed);
        // eight rounds with data: one file per bucket each
        for (int round = 0; round < 8; round++) {
            for (TableInfo t : List.of(compacted, untouched)) {
                long before = lake.tieringSnapshots(t.path()).size();
                append(t.path(), 50);
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> lake.tieringSnapshots(t.path()).size() > before);
            }
        }
        lake.verifyCaughtUp(conn, compacted, Duration.ofSeconds(60));
        lake.verifyCaughtUp(conn, untouched, Duration.ofSeconds(60));

        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(
                        () -> {
                            LakeMaintenance m = maintenance(compacted.path());
                            assertThat(m.compactions()).isPositive();
                            assertThat(m.maxFilesPerBucket()).isBetween(1, 2);
                            assertThat(m.statsAtMillis()).isPresent();
                        });
        LakeMaintenance m = maintenance(compacted.path());
        assertThat(m.autoCompaction()).isTrue();
        assertThat(m.lastCompaction()).isPresent();
        assertThat(m.lastCompaction().get().outcome()).isEqualTo("COMMITTED");
        assertThat(m.snapshotsRetained()).isPositive();
        assertThat(m.dataFilesPerBucket()).containsOnlyKeys(0, 1);

        LakeMaintenance off = maintenance(untouched.path());
        assertThat(off.autoCompaction()).isFalse();
        assertThat(off.compactions()).isZero();
        assertThat(off.maxFilesPerBucket())
                .as("a bucket gains a file per round without compaction")
                .isGreaterThanOrEqualTo(8);
        TableTieringStatus s = conn.admin().tieringStatus(untouched.path());
        assertThat(s.failures()).isZero();

        String json = http("/api/tiering");
        assertThat(json)
                .contains("\"maintenance\"")
                .contains("\"maxFilesPerBucket\"")
                .contains("\"snapshotsRetained\"")
                .contains("\"bytesReclaimed\"");
        String metrics = http("/metrics");
        assertThat(metrics)
                .contains("tributary_lake_data_files{table=\"shop.compacted\"}")
                .contains("tributary_lake_data_files_per_bucket_max{table=\"shop.untouched\"}")
                .contains("tributary_lake_snapshots{table=\"shop.compacted\"}")
                .contains(
                        "tributary_lake_compactions{outcome=\"committed\",table=\"shop.compacted\"}");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"paimon", "iceberg"})
    void aNullableColumnAddedByAnotherEngineIsToleratedAndADroppedOneFailsOnlyItsTable(
            String format) throws Exception {
        startServer(format);
        TableInfo changed = table("changed", Map.of());
        TableInfo dropped = table("dropped", Map.of());
        TableInfo other = table("other", Map.of());
        File warehouse = new File(dataDir, "lake");
        LakeCheck lake = new LakeCheck(warehouse, format, seed);
        for (TableInfo t : List.of(changed, dropped, other)) {
            append(t.path(), 100);
            lake.verifyCaughtUp(conn, t, Duration.ofSeconds(60));
        }

        // another engine adds a nullable column to one table and drops a column of another
        if (format.equals("paimon")) {
            try (Catalog c = paimonCatalog(warehouse)) {
                c.alterTable(
                        Identifier.create("shop", "changed"),
                        List.of(SchemaChange.addColumn("note", DataTypes.STRING())),
                        false);
                c.alterTable(
                        Identifier.create("shop", "dropped"),
                        List.of(SchemaChange.dropColumn("name")),
                        false);
            }
        } else {
            var catalog = icebergCatalog(warehouse);
            catalog.loadTable(TableIdentifier.of("shop", "changed"))
                    .updateSchema()
                    .addColumn("note", Types.StringType.get())
                    .commit();
            catalog.loadTable(TableIdentifier.of("shop", "dropped"))
                    .updateSchema()
                    .deleteColumn("name")
                    .commit();
        }
        for (TableInfo t : List.of(changed, dropped, other)) {
            append(t.path(), 100);
        }
        assertThat(lake.verifyCaughtUp(conn, changed, Duration.ofSeconds(60)))
                .as("the table with an extra nullable column keeps tiering")
                .isEqualTo(200);
        assertThat(lake.verifyCaughtUp(conn, other, Duration.ofSeconds(60))).isEqualTo(200);
        assertThat(conn.admin().tieringStatus(changed.path()).failures()).isZero();
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () -> {
                            TableTieringStatus s = conn.admin().tieringStatus(dropped.path());
                            assertThat(s.failures()).isPositive();
                            assertThat(s.lastFailure().orElse(""))
                                    .contains("'shop.dropped'")
                                    .contains("column 'name' is missing in the lake");
                        });
    }

    private static Catalog paimonCatalog(File warehouse) {
        return CatalogFactory.createCatalog(
                CatalogContext.create(
                        Options.fromMap(Map.of("warehouse", warehouse.toURI().toString()))));
    }

    private static org.apache.iceberg.catalog.Catalog icebergCatalog(File warehouse) {
        return CatalogUtil.buildIcebergCatalog(
                "tributary",
                Map.of(
                        CatalogProperties.WAREHOUSE_LOCATION,
                        warehouse.toURI().toString(),
                        CatalogUtil.ICEBERG_CATALOG_TYPE,
                        CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP),
                new org.apache.hadoop.conf.Configuration());
    }
}

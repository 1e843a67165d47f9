package dev.tributary.tiering.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.scan.LogChunkStream;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.paimon.testing.FaultyFileIO;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.testutil.LakeCheck;
import dev.tributary.tiering.testutil.TestSchemas;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End to end: the real server (store, coordinator, gRPC) with the tiering job embedded on a Flink
 * MiniCluster, connected through the real client gateway, writing real Paimon tables that Paimon's
 * own reader checks against the store's log at the committed offsets.
 */
class ServerTieringITCase {
    private static final Schema LOG_SCHEMA = TestSchemas.LOG;
    private static final Schema PK_SCHEMA = TestSchemas.PK;

    @TempDir File dataDir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private TributaryServer server;
    private Connection conn;

    @AfterEach
    void tearDown() throws Exception {
        if (conn != null) {
            conn.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void startServer() {
        startServer(Map.of());
    }

    private void startServer(Map<String, String> extra) {
        Configuration conf = new Configuration();
        extra.forEach(conf::setString);
        conf.setString("data.dir", dataDir.getAbsolutePath());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("tiering.embedded.parallelism", "2");
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        server =
                TributaryServer.start(
                        conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
        conn = Connection.open(server.rpcTarget());
    }

    private static TableDescriptor lakeTable(Schema schema, int buckets, String freshness) {
        return TableDescriptor.builder(schema)
                .bucketCount(buckets)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", freshness)
                .build();
    }

    @Test
    void t6_t8_t29_logAndPkTablesTierThroughTheRealServerExactlyOnce() throws Exception {
        startServer();
        conn.admin().createDatabase("shop", true);
        TablePath clicks = TablePath.of("shop", "clicks");
        TablePath customers = TablePath.of("shop", "customers");
        TableInfo clicksInfo =
                conn.admin().createTable(clicks, lakeTable(LOG_SCHEMA, 4, "1s"), false);
        TableInfo customersInfo =
                conn.admin().createTable(customers, lakeTable(PK_SCHEMA, 3, "1s"), false);

        try (AppendWriter log = conn.appendWriter(clicks);
                UpsertWriter pk = conn.upsertWriter(customers)) {
            for (int burst = 0; burst < 5; burst++) {
                List<CompletableFuture<?>> acks = new ArrayList<>();
                for (int i = 0; i < 400; i++) {
                    long id = random.nextLong();
                    acks.add(log.append(Row.of(id, "click-" + id)));
                }
                for (int i = 0; i < 200; i++) {
                    long key = random.nextInt(300);
                    Row row = Row.of(key, "c" + key, random.nextInt(1000));
                    acks.add(random.nextInt(6) == 0 ? pk.delete(row) : pk.upsert(row));
                }
                log.flush();
                pk.flush();
                CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                java.util.concurrent.locks.LockSupport.parkNanos(400_000_000L);
            }
        }

        File warehouse = new File(dataDir, "lake");
        for (TableInfo t : List.of(clicksInfo, customersInfo)) {
            int rows = verifyCaughtUp(t, warehouse);
            if (!t.hasPrimaryKey()) {
                assertThat(rows).isEqualTo(2_000);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"paimon", "iceberg"})
    void t28_roundFiguresAreTheLakesOwnAndTheBytesReallyRead(String format) throws Exception {
        startServer(Map.of("datalake.format", format));
        conn.admin().createDatabase("shop", true);
        TablePath clicks = TablePath.of("shop", "clicks");
        TableInfo info = conn.admin().createTable(clicks, lakeTable(LOG_SCHEMA, 4, "2s"), false);
        appendClicks(clicks, 1_000);
        File warehouse = new File(dataDir, "lake");
        LakeCheck lake = new LakeCheck(warehouse, format, seed);
        assertThat(lake.verifyCaughtUp(conn, info, Duration.ofSeconds(120))).isEqualTo(1_000);

        // the coordinator records a round's summary just after its lake commit, which the lake
        // shows first
        List<TableTieringStatus.Round> committed =
                await().atMost(Duration.ofSeconds(30))
                        .until(
                                () ->
                                        conn.admin().tieringStatus(clicks).recentRounds().stream()
                                                .filter(r -> r.outcome().equals("COMMITTED"))
                                                .toList(),
                                rounds ->
                                        rounds.stream()
                                                        .mapToLong(TableTieringStatus.Round::rows)
                                                        .sum()
                                                >= 1_000);
        long bytesInTheLog = 0;
        TieringGateway gateway = conn.tieringGateway();
        for (Map.Entry<Integer, Long> e : gateway.endOffsets(info.tableId()).entrySet()) {
            try (LogChunkStream chunks =
                    gateway.readLogChunks(
                            new TableBucket(info.tableId(), e.getKey()), 0, e.getValue())) {
                while (chunks.hasNext()) {
                    bytesInTheLog += chunks.next().length;
                }
            }
        }
        // files, bytes and rows are what the lake committed: what is on disk, nothing estimated
        assertThat(committed.stream().mapToLong(TableTieringStatus.Round::files).sum())
                .as("files of the rounds = data files on disk (seed %d)", seed)
                .isEqualTo(lake.filesOnDisk(clicks).size());
        assertThat(committed.stream().mapToLong(TableTieringStatus.Round::bytes).sum())
                .as("bytes of the rounds = bytes of the data files on disk")
                .isEqualTo(lake.bytesOnDisk(clicks));
        assertThat(committed.stream().mapToLong(TableTieringStatus.Round::rows).sum())
                .isEqualTo(1_000);
        // and what the job read is the store's own encoded size of those records
        assertThat(committed.stream().mapToLong(TableTieringStatus.Round::recordsRead).sum())
                .isEqualTo(1_000);
        assertThat(committed.stream().mapToLong(TableTieringStatus.Round::bytesRead).sum())
                .as("bytes read = the log batches' encoded bytes")
                .isEqualTo(bytesInTheLog);
    }

    @Test
    void t12_t19_t21_serverRestartedMidTieringLosesAndDuplicatesNothing() throws Exception {
        startServer();
        conn.admin().createDatabase("shop", true);
        TablePath clicks = TablePath.of("shop", "clicks");
        conn.admin().createTable(clicks, lakeTable(LOG_SCHEMA, 4, "1s"), false);
        appendClicks(clicks, 3_000);
        File warehouse = new File(dataDir, "lake");
        // wait for the first commit, then stop the server while later rounds may be running
        LakeCheck lake = new LakeCheck(warehouse, seed);
        await().atMost(Duration.ofSeconds(120))
                .until(() -> !lake.committedOffsets(clicks).isEmpty());
        appendClicks(clicks, 1_000);
        conn.close();
        server.close();

        startServer();
        appendClicks(clicks, 1_000);
        TableInfo info = conn.admin().describeTable(clicks);
        assertThat(verifyCaughtUp(info, warehouse)).isEqualTo(5_000);
    }

    @Test
    void t22_lakeWriteErrorOnOneTableLeavesTheOtherTieringAndTheJobRunning() throws Exception {
        startServer(Map.of("tiering.failure.backoff.max", "1s"));
        conn.admin().createDatabase("shop", true);
        TablePath broken = TablePath.of("shop", "broken");
        TablePath healthy = TablePath.of("shop", "healthy");
        File warehouse = new File(dataDir, "lake");
        try (LakeStorage lake = paimon(warehouse)) {
            TableInfo brokenInfo =
                    conn.admin().createTable(broken, lakeTable(LOG_SCHEMA, 2, "1s"), false);
            // every write to the broken table now fails: its lake table is gone
            lake.catalog().dropTable(broken);
            TableInfo healthyInfo =
                    conn.admin().createTable(healthy, lakeTable(LOG_SCHEMA, 2, "1s"), false);
            appendClicks(broken, 500);
            appendClicks(healthy, 500);
            assertThat(verifyCaughtUp(healthyInfo, warehouse)).isEqualTo(500);
            appendClicks(healthy, 500);
            assertThat(verifyCaughtUp(healthyInfo, warehouse))
                    .as("the healthy table keeps tiering while the other one fails")
                    .isEqualTo(1_000);
            assertThat(lake.catalog().tableExists(broken)).isFalse();

            lake.catalog().createTable(broken, brokenInfo.descriptor());
            assertThat(verifyCaughtUp(brokenInfo, warehouse))
                    .as("the failed table recovers once its lake table is back")
                    .isEqualTo(500);
        }
    }

    @Test
    void t22_aLakeFlushFailureOfOneTableFailsOnlyItsRoundsNeverTheJob() throws Exception {
        File warehouse = new File(dataDir, "lake");
        // every new file of the broken table fails while armed, as on a full or failing disk
        startServer(
                Map.of(
                        "tiering.failure.backoff.max",
                        "1s",
                        "datalake.paimon.warehouse",
                        "faulty://" + warehouse.getAbsolutePath()));
        conn.admin().createDatabase("shop", true);
        TablePath broken = TablePath.of("shop", "broken");
        TablePath healthy = TablePath.of("shop", "healthy");
        TableInfo brokenInfo =
                conn.admin().createTable(broken, lakeTable(PK_SCHEMA, 2, "1s"), false);
        TableInfo healthyInfo =
                conn.admin().createTable(healthy, lakeTable(LOG_SCHEMA, 2, "1s"), false);
        upsertCustomers(broken, 300);
        appendClicks(healthy, 300);
        verifyCaughtUp(brokenInfo, warehouse);
        verifyCaughtUp(healthyInfo, warehouse);
        long healthyRoundsBefore = conn.admin().tieringStatus(healthy).recentRounds().size();
        try {
            FaultyFileIO.failWritesUnder("/shop.db/broken/");
            for (int i = 0; i < 4; i++) {
                upsertCustomers(broken, 200);
                appendClicks(healthy, 200);
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000_000L);
            }
            assertThat(verifyCaughtUp(healthyInfo, warehouse))
                    .as("the healthy table keeps tiering while the other one's flushes fail")
                    .isEqualTo(1_100);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> conn.admin().tieringStatus(broken).failures() > 0);
            assertThat(conn.admin().tieringStatus(broken).lastFailure().orElse(""))
                    .contains("injected");
        } finally {
            FaultyFileIO.heal();
        }
        verifyCaughtUp(brokenInfo, warehouse);
        // no round of the healthy table failed: the tasks that run both tables never died
        assertThat(conn.admin().tieringStatus(healthy).recentRounds())
                .hasSizeGreaterThan((int) healthyRoundsBefore)
                .allSatisfy(r -> assertThat(r.outcome()).isNotEqualTo("FAILED"));
    }

    private void upsertCustomers(TablePath path, int rows) throws Exception {
        try (UpsertWriter pk = conn.upsertWriter(path)) {
            List<CompletableFuture<?>> acks = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                long key = random.nextInt(500);
                Row row = Row.of(key, "c" + key, random.nextInt(1000));
                acks.add(random.nextInt(8) == 0 ? pk.delete(row) : pk.upsert(row));
            }
            pk.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
    }

    private void appendClicks(TablePath path, int rows) throws Exception {
        try (AppendWriter log = conn.appendWriter(path)) {
            List<CompletableFuture<?>> acks = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                long id = random.nextLong();
                acks.add(log.append(Row.of(id, "click-" + id)));
            }
            log.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
    }

    private static LakeStorage paimon(File warehouse) {
        return LakeStoragePlugins.open(
                new Configuration()
                        .setString("datalake.format", "paimon")
                        .setString("datalake.paimon.warehouse", warehouse.getAbsolutePath()));
    }

    /** Waits until the lake holds every bucket's end, then runs the verifier; lake rows. */
    private int verifyCaughtUp(TableInfo t, File warehouse) throws Exception {
        return new LakeCheck(warehouse, seed).verifyCaughtUp(conn, t, Duration.ofSeconds(120));
    }
}

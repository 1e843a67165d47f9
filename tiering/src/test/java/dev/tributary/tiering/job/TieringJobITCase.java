package dev.tributary.tiering.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.service.GatewayTieringService;
import dev.tributary.tiering.testutil.FaultyReads;
import dev.tributary.tiering.testutil.LakeCheck;
import dev.tributary.tiering.testutil.TestSchemas;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real tiering job on a Flink MiniCluster against a real server (store, coordinator, gRPC) in
 * the test JVM, through the production gateway service; reads are slowed down or failed by a thin
 * decorator where a test needs it. The lakes are real Paimon and Iceberg tables, read back with the
 * formats' own readers and checked against the store by the exactly-once verifier.
 */
class TieringJobITCase {
    private static final Schema LOG_SCHEMA = TestSchemas.LOG;
    private static final Schema PK_SCHEMA = TestSchemas.PK;

    @TempDir Path dir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private final FaultyReads faults = new FaultyReads("job-it-" + seed);
    private final List<AutoCloseable> jobs = new ArrayList<>();
    private String format = "paimon";
    private TributaryServer server;
    private Connection conn;

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable j : jobs) {
            j.close();
        }
        if (conn != null) {
            conn.close();
        }
        if (server != null) {
            server.close();
        }
        faults.unregister();
    }

    private Configuration lakeConfig() {
        return new Configuration()
                .setString("datalake.format", format)
                .setString("datalake." + format + ".warehouse", warehouse().toUri().toString());
    }

    private Path warehouse() {
        return dir.resolve("lake");
    }

    private void startServer() {
        Configuration conf = lakeConfig();
        conf.setString("data.dir", dir.resolve("data").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("tiering.heartbeat.interval", "500ms");
        conf.setString("tiering.heartbeat.timeout", "3s");
        conf.setString("tiering.failure.backoff.base", "100ms");
        conf.setString("tiering.failure.backoff.max", "500ms");
        server = TributaryServer.start(conf, Clock.system(), List.of());
        conn = Connection.open(server.rpcTarget());
        conn.admin().createDatabase("demo", true);
    }

    private EmbeddedTiering startJob(int parallelism, Configuration tiering) throws Exception {
        Configuration conf = lakeConfig();
        tiering.toMap().forEach(conf::setString);
        conf.set(TieringOptions.SHUFFLE_SEED, seed);
        conf.set(TieringOptions.EMBEDDED_PARALLELISM, parallelism);
        EmbeddedTiering job =
                EmbeddedTiering.start(
                        faults.wrap(
                                GatewayTieringService.factory(server.rpcTarget(), null, Map.of())),
                        conf);
        jobs.add(job);
        return job;
    }

    private TableInfo table(String name, Schema schema, int buckets, String freshness) {
        return conn.admin()
                .createTable(
                        TablePath.of("demo", name),
                        TableDescriptor.builder(schema)
                                .bucketCount(buckets)
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", freshness)
                                .build(),
                        false);
    }

    private void append(TableInfo t, int rows) throws Exception {
        try (AppendWriter w = conn.appendWriter(t.path())) {
            List<CompletableFuture<?>> acks = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                long id = random.nextLong();
                acks.add(w.append(Row.of(id, "row-" + id)));
            }
            w.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
    }

    private void upsert(TableInfo t, int changes) throws Exception {
        try (UpsertWriter w = conn.upsertWriter(t.path())) {
            List<CompletableFuture<?>> acks = new ArrayList<>();
            for (int i = 0; i < changes; i++) {
                long key = random.nextInt(400);
                Row row = Row.of(key, "k" + key, random.nextInt(1000));
                acks.add(random.nextInt(5) == 0 ? w.delete(row) : w.upsert(row));
            }
            w.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
    }

    private int verify(TableInfo t) throws Exception {
        return new LakeCheck(warehouse().toFile(), format, seed)
                .verifyCaughtUp(conn, t, Duration.ofSeconds(120));
    }

    private List<TableTieringStatus.Round> rounds(TableInfo t) {
        return conn.admin().tieringStatus(t.path()).recentRounds();
    }

    @Test
    void t5_t6_t7_t8_t9_logAndPkTablesTierExactlyOnceOverSeveralRoundsWhileWritesContinue()
            throws Exception {
        startServer();
        TableInfo clicks = table("clicks", LOG_SCHEMA, 4, "500ms");
        // customers: first round from KV snapshots (T7); orders: PK without one, from changelog
        TableInfo customers = table("customers", PK_SCHEMA, 3, "500ms");
        TableInfo orders = table("orders", PK_SCHEMA, 2, "500ms");
        append(clicks, 2_000);
        upsert(customers, 600);
        for (int b = 0; b < 3; b++) {
            server.store().snapshot(new TableBucket(customers.tableId(), b));
        }
        upsert(customers, 100);
        upsert(orders, 300);

        Configuration tiering = new Configuration();
        tiering.set(TieringOptions.SPLIT_MAX_RECORDS, 200L); // T5: buckets are cut into ranges
        EmbeddedTiering job = startJob(2, tiering);
        for (int i = 0; i < 10; i++) {
            append(clicks, 100);
            upsert(customers, 30);
            upsert(orders, 30);
            Thread.sleep(150);
        }

        assertThat(verify(clicks)).isEqualTo(3_000);
        verify(customers);
        verify(orders);
        assertThat(rounds(clicks).stream().filter(r -> r.outcome().equals("COMMITTED")).count())
                .as("several rounds while writes continued")
                .isGreaterThan(1);
        assertThat(faults.leasesTaken()).as("T9: snapshot reads hold leases").isEqualTo(3);
        assertThat(faults.activeLeases()).isZero();
        assertThat(job.status()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void t6_t8_t29_icebergLogAndPkTablesTierExactlyOnce() throws Exception {
        format = "iceberg";
        startServer();
        TableInfo events = table("events", LOG_SCHEMA, 2, "300ms");
        TableInfo accounts = table("accounts", PK_SCHEMA, 2, "300ms");
        append(events, 600);
        upsert(accounts, 300);
        startJob(2, new Configuration());
        for (int round = 0; round < 2; round++) {
            verify(events);
            append(events, 200);
            upsert(accounts, 100);
        }
        assertThat(verify(events)).isEqualTo(1_000);
        verify(accounts);
    }

    @Test
    void t26_twoJobsServeOneCoordinatorWithoutDuplicates() throws Exception {
        startServer();
        List<TableInfo> tables = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            TableInfo t = table("t" + i, LOG_SCHEMA, 2, "200ms");
            append(t, 600);
            tables.add(t);
        }
        startJob(1, new Configuration().setString(TieringOptions.JOB_ID.key(), "job-one"));
        startJob(1, new Configuration().setString(TieringOptions.JOB_ID.key(), "job-two"));
        for (int round = 0; round < 3; round++) {
            for (TableInfo t : tables) {
                append(t, 200);
                verify(t);
            }
        }
        List<String> committers = new ArrayList<>();
        for (TableInfo t : tables) {
            assertThat(verify(t)).isEqualTo(2 * 600);
            rounds(t).stream()
                    .filter(r -> r.outcome().equals("COMMITTED"))
                    .forEach(r -> committers.add(r.jobId().orElseThrow()));
        }
        assertThat(committers).as("both jobs committed rounds").contains("job-one", "job-two");
    }

    @Test
    void t13_roundsLongerThanFreshnessAreForceFinishedAndTheRestFollows() throws Exception {
        startServer();
        TableInfo slow = table("slow", LOG_SCHEMA, 2, "700ms");
        append(slow, 3_000);
        faults.delayReads(Duration.ofMillis(1));
        Configuration tiering = new Configuration();
        tiering.set(TieringOptions.READER_STEP_RECORDS, 64);
        startJob(2, tiering);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> rounds(slow).stream().anyMatch(r -> r.forceFinished()));
        faults.delayReads(Duration.ZERO);
        assertThat(verify(slow)).isEqualTo(3_000);
        TableTieringStatus.Round first =
                rounds(slow).stream()
                        .filter(r -> r.outcome().equals("COMMITTED"))
                        .findFirst()
                        .orElseThrow();
        assertThat(first.forceFinished()).isTrue();
        assertThat(first.recordsRead())
                .as("a partial round commits what it read")
                .isBetween(1L, 2_999L);
    }

    @Test
    void t22_failuresOfOneTableDoNotStopOthersNorRestartTheJob() throws Exception {
        startServer();
        TableInfo bad = table("bad", LOG_SCHEMA, 2, "200ms");
        TableInfo good = table("good", LOG_SCHEMA, 2, "200ms");
        append(bad, 600);
        append(good, 600);
        faults.failReads(bad.tableId(), 3);
        faults.failCommits(bad.tableId(), 1);
        EmbeddedTiering job = startJob(2, new Configuration());
        assertThat(verify(good)).isEqualTo(600);
        append(good, 200);
        assertThat(verify(good)).isEqualTo(800);
        assertThat(verify(bad)).isEqualTo(600);

        assertThat(rounds(bad))
                .as("the bad table's failed rounds are in its history, with their reasons")
                .filteredOn(r -> r.outcome().equals("FAILED"))
                .hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(r -> assertThat(r.failure()).isPresent());
        assertThat(rounds(good)).noneMatch(r -> r.outcome().equals("FAILED"));
        assertThat(job.status()).isEqualTo(JobStatus.RUNNING);
    }
}

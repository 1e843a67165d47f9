package dev.tributary.tiering.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.LakeMaintenance;
import dev.tributary.client.admin.PartitionInfo;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.Secrets;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.testing.IcebergRestCatalogServer;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.server.EmbeddedTieringExtension;
import dev.tributary.tiering.testutil.ExactlyOnceVerifier;
import dev.tributary.tiering.testutil.PaimonLakeReader;
import dev.tributary.tiering.testutil.TestSchemas;
import java.io.File;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end on object storage behind a shared catalog (T45, T46): the real server with its
 * embedded tiering job writes Iceberg tables whose warehouse is on a real S3 API server (s3proxy)
 * and whose catalog is Iceberg's REST catalog server, configured only with {@code
 * datalake.iceberg.*} keys as a user would. Another engine finds the tables through the same
 * catalog and reads every offset exactly once; compaction and expiry run there; after the orphan
 * sweep the bucket holds exactly the objects the snapshots reference; the S3 secret is in no log
 * line and not in {@code /api/tiering}.
 */
class IcebergOnS3ITCase {
    private static final String BUCKET = "lake";
    private static final String WAREHOUSE = "s3://" + BUCKET + "/warehouse";
    private static final TablePath EVENTS = TablePath.of("shop", "events");
    private static final TablePath CUSTOMERS = TablePath.of("shop", "customers");
    private static final Schema EVENT_SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("dt", DataTypes.STRING())
                    .column("page", DataTypes.STRING())
                    .build();

    @TempDir File dataDir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private S3Server s3;
    private IcebergRestCatalogServer rest;
    private TributaryServer server;
    private Connection conn;
    private final StringWriter log = new StringWriter();
    private WriterAppender appender;
    private long nextId;

    @BeforeEach
    void startServers() {
        s3 = S3Server.start(dataDir.toPath().resolve("s3"), BUCKET);
        rest = IcebergRestCatalogServer.startOnS3(dataDir.toPath().resolve("rest"), WAREHOUSE, s3);
        captureLog();
    }

    @AfterEach
    void stopServers() {
        if (conn != null) {
            conn.close();
        }
        if (server != null) {
            server.close();
        }
        if (rest != null) {
            rest.close();
        }
        if (s3 != null) {
            s3.close();
        }
        if (appender != null) {
            LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
            ctx.getConfiguration().getRootLogger().removeAppender(appender.getName());
            ctx.updateLoggers();
            appender.stop();
        }
    }

    /** Every line any logger writes from now on (Tributary's at INFO and up), into {@link #log}. */
    private void captureLog() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        appender =
                WriterAppender.newBuilder()
                        .setName("secret-check")
                        .setTarget(log)
                        .setLayout(PatternLayout.newBuilder().withPattern("%c %m%n%ex").build())
                        .build();
        appender.start();
        ctx.getConfiguration().getRootLogger().addAppender(appender, Level.ALL, null);
        ctx.updateLoggers();
    }

    /** The lake configuration, exactly as a user writes it under datalake.iceberg.* . */
    private Map<String, String> lakeConf() {
        Map<String, String> c = new HashMap<>();
        c.put("datalake.format", "iceberg");
        c.put("datalake.iceberg.warehouse", WAREHOUSE);
        c.put("datalake.iceberg.type", "rest");
        c.put("datalake.iceberg.uri", rest.uri());
        c.put("datalake.iceberg.io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
        c.put("datalake.iceberg.s3.endpoint", s3.endpoint());
        c.put("datalake.iceberg.s3.path-style-access", "true");
        c.put("datalake.iceberg.s3.access-key-id", S3Server.ACCESS_KEY);
        c.put("datalake.iceberg.s3.secret-access-key", S3Server.SECRET_KEY);
        c.put("datalake.iceberg.client.region", S3Server.REGION);
        return c;
    }

    /** What another engine configures to find the same tables. */
    private Map<String, String> otherEngine() {
        Map<String, String> c = new HashMap<>();
        lakeConf()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith("datalake.iceberg.")) {
                                c.put(k.substring("datalake.iceberg.".length()), v);
                            }
                        });
        return c;
    }

    private void startServer() {
        startServer(lakeConf());
    }

    private void startServer(Map<String, String> lake) {
        Configuration conf = new Configuration();
        lake.forEach(conf::setString);
        conf.setString("data.dir", new File(dataDir, "store").getAbsolutePath());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("tiering.embedded.parallelism", "2");
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        conf.setString("tiering.failure.backoff.max", "1s");
        server =
                TributaryServer.start(
                        conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
        conn = Connection.open(server.rpcTarget());
    }

    private static TableDescriptor.Builder lakeTable(TableDescriptor.Builder b) {
        return b.property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "500ms")
                .property("table.datalake.compaction.max-files", "2")
                .property("table.datalake.compaction.interval", "0s")
                .property("table.datalake.snapshot.num-retained", "2")
                .property("table.datalake.snapshot.time-retained", "0s");
    }

    @Test
    void t45_t46_tablesOnS3BehindTheRestCatalogTierExactlyOnceAndTheBucketStaysClean()
            throws Exception {
        String why = "seed " + seed;
        startServer();
        conn.admin().createDatabase("shop", true);
        TableInfo events =
                conn.admin()
                        .createTable(
                                EVENTS,
                                lakeTable(
                                                TableDescriptor.builder(EVENT_SCHEMA)
                                                        .partitionKeys("dt")
                                                        .bucketCount(2)
                                                        .bucketKeys("id"))
                                        .build(),
                                false);
        TableInfo customers =
                conn.admin()
                        .createTable(
                                CUSTOMERS,
                                lakeTable(TableDescriptor.builder(TestSchemas.PK).bucketCount(2))
                                        // by key: the test waits for maintenance compactions,
                                        // which on a position-delete table give way to rounds
                                        // that retract rows of their files (T48, see
                                        // lake/iceberg/README.md)
                                        .property("table.datalake.pk-deletes", "equality")
                                        .build(),
                                false);

        // several rounds: each burst is tiered before the next is written
        try (RestCatalogLake lake = new RestCatalogLake(otherEngine())) {
            for (int burst = 0; burst < 6; burst++) {
                writeBurst(200);
                awaitTiered(lake, events);
                awaitTiered(lake, customers);
            }

            // T38, T39 on S3: compaction committed, expiry removed snapshots and their files. The
            // files a compaction replaced stay referenced by the retained snapshots before it until
            // later tiering commits push those out, so the tables keep receiving writes meanwhile.
            for (TableInfo t : List.of(events, customers)) {
                await().atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofSeconds(1))
                        .untilAsserted(
                                () -> {
                                    LakeMaintenance m =
                                            conn.admin()
                                                    .tieringStatus(t.path())
                                                    .maintenance()
                                                    .orElseThrow();
                                    if (m.compactions() == 0
                                            || m.snapshotsExpired() == 0
                                            || m.filesDeleted() == 0) {
                                        writeBurst(20);
                                    }
                                    String state = why + " " + m;
                                    assertThat(m.compactions()).as(state).isPositive();
                                    assertThat(m.snapshotsExpired()).as(state).isPositive();
                                    assertThat(m.filesDeleted()).as(state).isPositive();
                                });
                assertThat(conn.admin().tieringStatus(t.path()).failures()).as(why).isZero();
            }
            // the rounds kept coming while maintenance ran: check against the store now
            awaitTiered(lake, events);
            awaitTiered(lake, customers);
            assertThat(verifyPartitionedLog(lake, events)).as(why).isEqualTo((int) nextId);
            assertThat(verifyPk(lake, customers)).as(why).isPositive();
            assertThat(lake.tieringSnapshots(EVENTS).size())
                    .as("expiry keeps a bounded history on the store")
                    .isLessThan(6);

            // T45: the secret is nowhere a user or an operator looks
            String status = http("/api/tiering") + http("/api/tiering?table=shop.events");
            assertThat(status).contains("shop.events").doesNotContain(S3Server.SECRET_KEY);
            assertThat(log.toString())
                    .as("the server's log")
                    .isNotEmpty()
                    .doesNotContain(S3Server.SECRET_KEY);
            // the server stops first: its maintenance keeps compacting, and a compaction in
            // flight writes files no snapshot references yet
            conn.close();
            conn = null;
            server.close();
            server = null;

            // T23 by listing the bucket: a file a crashed writer left, swept like any orphan
            String planted =
                    lake.table(EVENTS).location() + "/data/dt=2026-12-01/crashed-writer.parquet";
            OutputFile out = lake.table(EVENTS).io().newOutputFile(planted);
            try (PositionOutputStream o = out.create()) {
                o.write("not referenced".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(objects(EVENTS)).contains(planted);
            try (LakeStorage storage = LakeStoragePlugins.open(serverLakeConf())) {
                for (TablePath p : List.of(EVENTS, CUSTOMERS)) {
                    try (LakeCommitter c = storage.createCommitter(p)) {
                        c.deleteOrphanFiles(OrphanPolicy.olderThan(Instant.now().plusSeconds(60)));
                    }
                }
            }
            for (TablePath p : List.of(EVENTS, CUSTOMERS)) {
                assertThat(objects(p))
                        .as("%s: the bucket holds exactly what the snapshots reference", p)
                        .containsExactlyInAnyOrderElementsOf(lake.referencedFiles(p));
            }
        }
    }

    @Test
    void t45_t46_aLakeThatCannotBeOpenedStopsTheStartNamingTheFixButNotTheSecret()
            throws Exception {
        Map<String, String> unreachable = lakeConf();
        unreachable.put("datalake.iceberg.uri", "http://127.0.0.1:" + freePort() + "/");
        assertThatThrownBy(() -> startServer(unreachable))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("cannot open the Iceberg catalog")
                .hasMessageContaining("s3.secret-access-key=" + Secrets.MASK)
                .hasMessageNotContaining(S3Server.SECRET_KEY);

        // the Hadoop catalog (the default) commits by rename: never on an object store
        Map<String, String> hadoop = lakeConf();
        hadoop.remove("datalake.iceberg.type");
        hadoop.remove("datalake.iceberg.uri");
        assertThatThrownBy(() -> startServer(hadoop))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("not atomic")
                .hasMessageContaining("'datalake.iceberg.type: rest'")
                .hasMessageNotContaining(S3Server.SECRET_KEY);
        assertThat(log.toString()).doesNotContain(S3Server.SECRET_KEY);
    }

    /** Appends {@code rows} events over three days and as many upserts and deletes, all acked. */
    private void writeBurst(int rows) throws Exception {
        try (AppendWriter ev = conn.appendWriter(EVENTS);
                UpsertWriter pk = conn.upsertWriter(CUSTOMERS)) {
            List<CompletableFuture<?>> acks = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                String dt = "2026-12-0" + (1 + random.nextInt(3));
                acks.add(ev.append(Row.of(nextId++, dt, "p" + i)));
                long key = random.nextInt(150);
                Row row = Row.of(key, "c" + key, random.nextInt(1000));
                acks.add(random.nextInt(6) == 0 ? pk.delete(row) : pk.upsert(row));
            }
            ev.flush();
            pk.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Configuration serverLakeConf() {
        Configuration conf = new Configuration();
        lakeConf().forEach(conf::setString);
        return conf;
    }

    /** The objects the bucket holds under the table's data location, as s3:// locations. */
    private List<String> objects(TablePath path) {
        String prefix = "warehouse/" + path.database() + "/" + path.table() + "/data/";
        return s3.keys(BUCKET, prefix).stream().map(k -> "s3://" + BUCKET + "/" + k).toList();
    }

    /** Waits until the newest tiering snapshot reaches every bucket's end offset in the store. */
    private void awaitTiered(RestCatalogLake lake, TableInfo t) {
        Map<PartitionBucket, Long> ends = new HashMap<>(endOffsets(t));
        ends.values().removeIf(o -> o == 0);
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(300))
                .ignoreExceptions()
                .untilAsserted(
                        () -> {
                            Map<PartitionBucket, Long> committed = lake.committedOffsets(t.path());
                            for (Map.Entry<PartitionBucket, Long> e : ends.entrySet()) {
                                assertThat(committed.getOrDefault(e.getKey(), 0L))
                                        .as("%s %s (seed %d)", t.path(), e.getKey(), seed)
                                        .isEqualTo(e.getValue());
                            }
                        });
    }

    private Map<PartitionBucket, Long> endOffsets(TableInfo t) {
        if (t.descriptor().isPartitioned()) {
            return conn.logScanner(t.path()).partitionEndOffsets();
        }
        return conn.logScanner(t.path()).endOffsets().entrySet().stream()
                .collect(
                        Collectors.toMap(
                                e -> new PartitionBucket(TableBucket.NO_PARTITION, e.getKey()),
                                Map.Entry::getValue));
    }

    private List<LogRecord> readLog(TableInfo t, TableBucket bucket, long end) throws Exception {
        List<LogRecord> list = new ArrayList<>();
        try (RecordIterator it = conn.tieringGateway().readLog(bucket, 0, end, t.schema())) {
            it.forEachRemaining(list::add);
        }
        return list;
    }

    /** Every (partition, bucket, offset) of the store is in its lake partition exactly once. */
    private int verifyPartitionedLog(RestCatalogLake lake, TableInfo t) throws Exception {
        Map<PartitionBucket, Long> ends = endOffsets(t);
        PartitionRouter router = PartitionRouter.of(t.descriptor());
        Map<String, List<PaimonLakeReader.LakeRow>> lakeByPartition = new HashMap<>();
        for (PaimonLakeReader.LakeRow r : lake.rows(t.path(), t.schema())) {
            lakeByPartition
                    .computeIfAbsent(router.partitionOf(r.row()).name(), k -> new ArrayList<>())
                    .add(r);
        }
        int checked = 0;
        for (PartitionInfo p : conn.admin().listPartitions(t.path())) {
            Map<Integer, List<LogRecord>> records = new HashMap<>();
            Map<Integer, Long> committed = new HashMap<>();
            for (int b = 0; b < t.bucketCount(); b++) {
                long end = ends.getOrDefault(new PartitionBucket(p.partitionId(), b), 0L);
                committed.put(b, end);
                records.put(b, readLog(t, new TableBucket(t.tableId(), p.partitionId(), b), end));
            }
            checked +=
                    ExactlyOnceVerifier.verify(
                            records,
                            committed,
                            t.path(),
                            t.descriptor(),
                            lakeByPartition.getOrDefault(p.name(), List.of()));
        }
        return checked;
    }

    /** The PK lake table equals the state of its changelog at the committed offsets. */
    private int verifyPk(RestCatalogLake lake, TableInfo t) throws Exception {
        Map<Integer, List<LogRecord>> records = new HashMap<>();
        Map<Integer, Long> committed = new HashMap<>();
        for (Map.Entry<PartitionBucket, Long> e : endOffsets(t).entrySet()) {
            int b = e.getKey().bucket();
            committed.put(b, e.getValue());
            records.put(b, readLog(t, new TableBucket(t.tableId(), b), e.getValue()));
        }
        return ExactlyOnceVerifier.verify(
                records, committed, t.path(), t.descriptor(), lake.rows(t.path(), t.schema()));
    }

    private String http(String path) throws Exception {
        int port = server.httpAddress().orElseThrow().getPort();
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }
}

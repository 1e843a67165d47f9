package dev.tributary.tiering.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.LakeMaintenance;
import dev.tributary.client.admin.PartitionInfo;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
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
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.server.EmbeddedTieringExtension;
import dev.tributary.tiering.testutil.ExactlyOnceVerifier;
import dev.tributary.tiering.testutil.PaimonLakeReader.LakeRow;
import dev.tributary.tiering.testutil.TestSchemas;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.FileNotFoundException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.utils.SnapshotManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tiering into Apache Paimon on S3-compatible object storage (T45) behind Paimon's JDBC catalog
 * with its lock on a real PostgreSQL (T46), with the real server, its embedded Flink job and a real
 * S3 server (s3proxy): a partitioned log table and a PK table are tiered exactly once, read back
 * with Paimon's own reader through the same JDBC catalog as another engine would, compacted and
 * expired; after the orphan sweep the bucket holds no data object that no snapshot references
 * (counted by listing it), and the secret key is never in the server's log or its status.
 */
class PaimonOnS3ITCase {
    private static final String BUCKET = "lake";
    private static final String WAREHOUSE = "s3://" + BUCKET + "/warehouse";
    private static final TablePath EVENTS = TablePath.of("shop", "events");
    private static final TablePath ORDERS = TablePath.of("shop", "orders");
    private static final Schema EVENT_SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("dt", DataTypes.STRING())
                    .column("name", DataTypes.STRING())
                    .build();

    @TempDir static Path servers;
    private static S3Server s3;
    private static EmbeddedPostgres database;

    @TempDir File dataDir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private long nextId;
    private TributaryServer server;
    private Connection conn;
    private LogCapture log;

    @BeforeAll
    static void startServers() throws Exception {
        s3 = S3Server.start(servers.resolve("s3"), BUCKET);
        database = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stopServers() throws Exception {
        if (database != null) {
            database.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @AfterEach
    void tearDown() {
        stop();
        if (log != null) {
            log.close();
        }
    }

    /** What a user puts under {@code datalake.paimon.*}: S3 keys and the JDBC catalog. */
    private Map<String, String> lakeOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("warehouse", WAREHOUSE);
        o.put("metastore", "jdbc");
        o.put("uri", database.getJdbcUrl("postgres", "postgres"));
        o.put("catalog-key", "tributary");
        o.put("s3.endpoint", s3.endpoint());
        o.put("s3.endpoint.region", S3Server.REGION);
        o.put("s3.path.style.access", "true");
        o.put("s3.access-key", S3Server.ACCESS_KEY);
        o.put("s3.secret-key", S3Server.SECRET_KEY);
        return o;
    }

    private void start() {
        Configuration conf = new Configuration();
        conf.setString("data.dir", new File(dataDir, "data").getAbsolutePath());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("datalake.format", "paimon");
        lakeOptions().forEach((k, v) -> conf.setString("datalake.paimon." + k, v));
        conf.setString("tiering.embedded.parallelism", "2");
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        conf.setString("tiering.failure.backoff.max", "1s");
        server =
                TributaryServer.start(
                        conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
        conn = Connection.open(server.rpcTarget());
    }

    private void stop() {
        if (conn != null) {
            conn.close();
            conn = null;
        }
        if (server != null) {
            server.close();
            server = null;
        }
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
    void t45_t46_aPartitionedLogTableAndAPkTableTierExactlyOnceIntoS3ThroughTheJdbcCatalog()
            throws Exception {
        log = LogCapture.install();
        start();
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
        TableInfo orders =
                conn.admin()
                        .createTable(
                                ORDERS,
                                lakeTable(TableDescriptor.builder(TestSchemas.PK).bucketCount(2))
                                        // merge-on-read: the test waits for maintenance
                                        // compactions, which on a deletion-vector table (T48)
                                        // give way to rounds that compact their own level 0
                                        .property("table.datalake.pk-deletes", "equality")
                                        .build(),
                                false);

        // rounds of appends over three days and of upserts and deletes
        for (int round = 0; round < 6; round++) {
            // one round at a time (snapshot expiry keeps only the newest few, so count offsets)
            writeRound();
            awaitCaughtUp(events);
            awaitCaughtUp(orders);
        }
        awaitCaughtUp(events);
        awaitCaughtUp(orders);
        verifyExactlyOnce(events);
        verifyExactlyOnce(orders);

        // T38, T39 on S3: compactions commit, snapshots expire, replaced files go. The files a
        // compaction replaced stay referenced by the retained snapshots before it until later
        // tiering commits push those out, so the tables keep receiving writes meanwhile.
        for (TablePath p : List.of(EVENTS, ORDERS)) {
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(
                            () -> {
                                LakeMaintenance m = maintenance(p);
                                if (m.compactions() == 0
                                        || m.snapshotsExpired() == 0
                                        || m.filesDeleted() == 0) {
                                    writeRound();
                                }
                                String state = p + " (seed " + seed + ") " + m;
                                assertThat(m.compactions()).as(state).isPositive();
                                assertThat(m.snapshotsExpired()).as(state).isPositive();
                                assertThat(m.filesDeleted()).as(state).isPositive();
                                assertThat(m.lastError()).as(state).isEmpty();
                            });
            assertThat(conn.admin().tieringStatus(p).failures()).as("%s", p).isZero();
        }
        awaitCaughtUp(events);
        awaitCaughtUp(orders);
        verifyExactlyOnce(events);
        verifyExactlyOnce(orders);
        assertNoSecretShown();

        // no more compactions, so that what the bucket holds settles once tiering caught up
        for (TablePath p : List.of(EVENTS, ORDERS)) {
            conn.admin()
                    .alterTable(
                            p,
                            TableAlteration.create()
                                    .setProperty("table.datalake.auto-compaction", "false"));
        }
        stop();

        // objects no snapshot references, old enough for the sweep: another writer's leftovers
        List<Path> planted = new ArrayList<>();
        for (TablePath p : List.of(EVENTS, ORDERS)) {
            Path someBucketDir = dataObjects(p).get(0).getParent();
            Path orphan = someBucketDir.resolve("data-left-by-another-writer-0.parquet");
            Files.writeString(orphan, "not a parquet file");
            Files.setLastModifiedTime(
                    orphan, FileTime.from(Instant.now().minus(Duration.ofDays(3))));
            planted.add(orphan);
        }

        // a restart: the first commit of each table sweeps its orphans (T23, by listing objects)
        start();
        writeRound();
        awaitCaughtUp(conn.admin().describeTable(EVENTS));
        awaitCaughtUp(conn.admin().describeTable(ORDERS));
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(planted).noneMatch(Files::exists));
        verifyExactlyOnce(conn.admin().describeTable(EVENTS));
        verifyExactlyOnce(conn.admin().describeTable(ORDERS));
        assertNoSecretShown();
        stop();

        for (TablePath p : List.of(EVENTS, ORDERS)) {
            Set<String> inBucket = new TreeSet<>();
            for (Path f : dataObjects(p)) {
                inBucket.add(f.getFileName().toString());
            }
            Set<String> referenced = referencedByAnySnapshot(p);
            assertThat(inBucket)
                    .as("%s: data objects in the bucket no snapshot references (seed %d)", p, seed)
                    .isSubsetOf(referenced);
            assertThat(referenced)
                    .as("%s: every referenced file is in the bucket", p)
                    .isSubsetOf(inBucket);
        }
        assertThat(log.text()).as("the server logged something").isNotEmpty();
        assertThat(log.text()).doesNotContain(S3Server.SECRET_KEY);
    }

    /** One round of data: 150 events over three days, 60 order upserts and some deletes. */
    private void writeRound() throws Exception {
        try (AppendWriter ev = conn.appendWriter(EVENTS);
                UpsertWriter or = conn.upsertWriter(ORDERS)) {
            List<CompletableFuture<?>> acks = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                String dt = "2026-12-0" + (1 + random.nextInt(3));
                acks.add(ev.append(Row.of(nextId++, dt, "page-" + i)));
            }
            for (int i = 0; i < 60; i++) {
                Row order = Row.of((long) random.nextInt(80), "o" + i, random.nextInt(1000));
                acks.add(random.nextInt(6) == 0 ? or.delete(order) : or.upsert(order));
            }
            ev.flush();
            or.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
    }

    private void assertNoSecretShown() throws Exception {
        for (String path :
                List.of(
                        "/api/tiering",
                        "/api/tiering?table=" + EVENTS,
                        "/api/tiering?table=" + ORDERS)) {
            String body = http(path);
            assertThat(body).as(path).isNotEmpty().doesNotContain(S3Server.SECRET_KEY);
        }
        assertThat(log.text()).doesNotContain(S3Server.SECRET_KEY);
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

    private LakeMaintenance maintenance(TablePath path) {
        return conn.admin().tieringStatus(path).maintenance().orElseThrow();
    }

    // ---------------------------------------------------------------- the lake as others see it

    /** Paimon's own catalog over the same JDBC database and bucket, as another engine opens it. */
    private Catalog nativeCatalog() {
        Map<String, String> o = new HashMap<>(lakeOptions());
        o.put("cache-enabled", "false");
        return CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(o)));
    }

    private FileStoreTable table(Catalog catalog, TablePath path) throws Exception {
        return (FileStoreTable) catalog.getTable(Identifier.create(path.database(), path.table()));
    }

    /** The tiering properties of the table's retained snapshots, oldest first. */
    private List<TieringSnapshotProperties> tieringSnapshots(TablePath path) throws Exception {
        List<TieringSnapshotProperties> out = new ArrayList<>();
        try (Catalog catalog = nativeCatalog()) {
            SnapshotManager snapshots = table(catalog, path).snapshotManager();
            Long earliest = snapshots.earliestSnapshotId();
            Long latest = snapshots.latestSnapshotId();
            if (earliest == null || latest == null) {
                return out;
            }
            for (long id = earliest; id <= latest; id++) {
                try {
                    Snapshot s = snapshots.tryGetSnapshot(id);
                    TieringSnapshotProperties.fromProperties(s.properties()).ifPresent(out::add);
                } catch (FileNotFoundException expired) {
                    // expired meanwhile
                }
            }
        }
        return out;
    }

    /** Every lake row with its system columns, read by Paimon's own reader. */
    private List<LakeRow> lakeRows(TablePath path, Schema schema) throws Exception {
        try (Catalog catalog = nativeCatalog()) {
            ReadBuilder rb = table(catalog, path).newReadBuilder();
            List<LakeRow> out = new ArrayList<>();
            int n = schema.fieldCount();
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan().splits())) {
                reader.forEachRemaining(
                        r -> {
                            Object[] values = new Object[n];
                            for (int i = 0; i < n; i++) {
                                values[i] = r.isNullAt(i) ? null : value(schema, r, i);
                            }
                            out.add(
                                    new LakeRow(
                                            Row.wrap(values),
                                            r.getInt(n),
                                            r.getLong(n + 1),
                                            r.getTimestamp(n + 2, 3).getMillisecond()));
                        });
            }
            return out;
        }
    }

    private static Object value(Schema schema, InternalRow r, int i) {
        return switch (schema.typeAt(i).root()) {
            case BIGINT -> r.getLong(i);
            case INT -> r.getInt(i);
            case STRING -> r.getString(i).toString();
            default -> throw new IllegalArgumentException("not mapped: " + schema.typeAt(i));
        };
    }

    /** Names of the data files any retained snapshot of the table reads. */
    private Set<String> referencedByAnySnapshot(TablePath path) throws Exception {
        Set<String> out = new TreeSet<>();
        try (Catalog catalog = nativeCatalog()) {
            FileStoreTable t = table(catalog, path);
            SnapshotManager snapshots = t.snapshotManager();
            for (long id = snapshots.earliestSnapshotId();
                    id <= snapshots.latestSnapshotId();
                    id++) {
                FileStoreTable at = t.copy(Map.of("scan.snapshot-id", Long.toString(id)));
                for (Split s : at.newReadBuilder().newScan().plan().splits()) {
                    for (DataFileMeta f : ((DataSplit) s).dataFiles()) {
                        out.add(f.fileName());
                    }
                }
            }
        }
        return out;
    }

    /** The data objects of the table in the bucket (under its bucket-N prefixes). */
    private List<Path> dataObjects(TablePath path) {
        String prefix = "warehouse/" + path.database() + ".db/" + path.table() + "/";
        return s3.keys(BUCKET, prefix).stream()
                .filter(k -> k.contains("/bucket-"))
                .map(k -> s3.bucketDir(BUCKET).resolve(k))
                .collect(Collectors.toList());
    }

    /** Waits until the newest tiering snapshot holds every bucket up to the store's end offsets. */
    private void awaitCaughtUp(TableInfo t) {
        Map<PartitionBucket, Long> ends = endOffsets(t);
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(300))
                .ignoreExceptions()
                .untilAsserted(
                        () -> {
                            List<TieringSnapshotProperties> rounds = tieringSnapshots(t.path());
                            assertThat(rounds).isNotEmpty();
                            Map<PartitionBucket, Long> committed =
                                    rounds.get(rounds.size() - 1).offsets();
                            for (Map.Entry<PartitionBucket, Long> e : ends.entrySet()) {
                                assertThat(committed.getOrDefault(e.getKey(), 0L))
                                        .as("%s %s (seed %d)", t.path(), e.getKey(), seed)
                                        .isEqualTo(e.getValue());
                            }
                        });
    }

    private Map<PartitionBucket, Long> endOffsets(TableInfo t) {
        Map<PartitionBucket, Long> ends = new HashMap<>();
        if (t.descriptor().partitionKeys().isEmpty()) {
            conn.logScanner(t.path())
                    .endOffsets()
                    .forEach((b, o) -> ends.put(PartitionBucket.of(b), o));
        } else {
            ends.putAll(conn.logScanner(t.path()).partitionEndOffsets());
        }
        ends.values().removeIf(o -> o == 0);
        return ends;
    }

    /**
     * Every (partition, bucket, offset) of the store is in the lake exactly once (log table), or
     * the lake equals the KV state of the changelog (PK table).
     */
    private void verifyExactlyOnce(TableInfo t) throws Exception {
        List<LakeRow> lake = lakeRows(t.path(), t.schema());
        int checked = 0;
        if (t.descriptor().partitionKeys().isEmpty()) {
            Map<Integer, Long> committed = new HashMap<>();
            endOffsets(t).forEach((pb, o) -> committed.put(pb.bucket(), o));
            checked +=
                    ExactlyOnceVerifier.verify(
                            readLog(t, null, committed), committed, t.path(), t.descriptor(), lake);
        } else {
            PartitionRouter router = PartitionRouter.of(t.descriptor());
            Map<String, List<LakeRow>> byPartition = new HashMap<>();
            for (LakeRow r : lake) {
                byPartition
                        .computeIfAbsent(router.partitionOf(r.row()).name(), k -> new ArrayList<>())
                        .add(r);
            }
            Map<PartitionBucket, Long> ends = endOffsets(t);
            for (PartitionInfo p : conn.admin().listPartitions(t.path())) {
                Map<Integer, Long> committed = new HashMap<>();
                for (int b = 0; b < t.bucketCount(); b++) {
                    committed.put(
                            b, ends.getOrDefault(new PartitionBucket(p.partitionId(), b), 0L));
                }
                checked +=
                        ExactlyOnceVerifier.verify(
                                readLog(t, p.partitionId(), committed),
                                committed,
                                t.path(),
                                t.descriptor(),
                                byPartition.getOrDefault(p.name(), List.of()));
            }
        }
        assertThat(checked).as("%s (seed %d)", t.path(), seed).isPositive();
    }

    private Map<Integer, List<LogRecord>> readLog(
            TableInfo t, Long partitionId, Map<Integer, Long> upTo) throws Exception {
        Map<Integer, List<LogRecord>> log = new HashMap<>();
        for (Map.Entry<Integer, Long> e : upTo.entrySet()) {
            List<LogRecord> list = new ArrayList<>();
            TableBucket tb =
                    partitionId == null
                            ? new TableBucket(t.tableId(), e.getKey())
                            : new TableBucket(t.tableId(), partitionId, e.getKey());
            try (RecordIterator it =
                    conn.tieringGateway().readLog(tb, 0, e.getValue(), t.schema())) {
                it.forEachRemaining(list::add);
            }
            log.put(e.getKey(), list);
        }
        return log;
    }

    /** Everything logged while installed, at the levels the tests configure, as one text. */
    static final class LogCapture extends AbstractAppender implements AutoCloseable {
        private final StringBuffer text = new StringBuffer();

        private LogCapture() {
            super("paimon-on-s3-capture", null, null, true, Property.EMPTY_ARRAY);
        }

        static LogCapture install() {
            LogCapture c = new LogCapture();
            c.start();
            LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
            ctx.getConfiguration().getRootLogger().addAppender(c, null, null);
            ctx.updateLoggers();
            return c;
        }

        @Override
        public void append(LogEvent event) {
            text.append(event.getLoggerName())
                    .append(' ')
                    .append(event.getMessage().getFormattedMessage())
                    .append('\n');
            for (Throwable t = event.getThrown(); t != null; t = t.getCause()) {
                text.append(t).append('\n');
            }
        }

        String text() {
            return text.toString();
        }

        @Override
        public void close() {
            LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
            ctx.getConfiguration().getRootLogger().removeAppender(getName());
            ctx.updateLoggers();
            stop();
        }
    }
}

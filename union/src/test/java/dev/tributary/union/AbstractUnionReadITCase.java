package dev.tributary.union;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.client.write.WriteResult;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.read.LakePredicate;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.server.EmbeddedTieringExtension;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Union read (T40) end to end: a real server with the embedded tiering job writing real Paimon and
 * Iceberg tables, writers running and rounds committing (some force-finished) while union reads
 * run, each checked against what the store itself holds: a log table yields every acknowledged
 * record below the planned end offsets exactly once, a PK table the state its changelog replays to.
 * One class per lake format, so the two run in parallel test forks.
 */
abstract class AbstractUnionReadITCase {
    private static final Schema LOG =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("payload", DataTypes.STRING())
                    .column("amount", DataTypes.INT())
                    .build();
    private static final Schema PK =
            Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("name", DataTypes.STRING())
                    .column("score", DataTypes.BIGINT())
                    .primaryKey("id")
                    .build();

    /** Small segments and frequent maintenance: retention deletes tiered records soon. */
    private static final Map<String, String> RETENTION =
            Map.of(
                    "log.segment.size", "4kb",
                    "server.maintenance.interval", "200ms",
                    "kv.snapshot.interval", "1s");

    /**
     * One server per lake format and server configuration, shared by the tests asking for the same:
     * a server with its embedded tiering job (a MiniCluster) took seconds to start per test. Each
     * test has a database of its own, dropped after it, so no test sees another's tables.
     */
    private static final Map<String, Shared> SERVERS = new HashMap<>();

    private static final AtomicInteger DATABASES = new AtomicInteger();

    @TempDir static File serversDir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private final String db = "db" + DATABASES.incrementAndGet();
    private Connection conn;
    private LakeStorage lake;

    /** The lake format the server tiers into. */
    abstract String format();

    /** A server, its client connection and its lake, closed after the class. */
    private record Shared(TributaryServer server, Connection conn, LakeStorage lake) {}

    @AfterEach
    void dropDatabase() {
        if (conn != null) {
            conn.admin().dropDatabase(db, true, true);
        }
    }

    @AfterAll
    static void stopServers() {
        for (Shared s : SERVERS.values()) {
            s.lake().close();
            s.conn().close();
            s.server().close();
        }
        SERVERS.clear();
    }

    private void start(String format, Map<String, String> extra) {
        Shared shared =
                SERVERS.computeIfAbsent(
                        format + " " + new TreeMap<>(extra), k -> startServer(format, extra));
        conn = shared.conn();
        lake = shared.lake();
        conn.admin().createDatabase(db, true);
    }

    private Shared startServer(String format, Map<String, String> extra) {
        Configuration conf = new Configuration();
        conf.setString(
                "data.dir", new File(serversDir, "server-" + SERVERS.size()).getAbsolutePath());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("datalake.format", format);
        conf.setString("tiering.embedded.parallelism", "2");
        // the shuffle seed of the test that started the server (printed: the others' differ)
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        System.out.printf("%s server %s: split shuffle seed %d%n", format, extra, seed);
        extra.forEach(conf::setString);
        TributaryServer server =
                TributaryServer.start(
                        conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
        Connection c = Connection.open(server.rpcTarget());
        return new Shared(server, c, LakeAccess.open(c.admin(), Map.of()).orElseThrow());
    }

    private TableInfo create(String name, Schema schema, int buckets, Map<String, String> props) {
        TableDescriptor.Builder d =
                TableDescriptor.builder(schema)
                        .bucketCount(buckets)
                        .bucketKeys("id")
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "1s");
        props.forEach(d::property);
        return conn.admin().createTable(TablePath.of(db, name), d.build(), false);
    }

    /** Appends and upserts/deletes until stopped, remembering where each log row landed. */
    private final class Writers implements Runnable {
        final TablePath log;
        final TablePath pk;
        final Map<Integer, Map<Long, Row>> acked = new ConcurrentHashMap<>();
        final AtomicBoolean stop = new AtomicBoolean();
        volatile Throwable failure;
        long seq;

        Writers(TablePath log, TablePath pk) {
            this.log = log;
            this.pk = pk;
        }

        @Override
        public void run() {
            try (AppendWriter a = conn.appendWriter(log);
                    UpsertWriter u = conn.upsertWriter(pk)) {
                Random r = new Random(seed ^ 0x5eed);
                while (!stop.get()) {
                    List<CompletableFuture<?>> acks = new ArrayList<>();
                    for (int i = 0; i < 100; i++) {
                        Row row = Row.of(seq++, "p" + r.nextInt(1000), r.nextInt(1000));
                        acks.add(
                                a.append(row)
                                        .thenAccept(
                                                (WriteResult w) ->
                                                        acked.computeIfAbsent(
                                                                        w.bucket(),
                                                                        b ->
                                                                                new ConcurrentHashMap<>())
                                                                .put(w.offset(), row)));
                    }
                    for (int i = 0; i < 50; i++) {
                        int key = r.nextInt(500);
                        Row row = Row.of(key, "n" + key, (long) r.nextInt(100_000));
                        acks.add(r.nextInt(5) == 0 ? u.delete(row) : u.upsert(row));
                    }
                    a.flush();
                    u.flush();
                    CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                    LockSupport.parkNanos(30_000_000L);
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        /** Appends {@code n} log rows at once: a backlog the next round takes a while to tier. */
        void backlog(int n) throws Exception {
            try (AppendWriter a = conn.appendWriter(log)) {
                List<CompletableFuture<?>> acks = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    Row row = Row.of(seq++, "b" + i, i % 1000);
                    acks.add(
                            a.append(row)
                                    .thenAccept(
                                            (WriteResult w) ->
                                                    acked.computeIfAbsent(
                                                                    w.bucket(),
                                                                    b -> new ConcurrentHashMap<>())
                                                            .put(w.offset(), row)));
                }
                a.flush();
                CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
            }
        }

        /** The acknowledged rows of a bucket below {@code end}; waits for acks in flight. */
        List<Row> logRows(int bucket, long end) {
            await().atMost(Duration.ofSeconds(30))
                    .until(
                            () ->
                                    acked.getOrDefault(bucket, Map.of()).keySet().stream()
                                                    .filter(o -> o < end)
                                                    .count()
                                            == end);
            List<Row> out = new ArrayList<>();
            acked.getOrDefault(bucket, Map.of())
                    .forEach(
                            (o, row) -> {
                                if (o < end) {
                                    out.add(row);
                                }
                            });
            return out;
        }
    }

    /** The KV state the store's changelog of {@code [0, ends)} replays to. */
    private List<Row> pkState(TablePath path, Map<Integer, Long> ends) {
        LogScanner scanner = conn.logScanner(path);
        Map<Row, Row> state = new HashMap<>();
        ends.forEach(
                (bucket, end) -> {
                    try (RecordIterator it = scanner.scan(bucket, 0, end)) {
                        while (it.hasNext()) {
                            LogRecord r = it.next();
                            Row key = Row.of(r.row().getField(0));
                            if (r.changeType().isAddition()) {
                                state.put(key, r.row());
                            } else {
                                state.remove(key);
                            }
                        }
                    }
                });
        return new ArrayList<>(state.values());
    }

    private static Map<Integer, Long> ends(UnionPlan plan) {
        Map<Integer, Long> out = new HashMap<>();
        plan.buckets().forEach(b -> out.put(b.bucket(), b.storeTo()));
        return out;
    }

    private record Read(List<Row> rows, UnionPlan plan, long lakeRows, int retentionMoves) {}

    private Read batch(TablePath path, LakePredicate filter, List<String> columns) {
        UnionScan.Builder b = UnionScan.builder(conn, path).lake(lake).filter(filter);
        if (columns != null) {
            b.columns(columns);
        }
        try (UnionScan scan = b.build();
                UnionScan.Rows rows = scan.read()) {
            List<Row> out = new ArrayList<>();
            while (rows.next()) {
                assertThat(rows.changeType()).isEqualTo(ChangeType.INSERT);
                out.add(rows.row());
            }
            return new Read(out, rows.plan(), rows.lakeRows(), rows.retentionMoves());
        }
    }

    @Test
    void t40_batchUnionReadsEqualTheStoreWhileWritesAndRoundsRun() throws Exception {
        String format = format();
        start(format, Map.of());
        // a short freshness: rounds may outlast it and be force-finished (T13) on a loaded
        // machine; whether they are depends on its speed, so the reads' correctness must not
        // (ForceFinishTest and TieringJobITCase prove T13 itself)
        TablePath log =
                create("events", LOG, 3, Map.of("table.datalake.freshness", "200ms")).path();
        TablePath pk = create("users", PK, 2, Map.of()).path();
        Writers writers = new Writers(log, pk);
        writers.backlog(60_000);
        Thread t = new Thread(writers, "writers");
        t.start();
        int reads = 0;
        long lakeRowsSeen = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(8).toNanos();
        try {
            while (System.nanoTime() < deadline || lakeRowsSeen == 0) {
                assertThat(System.nanoTime() - deadline)
                        .as("a read served rows from the lake within 40s more (seed %d)", seed)
                        .isLessThan(Duration.ofSeconds(40).toNanos());
                Read logRead = batch(log, null, null);
                List<Row> expected = new ArrayList<>();
                for (BucketReadState b : logRead.plan().buckets()) {
                    expected.addAll(writers.logRows(b.bucket(), b.storeTo()));
                }
                SameRows.assertSameElements(
                        logRead.rows(), expected, "log table, read %d (seed %d)", reads, seed);

                Read pkRead = batch(pk, null, null);
                assertThat(pkRead.rows())
                        .as("PK table, read %d (seed %d)", reads, seed)
                        .containsExactlyInAnyOrderElementsOf(pkState(pk, ends(pkRead.plan())));
                lakeRowsSeen += Math.min(logRead.lakeRows(), pkRead.lakeRows());
                reads++;
            }
        } finally {
            writers.stop.set(true);
            t.join();
        }
        assertThat(writers.failure).isNull();
        assertThat(reads).isGreaterThan(1);

        // projection and filters agree with the same read filtered here
        LakePredicate filter = LakePredicate.compare("amount", LakePredicate.Op.LT, 100);
        Read all = batch(log, null, null);
        Read filtered = batch(log, filter, List.of("amount", "id"));
        SameRows.assertSameElements(
                filtered.rows(),
                all.rows().stream()
                        .filter(r -> r.getInt(2) < 100)
                        .map(r -> Row.of(r.getField(2), r.getField(0)))
                        .toList(),
                "the log table's filtered projection");
        LakePredicate high = LakePredicate.compare("score", LakePredicate.Op.GT_EQ, 50_000L);
        Read pkAll = batch(pk, null, null);
        assertThat(batch(pk, high, List.of("id")).rows())
                .containsExactlyInAnyOrderElementsOf(
                        pkAll.rows().stream()
                                .filter(r -> r.getLong(2) >= 50_000L)
                                .map(r -> Row.of(r.getField(0)))
                                .toList());
        printRounds(log, pk);
    }

    @Test
    void t40_streamingUnionReadsFollowTheTailExactlyOnce() throws Exception {
        String format = format();
        start(format, Map.of());
        TablePath log = create("events", LOG, 2, Map.of()).path();
        TablePath pk = create("users", PK, 2, Map.of()).path();
        Writers writers = new Writers(log, pk);
        Thread t = new Thread(writers, "writers");
        t.start();
        // let a few rounds commit so the streaming reads start from a lake snapshot
        await().atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                conn.admin().tieringStatus(pk).lastTieredAtMillis() > 0
                                        && conn.admin().tieringStatus(log).lastTieredAtMillis()
                                                > 0);
        List<Row> logRows = new ArrayList<>();
        Map<Row, Row> pkState = new HashMap<>();
        try (UnionScan logScan =
                        UnionScan.builder(conn, log)
                                .lake(lake)
                                .mode(UnionReadMode.STREAMING)
                                .build();
                UnionScan pkScan =
                        UnionScan.builder(conn, pk)
                                .lake(lake)
                                .mode(UnionReadMode.STREAMING)
                                .build()) {
            UnionPlan logPlan = logScan.plan();
            UnionPlan pkPlan = pkScan.plan();
            assertThat(logPlan.snapshot()).isPresent();
            assertThat(pkPlan.snapshot()).isPresent();
            List<BucketUnionReader> logReaders = new ArrayList<>();
            logPlan.buckets().forEach(b -> logReaders.add(logScan.open(b)));
            List<BucketUnionReader> pkReaders = new ArrayList<>();
            pkPlan.buckets().forEach(b -> pkReaders.add(pkScan.open(b)));
            long stopAt = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < stopAt) {
                drain(logReaders, logRows, null);
                drain(pkReaders, null, pkState);
                LockSupport.parkNanos(50_000_000L);
            }
            writers.stop.set(true);
            t.join();
            assertThat(writers.failure).isNull();
            Map<Integer, Long> logEnds = conn.logScanner(log).endOffsets();
            Map<Integer, Long> pkEnds = conn.logScanner(pk).endOffsets();
            await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> {
                                drain(logReaders, logRows, null);
                                drain(pkReaders, null, pkState);
                                return caughtUp(logReaders, logEnds) && caughtUp(pkReaders, pkEnds);
                            });
            for (BucketUnionReader r : logReaders) {
                assertThat(r.finished()).isFalse();
                r.close();
            }
            pkReaders.forEach(BucketUnionReader::close);
            List<Row> expected = new ArrayList<>();
            logEnds.forEach((b, end) -> expected.addAll(writers.logRows(b, end)));
            SameRows.assertSameElements(logRows, expected, "every log record once (seed %d)", seed);
            assertThat(pkState.values())
                    .as("the changelog applied to the snapshot is the KV state (seed %d)", seed)
                    .containsExactlyInAnyOrderElementsOf(pkState(pk, pkEnds));
        }
    }

    @Test
    void t40_storeRecordsDeletedByRetentionAreServedByTheLake() throws Exception {
        String format = format();
        start(format, RETENTION);
        TablePath log = create("events", LOG, 2, Map.of("table.log.retention-size", "1kb")).path();
        TablePath pk = create("users", PK, 2, Map.of("table.log.retention-size", "1kb")).path();
        Writers writers = new Writers(log, pk);
        Thread t = new Thread(writers, "writers");
        t.start();
        int moves = 0;
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(8).toNanos();
            while (System.nanoTime() < deadline) {
                Read logRead = batch(log, null, null);
                List<Row> expected = new ArrayList<>();
                for (BucketReadState b : logRead.plan().buckets()) {
                    expected.addAll(writers.logRows(b.bucket(), b.storeTo()));
                }
                SameRows.assertSameElements(
                        logRead.rows(), expected, "log table under retention (seed %d)", seed);
                moves += logRead.retentionMoves();
            }
        } finally {
            writers.stop.set(true);
            t.join();
        }
        assertThat(writers.failure).isNull();
        Map<Integer, Long> starts = conn.logScanner(log).startOffsets();
        assertThat(starts.values()).as("retention deleted tiered log records").anyMatch(o -> o > 0);
        // quiescent: the PK table's union read is the state the server looks up
        await().atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                conn.logScanner(pk).startOffsets().values().stream()
                                        .anyMatch(o -> o > 0));
        Read pkRead = batch(pk, null, null);
        List<Row> keys = new ArrayList<>();
        for (int k = 0; k < 500; k++) {
            keys.add(Row.of(k));
        }
        List<Row> live = new ArrayList<>();
        conn.lookuper(pk).lookupAll(keys).forEach(o -> o.ifPresent(live::add));
        assertThat(pkRead.rows()).containsExactlyInAnyOrderElementsOf(live);
        System.out.printf(
                "%s: log start offsets %s, moves to a newer snapshot during reads: %d%n",
                format, starts, moves);
    }

    @Test
    void t40_aReadWhoseStoreRecordsRetentionDeletedMovesToTheNewerSnapshotExactly()
            throws Exception {
        String format = format();
        start(format, RETENTION);
        TablePath log = create("events", LOG, 2, Map.of("table.log.retention-size", "1kb")).path();
        Writers writers = new Writers(log, create("unused", PK, 1, Map.of()).path());
        writers.backlog(2_000);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> conn.admin().tieringStatus(log).lagRecords().orElse(1) == 0);
        // hold tiering so the plan has a store tail
        conn.admin()
                .alterTable(
                        log,
                        dev.tributary.client.admin.TableAlteration.create()
                                .setProperty("table.datalake.freshness", "1h"));
        writers.backlog(500);
        try (UnionScan scan = UnionScan.builder(conn, log).lake(lake).build()) {
            UnionPlan plan = scan.plan();
            assertThat(plan.storeRecords()).as("the plan reads a store tail").isPositive();
            // the tail gets tiered, more is written and tiered, retention deletes it from the store
            conn.admin()
                    .alterTable(
                            log,
                            dev.tributary.client.admin.TableAlteration.create()
                                    .setProperty("table.datalake.freshness", "1s"));
            writers.backlog(2_000);
            await().atMost(Duration.ofSeconds(60))
                    .until(
                            () -> {
                                Map<Integer, Long> starts = conn.logScanner(log).startOffsets();
                                return conn.admin().tieringStatus(log).lagRecords().orElse(1) == 0
                                        && plan.buckets().stream()
                                                .allMatch(
                                                        b ->
                                                                starts.getOrDefault(b.bucket(), 0L)
                                                                        > b.storeFrom());
                            });
            List<Row> rows = new ArrayList<>();
            int moves = 0;
            List<Row> expected = new ArrayList<>();
            for (BucketReadState b : plan.buckets()) {
                try (BucketUnionReader r = scan.open(b)) {
                    while (r.next()) {
                        rows.add(r.row());
                    }
                    assertThat(r.finished()).isTrue();
                    moves += r.retentionMoves();
                }
                expected.addAll(writers.logRows(b.bucket(), b.storeTo()));
            }
            assertThat(moves)
                    .as("every bucket with a store tail moved to the newer snapshot")
                    .isEqualTo(
                            (int)
                                    plan.buckets().stream()
                                            .filter(b -> b.storeTo() > b.storeFrom())
                                            .count());
            SameRows.assertSameElements(
                    rows, expected, "exactly the planned records, once (seed %d)", seed);
        }
    }

    @Test
    void t40_aTableNeverTieredOrNotLakeEnabledReadsTheStoreAlone() throws Exception {
        String format = format();
        start(format, Map.of());
        TablePath plain =
                conn.admin()
                        .createTable(
                                TablePath.of(db, "plain"),
                                TableDescriptor.builder(LOG).bucketCount(2).build(),
                                false)
                        .path();
        TablePath fresh = create("fresh", LOG, 2, Map.of("table.datalake.freshness", "1h")).path();
        Writers writers = new Writers(plain, create("unused", PK, 1, Map.of()).path());
        try (AppendWriter a = conn.appendWriter(plain);
                AppendWriter b = conn.appendWriter(fresh)) {
            for (long i = 0; i < 500; i++) {
                a.append(Row.of(i, "x", (int) i));
                b.append(Row.of(i, "y", (int) i));
            }
            a.flush();
            b.flush();
        }
        for (TablePath p : List.of(plain, fresh)) {
            Read r = batch(p, null, null);
            assertThat(r.plan().snapshot()).isEmpty();
            assertThat(r.rows()).hasSize(500);
            assertThat(r.rows().stream().map(x -> x.getLong(0)).distinct().count()).isEqualTo(500);
        }
        assertThat(writers.failure).isNull();
    }

    private static void drain(
            List<BucketUnionReader> readers, List<Row> rows, Map<Row, Row> state) {
        for (BucketUnionReader r : readers) {
            while (r.next()) {
                if (rows != null) {
                    assertThat(r.changeType()).isEqualTo(ChangeType.INSERT);
                    rows.add(r.row());
                } else {
                    Row key = Row.of(r.row().getField(0));
                    switch (r.changeType()) {
                        case INSERT, UPDATE_AFTER ->
                                assertThat(state.put(key, r.row()))
                                        .as(
                                                "an insert or update-after of a key the state does not hold")
                                        .isNull();
                        case UPDATE_BEFORE, DELETE ->
                                assertThat(state.remove(key))
                                        .as("a retraction retracts the row the state holds")
                                        .isEqualTo(r.row());
                        default -> throw new AssertionError(r.changeType());
                    }
                }
            }
        }
    }

    private static boolean caughtUp(List<BucketUnionReader> readers, Map<Integer, Long> ends) {
        for (BucketUnionReader r : readers) {
            BucketReadState s = r.state();
            if (s.phase() != BucketReadState.Phase.STORE
                    || s.position() < ends.getOrDefault(s.bucket(), 0L)) {
                return false;
            }
        }
        return true;
    }

    private void printRounds(TablePath... paths) {
        for (TablePath p : paths) {
            TableTieringStatus s = conn.admin().tieringStatus(p);
            long forced =
                    s.recentRounds().stream()
                            .filter(TableTieringStatus.Round::forceFinished)
                            .count();
            System.out.printf(
                    "%s: %d recent rounds, %d force-finished%n",
                    p, s.recentRounds().size(), forced);
        }
    }

    private static final Schema PARTITIONED_LOG =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("region", DataTypes.STRING())
                    .column("amount", DataTypes.INT())
                    .build();
    private static final Schema PARTITIONED_PK =
            Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("dt", DataTypes.DATE())
                    .column("score", DataTypes.BIGINT())
                    .primaryKey("id", "dt")
                    .build();

    private TableInfo createPartitioned(String name, Schema schema, String partitionKey) {
        return conn.admin()
                .createTable(
                        TablePath.of(db, name),
                        TableDescriptor.builder(schema)
                                .partitionKeys(partitionKey)
                                .bucketCount(2)
                                .bucketKeys("id")
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", "1s")
                                .build(),
                        false);
    }

    /** Waits until the lake's latest tiering snapshot holds every record the store has. */
    private void awaitTiered(TableInfo t) {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> {
                            Map<dev.tributary.common.id.PartitionBucket, Long> ends =
                                    new HashMap<>(conn.logScanner(t.path()).partitionEndOffsets());
                            ends.values().removeIf(o -> o == 0);
                            if (!lake.catalog().tableExists(t.path())) {
                                return false;
                            }
                            try (dev.tributary.lake.api.read.LakeReader r =
                                    lake.createReader(t.path())) {
                                return r.latestTieringSnapshot(t.tableId())
                                        .map(
                                                s ->
                                                        s.properties()
                                                                .offsets()
                                                                .entrySet()
                                                                .containsAll(ends.entrySet()))
                                        .orElse(false);
                            }
                        });
    }

    private void holdTiering(TablePath path) {
        conn.admin()
                .alterTable(
                        path,
                        dev.tributary.client.admin.TableAlteration.create()
                                .setProperty("table.datalake.freshness", "1h"));
    }

    @Test
    void t40_t32_t34_partitionedTablesReadEveryPartitionsLakeRowsAndStoreTailOnce()
            throws Exception {
        String format = format();
        start(format, Map.of());
        TableInfo log = createPartitioned("clicks", PARTITIONED_LOG, "region");
        TableInfo pk = createPartitioned("accounts", PARTITIONED_PK, "dt");
        List<Row> logRows = new ArrayList<>();
        Map<Row, Row> pkState = new HashMap<>();
        java.time.LocalDate d1 = java.time.LocalDate.of(2026, 12, 1);
        java.time.LocalDate d2 = java.time.LocalDate.of(2026, 12, 2);
        java.time.LocalDate d3 = java.time.LocalDate.of(2026, 12, 3);
        long nextId = 0;
        // round(s) 1: three regions, two days; the same id in two days is two keys
        try (AppendWriter a = conn.appendWriter(log.path());
                UpsertWriter u = conn.upsertWriter(pk.path())) {
            for (int i = 0; i < 300; i++) {
                Row row = Row.of(nextId++, List.of("eu", "us", "apac").get(i % 3), i);
                a.append(row);
                logRows.add(row);
            }
            for (int k = 0; k < 40; k++) {
                for (java.time.LocalDate d : List.of(d1, d2)) {
                    Row row = Row.of(k, d, (long) k * 10);
                    u.upsert(row);
                    pkState.put(Row.of(k, d), row);
                }
            }
            a.flush();
            u.flush();
        }
        awaitTiered(log);
        awaitTiered(pk);
        holdTiering(log.path());
        holdTiering(pk.path());
        // the store's tail: more rows in old partitions (T34) and a new one only the store has;
        // updates and deletes of keys the lake holds, new keys, a new day
        try (AppendWriter a = conn.appendWriter(log.path());
                UpsertWriter u = conn.upsertWriter(pk.path())) {
            for (int i = 0; i < 200; i++) {
                Row row = Row.of(nextId++, List.of("eu", "us", "latam", "eu").get(i % 4), i);
                a.append(row);
                logRows.add(row);
            }
            for (int k = 0; k < 40; k += 2) {
                Row updated = Row.of(k, d1, (long) k * 10 + 1);
                u.upsert(updated);
                pkState.put(Row.of(k, d1), updated);
                Row deleted = Row.of(k + 1, d2, (long) (k + 1) * 10);
                u.delete(deleted);
                pkState.remove(Row.of(k + 1, d2));
                Row fresh = Row.of(k, d3, 7L);
                u.upsert(fresh);
                pkState.put(Row.of(k, d3), fresh);
            }
            // a key inserted and deleted within the tail, and one re-inserted after a delete
            u.upsert(Row.of(100, d1, 1L));
            u.delete(Row.of(100, d1, 1L));
            u.delete(Row.of(3, d1, 30L));
            u.upsert(Row.of(3, d1, 33L));
            pkState.put(Row.of(3, d1), Row.of(3, d1, 33L));
            a.flush();
            u.flush();
        }

        Read logRead = batch(log.path(), null, null);
        assertThat(logRead.plan().buckets())
                .as("one bucket read per (partition, bucket)")
                .hasSize(4 * 2)
                .allSatisfy(b -> assertThat(b.isPartitioned()).isTrue());
        assertThat(logRead.plan().lakeRecords()).as("tiered part").isEqualTo(300);
        assertThat(logRead.plan().storeRecords()).as("store tail").isEqualTo(200);
        assertThat(
                        logRead.plan().buckets().stream()
                                .filter(b -> b.partition().equals("region=latam")))
                .as("a partition created after the lake snapshot is read from the store alone")
                .allSatisfy(b -> assertThat(b.snapshotId()).isEqualTo(-1));
        assertThat(logRead.lakeRows()).isEqualTo(300);
        assertThat(logRead.rows())
                .as("every log record once (%s, seed %d)", format, seed)
                .containsExactlyInAnyOrderElementsOf(logRows);

        Read pkRead = batch(pk.path(), null, null);
        assertThat(pkRead.plan().buckets()).hasSize(3 * 2);
        assertThat(pkRead.plan().lakeRecords()).isPositive();
        assertThat(pkRead.plan().storeRecords()).isPositive();
        assertThat(pkRead.rows())
                .as("the latest row of every key (%s, seed %d)", format, seed)
                .containsExactlyInAnyOrderElementsOf(pkState.values());

        // a filter on the partition column plans only its partition; the rest still filters
        Read eu =
                batch(
                        log.path(),
                        LakePredicate.and(
                                LakePredicate.equal("region", "eu"),
                                LakePredicate.compare("amount", LakePredicate.Op.LT, 150)),
                        List.of("id", "amount"));
        assertThat(eu.plan().buckets())
                .hasSize(2)
                .allSatisfy(b -> assertThat(b.partition()).isEqualTo("region=eu"));
        assertThat(eu.rows())
                .containsExactlyInAnyOrderElementsOf(
                        logRows.stream()
                                .filter(r -> r.getString(1).equals("eu") && r.getInt(2) < 150)
                                .map(r -> Row.of(r.getField(0), r.getField(2)))
                                .toList());
        Read day3 = batch(pk.path(), LakePredicate.equal("dt", d3), null);
        assertThat(day3.plan().buckets()).hasSize(2);
        assertThat(day3.rows())
                .containsExactlyInAnyOrderElementsOf(
                        pkState.values().stream().filter(r -> d3.equals(r.getField(1))).toList());
    }

    @Test
    void t40_t32_t33_aStreamingReadOfAPartitionEndsWhenThePartitionIsDropped() throws Exception {
        String format = format();
        // the server removes a tiered dropping partition on its partition check
        start(format, Map.of("server.auto-partition.check-interval", "200ms"));
        TableInfo log = createPartitioned("clicks", PARTITIONED_LOG, "region");
        try (AppendWriter a = conn.appendWriter(log.path())) {
            for (long i = 0; i < 20; i++) {
                a.append(Row.of(i, i % 2 == 0 ? "eu" : "us", (int) i));
            }
            a.flush();
        }
        try (UnionScan scan =
                UnionScan.builder(conn, log.path())
                        .lake(lake)
                        .mode(UnionReadMode.STREAMING)
                        .build()) {
            List<BucketUnionReader> readers = new ArrayList<>();
            scan.plan().buckets().forEach(b -> readers.add(scan.open(b)));
            assertThat(readers).hasSize(4);
            List<Row> rows = new ArrayList<>();
            drain(readers, rows, null);
            assertThat(rows).hasSize(20);
            // T33: a lake table's partition goes once it is tiered to its end
            conn.admin()
                    .dropPartition(
                            log.path(),
                            dev.tributary.common.id.PartitionSpec.parse("region=eu"),
                            false,
                            false);
            await().atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    conn.admin().listPartitions(log.path()).stream()
                                            .noneMatch(p -> p.name().equals("region=eu")));
            drain(readers, rows, null);
            for (BucketUnionReader r : readers) {
                assertThat(r.finished())
                        .as("bucket %s", r.state().describe())
                        .isEqualTo(r.state().partition().equals("region=eu"));
                r.close();
            }
            assertThat(rows).hasSize(20);
        }
    }
}

package dev.tributary.bench.tiering;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.Admin;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.service.GatewayTieringService;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToIntFunction;

/**
 * End-to-end tiering throughput (issue 6): a real server (store + coordinator, loopback gRPC) holds
 * the data, the tiering job runs on an embedded Flink MiniCluster ({@link EmbeddedTiering}) and
 * reads through the client's tiering gateway, the lake is a local Paimon or Iceberg warehouse.
 * Measures the time from job start until the lake's latest tiering snapshot records every bucket's
 * end offset (and the round alone, as the coordinator saw it), for (a) a log table and (b) a PK
 * table whose first round is read from KV snapshots. The baselines, measured in the same JVM before
 * the server starts, are single-thread {@link LakeWriter} writes of the same rows plus the commit:
 * the per-thread physical limit. An unreported warm-up job runs before the measured ones. Prints
 * rows/s, MB/s of raw (RowCodec) bytes, ratios, CPU seconds by thread group, GC and JIT time.
 *
 * <p>After the PK table's first round come {@code --update-rounds} incremental rounds, each
 * upserting 10% of the keys (read from the changelog). Each phase prints the heap and resident
 * peaks ({@link PeakMemory}).
 *
 * <p>Usage: {@code TieringThroughputBench [--log-rows 5000000] [--pk-keys 1000000] [--parallelism
 * 2] [--format paimon|iceberg] [--only log|pk] [--warmup-rows 200000] [--update-rounds 3] [--seed
 * 42] [--dir DIR]}.
 */
public final class TieringThroughputBench {
    static final Clock CLOCK = Clock.system();
    static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final List<Column> COLUMNS =
            List.of(
                    new Column("id", DataTypes.BIGINT(), null),
                    new Column("user_name", DataTypes.STRING(), null),
                    new Column("url", DataTypes.STRING(), null),
                    new Column("amount", DataTypes.INT(), null));
    private static final Schema LOG = Schema.of(COLUMNS, List.of());
    static final Schema PK = Schema.of(COLUMNS, List.of("id"));
    private static final int BUCKETS = 16;

    private TieringThroughputBench() {}

    /** One measured phase: rows, raw bytes (RowCodec form), wall and process CPU seconds. */
    record Rate(long rows, long bytes, double secs, double cpuSecs) {
        double rowsPerSec() {
            return rows / secs;
        }

        double mbPerSec() {
            return bytes / 1e6 / secs;
        }
    }

    /**
     * A measured tiering job: from job start (MiniCluster start-up included) until the lake holds
     * every row, and the round alone as the coordinator saw it (from the plan to the commit).
     */
    record Tiered(Rate endToEnd, Rate round, double readerCpuSecs) {}

    public static void main(String[] args) throws Exception {
        long logRows = 5_000_000L;
        long pkKeys = 1_000_000L;
        int parallelism = 2;
        String format = "paimon";
        String only = "";
        long seed = 42;
        long warmupRows = 1_000_000L;
        int updateRounds = 3;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--log-rows" -> logRows = Long.parseLong(args[++i]);
                case "--pk-keys" -> pkKeys = Long.parseLong(args[++i]);
                case "--parallelism" -> parallelism = Integer.parseInt(args[++i]);
                case "--format" -> format = args[++i];
                case "--only" -> only = args[++i];
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--warmup-rows" -> warmupRows = Long.parseLong(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--update-rounds" -> updateRounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (only.equals("pk")) {
            logRows = 0;
        } else if (only.equals("log")) {
            pkKeys = 0;
        }
        if (dir == null) {
            dir = Files.createTempDirectory("tiering-bench");
        }
        System.out.printf(
                "tiering bench: format %s, log rows %,d, pk keys %,d, parallelism %d, %d buckets,"
                        + " seed %d, dir %s, cpus %d, load average %.2f%n",
                format,
                logRows,
                pkKeys,
                parallelism,
                BUCKETS,
                seed,
                dir,
                Runtime.getRuntime().availableProcessors(),
                OS.getSystemLoadAverage());

        // a first, unreported pass warms the JIT so the baseline is not flattered against later,
        // warm end-to-end runs
        rawLakeWrite(format, dir.resolve("warmup"), LOG, 300_000L, seed + 7, 1);
        Rate rawLog =
                logRows == 0
                        ? null
                        : bestRawLakeWrite(
                                format,
                                dir.resolve("raw"),
                                LOG,
                                Math.min(logRows, 1_000_000L),
                                seed,
                                1);
        Rate rawPk =
                pkKeys == 0
                        ? null
                        : bestRawLakeWrite(
                                format,
                                dir.resolve("raw-pk"),
                                PK,
                                Math.min(pkKeys, 500_000L),
                                seed,
                                1);
        Rate rawPkSplits =
                pkKeys == 0
                        ? null
                        : rawLakeWrite(
                                format,
                                dir.resolve("raw-pk-splits"),
                                PK,
                                Math.min(pkKeys, 500_000L),
                                seed,
                                BUCKETS);

        Path warehouse = dir.resolve("server").resolve("lake");
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("server").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("kv.snapshot.interval", "3s");
        // snapshots are taken by the maintenance pass (default every 10 s); a short pass makes a
        // snapshot covering the whole load come within ~4 s, see awaitSnapshots
        conf.setString("server.maintenance.interval", "1s");
        conf.setString("datalake.format", format);
        conf.setString("datalake." + format + ".warehouse", warehouse.toUri().toString());
        Configuration lakeConf =
                new Configuration()
                        .setString("datalake.format", format)
                        .setString(
                                "datalake." + format + ".warehouse", warehouse.toUri().toString());
        // no server extension: the bench creates the lake tables and starts the job itself
        try (TributaryServer server = TributaryServer.start(conf, CLOCK, List.of());
                Connection conn = Connection.open(server.rpcTarget());
                LakeStorage lake = LakeStoragePlugins.open(lakeConf)) {
            conn.admin().createDatabase("bench", true);
            TieringGateway gateway = conn.tieringGateway();
            if (warmupRows > 0) {
                warmUp(server, conn, lake, lakeConf, parallelism, gateway, seed, warmupRows);
            }
            Tiered logRound = null;
            if (logRows > 0) {
                TableInfo log = create(conn, lake, "events", LOG, "logbench");
                long t = CLOCK.nanoTime();
                long logBytes = load(conn, log.path(), logRows, seed, false);
                System.out.printf(
                        "loaded log table: %,d rows, %.1f MB raw in %.1f s%n",
                        logRows, logBytes / 1e6, (CLOCK.nanoTime() - t) / 1e9);
                slowDown(conn, log);
                Tiered e2e =
                        tier(
                                server,
                                lake,
                                lakeConf,
                                parallelism,
                                log,
                                "logbench",
                                gateway,
                                conn.admin(),
                                seed,
                                logRows,
                                logBytes);
                report("log", e2e, parallelism, rawLog);
                logRound = e2e;
            }
            if (pkKeys > 0) {
                TableInfo pk = create(conn, lake, "customers", PK, "pkbench");
                long t = CLOCK.nanoTime();
                long pkBytes = load(conn, pk.path(), pkKeys, seed + 1, true);
                System.out.printf(
                        "loaded PK table: %,d keys, %.1f MB raw in %.1f s%n",
                        pkKeys, pkBytes / 1e6, (CLOCK.nanoTime() - t) / 1e9);
                slowDown(conn, pk);
                awaitSnapshots(gateway, pk);
                Tiered e2e =
                        tier(
                                server,
                                lake,
                                lakeConf,
                                parallelism,
                                pk,
                                "pkbench",
                                gateway,
                                conn.admin(),
                                seed,
                                pkKeys,
                                pkBytes);
                report("PK (first round, from KV snapshots)", e2e, parallelism, rawPk);
                report(
                        "PK (first round), round only vs the split-shaped raw write",
                        e2e.round(),
                        parallelism,
                        rawPkSplits);
                if (logRound != null) {
                    System.out.printf(
                            "PK first round / log round, rows/s (T54 target >= 80%%): end to end"
                                    + " %.0f%%, round only %.0f%%; CPU-s per million rows %.2f vs"
                                    + " %.2f%n",
                            100 * e2e.endToEnd().rowsPerSec() / logRound.endToEnd().rowsPerSec(),
                            100 * e2e.round().rowsPerSec() / logRound.round().rowsPerSec(),
                            e2e.endToEnd().cpuSecs() / (e2e.endToEnd().rows() / 1e6),
                            logRound.endToEnd().cpuSecs() / (logRound.endToEnd().rows() / 1e6));
                }
                IncrementalPkRounds.run(
                        server,
                        conn,
                        lake,
                        lakeConf,
                        parallelism,
                        pk,
                        pkKeys,
                        updateRounds,
                        seed,
                        logRound);
            }
        }
        System.out.printf(
                "load average at the end %.2f; the machine is shared and noisy: treat the figures"
                        + " as rough%n",
                OS.getSystemLoadAverage());
    }

    /**
     * An unreported first job tiering a small log and a small PK table, so the measured jobs run
     * with warm JIT-compiled read, gRPC, Flink and lake-writer paths, like the warmed raw baseline.
     */
    private static void warmUp(
            TributaryServer server,
            Connection conn,
            LakeStorage lake,
            Configuration lakeConf,
            int parallelism,
            TieringGateway gateway,
            long seed,
            long rows)
            throws Exception {
        long t = CLOCK.nanoTime();
        TableInfo log = create(conn, lake, "warmup_events", LOG, "warmup");
        TableInfo pk = create(conn, lake, "warmup_customers", PK, "warmup");
        load(conn, log.path(), rows, seed + 11, false);
        load(conn, pk.path(), rows / 4, seed + 12, true);
        slowDown(conn, log);
        slowDown(conn, pk);
        awaitSnapshots(gateway, pk);
        Configuration conf = new Configuration(lakeConf.toMap());
        conf.setString("tiering.embedded.parallelism", Integer.toString(parallelism));
        conf.setString("tiering.job.group", "warmup");
        try (EmbeddedTiering job =
                EmbeddedTiering.start(
                        GatewayTieringService.factory(server.rpcTarget(), null, Map.of()), conf)) {
            while (!coordinatorCaughtUp(conn.admin(), log.path())
                    || !coordinatorCaughtUp(conn.admin(), pk.path())) {
                LockSupport.parkNanos(50_000_000L);
            }
        }
        System.out.printf(
                "warm-up job (%,d log rows, %,d PK keys, not reported) took %.1f s%n",
                rows, rows / 4, (CLOCK.nanoTime() - t) / 1e9);
    }

    /**
     * A short freshness makes the new table pending soon (T11); it is raised before the job starts
     * (see {@link #slowDown}) so the round ceiling (T13) does not cut the measured round. Each
     * table has its own tiering group, so each measured job tiers only its table.
     */
    private static TableInfo create(
            Connection conn, LakeStorage lake, String name, Schema schema, String group) {
        TableDescriptor d =
                TableDescriptor.builder(schema)
                        .bucketCount(BUCKETS)
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "1s")
                        .property("table.datalake.tiering.group", group)
                        .build();
        TableInfo info = conn.admin().createTable(TablePath.of("bench", name), d, false);
        lake.catalog().createTable(info.path(), info.descriptor());
        return info;
    }

    static void slowDown(Connection conn, TableInfo table) {
        conn.admin()
                .alterTable(
                        table.path(),
                        TableAlteration.create().setProperty("table.datalake.freshness", "30min"));
    }

    /**
     * Waits (bounded) until every bucket's KV snapshot covers the whole load, so the measured round
     * reads everything from snapshots. A snapshot is consistent at the bucket's end offset when it
     * is taken, and the server's maintenance pass (every second here) takes one per bucket changed
     * since its last snapshot once that is {@code kv.snapshot.interval} (3 s) old; so a bucket is
     * covered once its snapshot id changed after the load ended, or, if it did not change within 9
     * s, its newest snapshot already covered the end. (A stale snapshot would leave the rest of the
     * load to a second round, 30 minutes later.)
     */
    private static void awaitSnapshots(TieringGateway gateway, TableInfo pk) {
        Map<Integer, Long> atLoadEnd = gateway.latestSnapshots(pk.tableId());
        long start = CLOCK.nanoTime();
        long quietAfter = start + 9_000_000_000L;
        long giveUp = start + 60_000_000_000L;
        while (true) {
            Map<Integer, Long> now = gateway.latestSnapshots(pk.tableId());
            long changed =
                    now.entrySet().stream()
                            .filter(e -> !e.getValue().equals(atLoadEnd.get(e.getKey())))
                            .count();
            long t = CLOCK.nanoTime();
            if (changed == BUCKETS || (now.size() == BUCKETS && t > quietAfter) || t > giveUp) {
                System.out.printf(
                        "PK buckets with a KV snapshot: %d of %d (%d taken after the load) after"
                                + " %.1f s%n",
                        now.size(), BUCKETS, changed, (t - start) / 1e9);
                return;
            }
            LockSupport.parkNanos(250_000_000L);
        }
    }

    /** ~90 bytes in RowCodec form: id, a 5-21 char name, a ~53 char URL, an int. */
    static Row row(Random r, long id) {
        return Row.of(
                id,
                "user-" + Long.toHexString(r.nextLong()),
                "https://shop.example.com/p/" + Long.toHexString(r.nextLong()) + "?ref=bench",
                r.nextInt(100_000));
    }

    /** Loads the table through the client; returns the raw (RowCodec) bytes written. */
    private static long load(Connection conn, TablePath path, long rows, long seed, boolean pk)
            throws Exception {
        Random r = new Random(seed);
        RowCodec codec = RowCodec.of(pk ? PK : LOG);
        long bytes = 0;
        List<CompletableFuture<?>> acks = new ArrayList<>();
        try (AppendWriter aw = pk ? null : conn.appendWriter(path);
                UpsertWriter uw = pk ? conn.upsertWriter(path) : null) {
            for (long i = 0; i < rows; i++) {
                Row row = row(r, i);
                bytes += codec.encode(row).length;
                acks.add(pk ? uw.upsert(row) : aw.append(row));
                if (acks.size() == 50_000) {
                    CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                    acks.clear();
                }
            }
            if (pk) {
                uw.flush();
            } else {
                aw.flush();
            }
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
        return bytes;
    }

    /** Runs the job until the lake's committed offsets reach every bucket's end. */
    private static Tiered tier(
            TributaryServer server,
            LakeStorage lake,
            Configuration lakeConf,
            int parallelism,
            TableInfo table,
            String group,
            TieringGateway gateway,
            Admin admin,
            long seed,
            long rows,
            long bytes)
            throws Exception {
        Map<Integer, Long> ends = gateway.endOffsets(table.tableId());
        Configuration conf = new Configuration(lakeConf.toMap());
        conf.setString("tiering.embedded.parallelism", Integer.toString(parallelism));
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        conf.setString("tiering.job.group", group);
        Map<Long, Long> threadCpu = JobCpu.threadCpu();
        long cpu = OS.getProcessCpuTime();
        long start = CLOCK.nanoTime();
        long startMillis = CLOCK.currentTimeMillis();
        long gcCount = JobCpu.gcCount();
        long gcMillis = JobCpu.gcMillis();
        long jitMillis = JobCpu.jitMillis();
        PeakMemory.reset();
        System.out.printf("job start at %s%n", Instant.ofEpochMilli(startMillis));
        try (EmbeddedTiering job =
                EmbeddedTiering.start(
                        GatewayTieringService.factory(server.rpcTarget(), null, Map.of()), conf)) {
            // the coordinator records a round's offsets only after its lake commit, so polling it
            // is as exact as polling the lake, and far cheaper (the lake check loads the table)
            long giveUp = start + giveUpNanos(rows);
            while (!coordinatorCaughtUp(admin, table.path())
                    || !caughtUp(lake, table.path(), ends)) {
                if (CLOCK.nanoTime() > giveUp) {
                    throw new IllegalStateException(
                            "the lake did not catch up in time; coordinator status: "
                                    + admin.tieringStatus(table.path()));
                }
                LockSupport.parkNanos(50_000_000L);
            }
            TableTieringStatus status = admin.tieringStatus(table.path());
            TableTieringStatus.Round round = status.lastRound().orElseThrow();
            System.out.printf(
                    "round %d: %,d rows, %,d bytes, %d lake files; started +%.2f s after job start,"
                            + " took %.2f s, committed +%.2f s; seen by the bench +%.2f s%n",
                    round.roundId(),
                    round.rows(),
                    round.bytes(),
                    round.files(),
                    (round.startedAtMillis() - startMillis) / 1e3,
                    round.durationMillis() / 1e3,
                    (status.lastTieredAtMillis() - startMillis) / 1e3,
                    (CLOCK.currentTimeMillis() - startMillis) / 1e3);
            System.out.printf(
                    "GC: %d collections, %.2f s; JIT compilation %.2f s%n",
                    JobCpu.gcCount() - gcCount,
                    (JobCpu.gcMillis() - gcMillis) / 1e3,
                    (JobCpu.jitMillis() - jitMillis) / 1e3);
            Rate rate =
                    new Rate(
                            rows,
                            bytes,
                            (CLOCK.nanoTime() - start) / 1e9,
                            (OS.getProcessCpuTime() - cpu) / 1e9);
            Map<String, Double> cpuByGroup = JobCpu.cpuByGroup(threadCpu, rate.cpuSecs());
            StringBuilder groups = new StringBuilder();
            cpuByGroup.entrySet().stream()
                    .filter(e -> e.getValue() >= 0.05)
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .forEach(
                            e ->
                                    groups.append(
                                            String.format("%s %.1f, ", e.getKey(), e.getValue())));
            System.out.printf(
                    "caught up at %s; CPU-s by thread group: %s; %s%n",
                    Instant.ofEpochMilli(CLOCK.currentTimeMillis()), groups, PeakMemory.describe());
            return new Tiered(
                    rate,
                    new Rate(rows, bytes, round.durationMillis() / 1e3, 0),
                    cpuByGroup.getOrDefault(JobCpu.READERS, 0.0));
        }
    }

    /** How long a round of {@code rows} may take: 3 minutes, or 20,000 rows/s for large ones. */
    static long giveUpNanos(long rows) {
        return Math.max(180_000_000_000L, rows * 50_000L);
    }

    static boolean coordinatorCaughtUp(Admin admin, TablePath path) {
        TableTieringStatus status = admin.tieringStatus(path);
        return status.lastTieredAtMillis() > 0 && status.lagRecords().orElse(-1) == 0;
    }

    static boolean caughtUp(LakeStorage lake, TablePath path, Map<Integer, Long> ends) {
        try (LakeCommitter c = lake.createCommitter(path)) {
            Map<Integer, Long> committed =
                    c.latestTieringSnapshot()
                            .map(s -> (Map<Integer, Long>) s.properties().bucketOffsets())
                            .orElse(Map.of());
            for (Map.Entry<Integer, Long> e : ends.entrySet()) {
                if (committed.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The best of three single-thread lake writes ({@link #rawLakeWrite}): the baseline is a
     * ceiling, and on a shared machine the best run is the least disturbed one.
     */
    private static Rate bestRawLakeWrite(
            String format, Path dir, Schema schema, long rows, long seed, int splits) {
        Rate best = null;
        for (int i = 0; i < 3; i++) {
            Rate r = rawLakeWrite(format, dir.resolve("run" + i), schema, rows, seed, splits);
            if (best == null || r.secs() < best.secs()) {
                best = r;
            }
        }
        System.out.printf(
                "  best of 3: %,.0f rows/s, %.1f MB/s raw%n", best.rowsPerSec(), best.mbPerSec());
        return best;
    }

    /**
     * Single-thread lake write of the same kind of rows through the plugin (PK rows as inserts of
     * new keys), plus its commit. Rows are encoded up front and handed over as {@link EncodedRow}
     * views, as the tiering job does. {@code splits == 1}: one writer into a one-bucket table, the
     * plain format limit. {@code splits > 1}: shaped like a tiering round, one writer after the
     * other into a table of {@code splits} buckets placed by the lake format's own bucket function
     * (as the server creates lake-enabled tables), each writer getting the rows of its bucket.
     */
    private static Rate rawLakeWrite(
            String format, Path dir, Schema schema, long rows, long seed, int splits) {
        Configuration conf =
                new Configuration()
                        .setString("datalake.format", format)
                        .setString("datalake." + format + ".warehouse", dir.toUri().toString());
        TablePath path = TablePath.of("raw", schema.hasPrimaryKey() ? "pk" : "events");
        BucketFunctionType function = BucketFunctionType.forLakeFormat(format);
        TableDescriptor d =
                TableDescriptor.builder(schema)
                        .bucketCount(splits)
                        .property(TableOptions.BUCKET_FUNCTION.key(), function.value())
                        .build();
        ToIntFunction<Row> bucketOf = splits == 1 ? row -> 0 : BucketFunction.of(d)::bucketOf;
        RowCodec codec = RowCodec.of(schema);
        EncodedRow view = codec.view();
        try (LakeStorage lake = LakeStoragePlugins.open(conf)) {
            lake.catalog().createTable(path, d);
            Random r = new Random(seed);
            List<List<byte[]>> data = new ArrayList<>();
            for (int split = 0; split < splits; split++) {
                data.add(new ArrayList<>());
            }
            long bytes = 0;
            for (long i = 0; i < rows; i++) {
                Row row = row(r, i);
                byte[] encoded = codec.encode(row);
                bytes += encoded.length;
                data.get(bucketOf.applyAsInt(row)).add(encoded);
            }
            ChangeType type = schema.hasPrimaryKey() ? ChangeType.INSERT : ChangeType.APPEND_ONLY;
            long cpu = OS.getProcessCpuTime();
            long start = CLOCK.nanoTime();
            List<LakeWriteResult> results = new ArrayList<>();
            Map<Integer, Long> offsets = new TreeMap<>();
            for (int split = 0; split < splits; split++) {
                List<byte[]> rowsOfSplit = data.get(split);
                // PK rows are a first round's: a whole KV snapshot, each key once (T54)
                LakeWriterContext context =
                        new LakeWriterContext(
                                path,
                                1,
                                d,
                                split,
                                1,
                                1,
                                TableBucket.NO_PARTITION,
                                null,
                                schema.hasPrimaryKey()
                                        ? LakeWriterContext.SplitSource.KV_SNAPSHOT
                                        : LakeWriterContext.SplitSource.LOG);
                try (LakeWriter w = lake.createWriter(context)) {
                    for (int i = 0; i < rowsOfSplit.size(); i++) {
                        byte[] e = rowsOfSplit.get(i);
                        w.write(view.pointTo(e, 0, e.length), type, split, i, 1_000L);
                    }
                    results.add(w.complete());
                }
                offsets.put(split, (long) rowsOfSplit.size());
            }
            try (LakeCommitter c = lake.createCommitter(path)) {
                c.commit(results, TieringSnapshotProperties.of(1, 1, 1, offsets));
            }
            Rate rate =
                    new Rate(
                            rows,
                            bytes,
                            (CLOCK.nanoTime() - start) / 1e9,
                            (OS.getProcessCpuTime() - cpu) / 1e9);
            System.out.printf(
                    "raw %s lake write (1 thread, %s plugin, %s): %,d rows in %.2f s = %,.0f"
                            + " rows/s, %.1f MB/s raw, %.1f CPU-s%n",
                    schema.hasPrimaryKey() ? "PK" : "log",
                    format,
                    splits == 1
                            ? "1 writer, 1 bucket"
                            : splits + " writers one after the other, " + splits + " buckets",
                    rows,
                    rate.secs(),
                    rate.rowsPerSec(),
                    rate.mbPerSec(),
                    rate.cpuSecs());
            return rate;
        }
    }

    private static void report(String what, Tiered tiered, int parallelism, Rate raw) {
        report(what + ", end to end", tiered.endToEnd(), parallelism, raw);
        report(what + ", round only", tiered.round(), parallelism, raw);
        // CPU figures do not depend on how much of the shared machine the run got
        Rate e2e = tiered.endToEnd();
        double million = e2e.rows() / 1e6;
        double rawPerMillion = raw.cpuSecs() / (raw.rows() / 1e6);
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf(
                "%s, CPU: the job used %.2f CPU-s per million rows (readers %.2f), the raw"
                        + " 1-thread write %.2f; readers = %.0f%% of the raw write's rows per"
                        + " CPU-second; the whole process at %d free cores would move ~%.0f MB/s%n",
                what,
                e2e.cpuSecs() / million,
                tiered.readerCpuSecs() / million,
                rawPerMillion,
                100 * rawPerMillion / (tiered.readerCpuSecs() / million),
                cores,
                e2e.bytes() / 1e6 / (e2e.cpuSecs() / cores));
    }

    private static void report(String what, Rate e2e, int parallelism, Rate raw) {
        double perReader = e2e.rowsPerSec() / parallelism;
        System.out.printf(
                "%s: %,d rows in %.2f s = %,.0f rows/s, %.1f MB/s raw (%s load average %.2f);"
                        + " per reader %,.0f rows/s = %.0f%% of the raw 1-thread lake write"
                        + " (%,.0f rows/s, %.1f MB/s); all readers = %.0f%% of %d x raw%n",
                what,
                e2e.rows(),
                e2e.secs(),
                e2e.rowsPerSec(),
                e2e.mbPerSec(),
                e2e.cpuSecs() > 0 ? String.format("%.1f CPU-s,", e2e.cpuSecs()) : "",
                OS.getSystemLoadAverage(),
                perReader,
                100 * perReader / raw.rowsPerSec(),
                raw.rowsPerSec(),
                raw.mbPerSec(),
                100 * e2e.rowsPerSec() / (parallelism * raw.rowsPerSec()),
                parallelism);
    }
}

package dev.tributary.bench.tiering;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * End-to-end tiering throughput (issue 6): a real server (store + coordinator, loopback gRPC) holds
 * the data, the tiering job runs on an embedded Flink MiniCluster ({@link EmbeddedTiering}) and
 * reads through the client's tiering gateway, the lake is a local Paimon or Iceberg warehouse.
 * Measures the time from job start until the lake's latest tiering snapshot records every bucket's
 * end offset, for (a) a log table and (b) a PK table whose first round is read from KV snapshots.
 * The baseline, measured in the same JVM before the server starts, is one {@link LakeWriter} on one
 * thread writing the same rows plus the commit: the per-thread physical limit.
 *
 * <p>Usage: {@code TieringThroughputBench [--log-rows 5000000] [--pk-keys 1000000] [--parallelism
 * 2] [--format paimon|iceberg] [--only log|pk] [--seed 42] [--dir DIR]}.
 */
public final class TieringThroughputBench {
    private static final Clock CLOCK = Clock.system();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final List<Column> COLUMNS =
            List.of(
                    new Column("id", DataTypes.BIGINT(), null),
                    new Column("user_name", DataTypes.STRING(), null),
                    new Column("url", DataTypes.STRING(), null),
                    new Column("amount", DataTypes.INT(), null));
    private static final Schema LOG = Schema.of(COLUMNS, List.of());
    private static final Schema PK = Schema.of(COLUMNS, List.of("id"));
    private static final int BUCKETS = 16;

    private TieringThroughputBench() {}

    /** One measured phase: rows, raw bytes (RowCodec form), wall and process CPU seconds. */
    private record Rate(long rows, long bytes, double secs, double cpuSecs) {
        double rowsPerSec() {
            return rows / secs;
        }

        double mbPerSec() {
            return bytes / 1e6 / secs;
        }
    }

    public static void main(String[] args) throws Exception {
        long logRows = 5_000_000L;
        long pkKeys = 1_000_000L;
        int parallelism = 2;
        String format = "paimon";
        String only = "";
        long seed = 42;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--log-rows" -> logRows = Long.parseLong(args[++i]);
                case "--pk-keys" -> pkKeys = Long.parseLong(args[++i]);
                case "--parallelism" -> parallelism = Integer.parseInt(args[++i]);
                case "--format" -> format = args[++i];
                case "--only" -> only = args[++i];
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
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
        rawLakeWrite(format, dir.resolve("warmup"), LOG, 300_000L, seed + 7);
        Rate rawLog =
                logRows == 0
                        ? null
                        : rawLakeWrite(
                                format,
                                dir.resolve("raw"),
                                LOG,
                                Math.min(logRows, 1_000_000L),
                                seed);
        Rate rawPk =
                pkKeys == 0
                        ? null
                        : rawLakeWrite(
                                format,
                                dir.resolve("raw-pk"),
                                PK,
                                Math.min(pkKeys, 500_000L),
                                seed);

        Path warehouse = dir.resolve("server").resolve("lake");
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("server").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("kv.snapshot.interval", "3s");
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
            if (logRows > 0) {
                TableInfo log = create(conn, lake, "events", LOG, "logbench");
                long t = CLOCK.nanoTime();
                long logBytes = load(conn, log.path(), logRows, seed, false);
                System.out.printf(
                        "loaded log table: %,d rows, %.1f MB raw in %.1f s%n",
                        logRows, logBytes / 1e6, (CLOCK.nanoTime() - t) / 1e9);
                slowDown(conn, log);
                Rate e2e =
                        tier(
                                server,
                                lake,
                                lakeConf,
                                parallelism,
                                log,
                                "logbench",
                                gateway,
                                seed,
                                logRows,
                                logBytes);
                report("log", e2e, parallelism, rawLog);
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
                Rate e2e =
                        tier(
                                server,
                                lake,
                                lakeConf,
                                parallelism,
                                pk,
                                "pkbench",
                                gateway,
                                seed,
                                pkKeys,
                                pkBytes);
                report("PK (first round, from KV snapshots)", e2e, parallelism, rawPk);
            }
        }
        System.out.printf(
                "load average at the end %.2f; the machine is shared and noisy: treat the figures"
                        + " as rough%n",
                OS.getSystemLoadAverage());
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

    private static void slowDown(Connection conn, TableInfo table) {
        conn.admin()
                .alterTable(
                        table.path(),
                        TableAlteration.create().setProperty("table.datalake.freshness", "30min"));
    }

    /** Waits (bounded) for KV snapshots of every bucket, which then cover the whole load. */
    private static void awaitSnapshots(TieringGateway gateway, TableInfo pk) {
        long waitUntil = CLOCK.nanoTime() + 60_000_000_000L;
        LockSupport.parkNanos(4_000_000_000L);
        while (gateway.latestSnapshots(pk.tableId()).size() < BUCKETS
                && CLOCK.nanoTime() < waitUntil) {
            LockSupport.parkNanos(500_000_000L);
        }
        System.out.printf(
                "PK buckets with a KV snapshot: %d of %d%n",
                gateway.latestSnapshots(pk.tableId()).size(), BUCKETS);
    }

    /** ~90 bytes in RowCodec form: id, a 5-21 char name, a ~53 char URL, an int. */
    private static Row row(Random r, long id) {
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
    private static Rate tier(
            TributaryServer server,
            LakeStorage lake,
            Configuration lakeConf,
            int parallelism,
            TableInfo table,
            String group,
            TieringGateway gateway,
            long seed,
            long rows,
            long bytes)
            throws Exception {
        Map<Integer, Long> ends = gateway.endOffsets(table.tableId());
        Configuration conf = new Configuration(lakeConf.toMap());
        conf.setString("tiering.embedded.parallelism", Integer.toString(parallelism));
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        conf.setString("tiering.job.group", group);
        long cpu = OS.getProcessCpuTime();
        long start = CLOCK.nanoTime();
        try (EmbeddedTiering job =
                EmbeddedTiering.start(
                        GatewayTieringService.factory(server.rpcTarget(), null, Map.of()), conf)) {
            while (!caughtUp(lake, table.path(), ends)) {
                LockSupport.parkNanos(100_000_000L);
            }
            return new Rate(
                    rows,
                    bytes,
                    (CLOCK.nanoTime() - start) / 1e9,
                    (OS.getProcessCpuTime() - cpu) / 1e9);
        }
    }

    private static boolean caughtUp(LakeStorage lake, TablePath path, Map<Integer, Long> ends) {
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
     * Single-thread lake write of the same kind of rows through the plugin (one writer, as one
     * split; PK rows as inserts of new keys), plus its commit.
     */
    private static Rate rawLakeWrite(String format, Path dir, Schema schema, long rows, long seed) {
        Configuration conf =
                new Configuration()
                        .setString("datalake.format", format)
                        .setString("datalake." + format + ".warehouse", dir.toUri().toString());
        TablePath path = TablePath.of("raw", schema.hasPrimaryKey() ? "pk" : "events");
        TableDescriptor d = TableDescriptor.builder(schema).bucketCount(1).build();
        RowCodec codec = RowCodec.of(schema);
        try (LakeStorage lake = LakeStoragePlugins.open(conf)) {
            lake.catalog().createTable(path, d);
            Random r = new Random(seed);
            List<Row> data = new ArrayList<>();
            long bytes = 0;
            for (long i = 0; i < rows; i++) {
                Row row = row(r, i);
                bytes += codec.encode(row).length;
                data.add(row);
            }
            long cpu = OS.getProcessCpuTime();
            long start = CLOCK.nanoTime();
            LakeWriteResult result;
            try (LakeWriter w = lake.createWriter(new LakeWriterContext(path, 1, d, 0, 1, 1))) {
                ChangeType type =
                        schema.hasPrimaryKey() ? ChangeType.INSERT : ChangeType.APPEND_ONLY;
                long offset = 0;
                for (Row row : data) {
                    w.write(row, type, 0, offset++, 1_000L);
                }
                result = w.complete();
            }
            try (LakeCommitter c = lake.createCommitter(path)) {
                c.commit(List.of(result), TieringSnapshotProperties.of(1, 1, 1, Map.of(0, rows)));
            }
            Rate rate =
                    new Rate(
                            rows,
                            bytes,
                            (CLOCK.nanoTime() - start) / 1e9,
                            (OS.getProcessCpuTime() - cpu) / 1e9);
            System.out.printf(
                    "raw %s lake write (1 thread, %s plugin): %,d rows in %.2f s = %,.0f rows/s,"
                            + " %.1f MB/s raw, %.1f CPU-s%n",
                    schema.hasPrimaryKey() ? "PK" : "log",
                    format,
                    rows,
                    rate.secs(),
                    rate.rowsPerSec(),
                    rate.mbPerSec(),
                    rate.cpuSecs());
            return rate;
        }
    }

    private static void report(String what, Rate e2e, int parallelism, Rate raw) {
        double perReader = e2e.rowsPerSec() / parallelism;
        System.out.printf(
                "%s: %,d rows tiered end to end in %.2f s = %,.0f rows/s, %.1f MB/s raw"
                        + " (%.1f CPU-s, load average %.2f); per reader %,.0f rows/s = %.0f%% of"
                        + " the raw 1-thread lake write (%,.0f rows/s, %.1f MB/s); end to end ="
                        + " %.0f%% of %d x raw%n",
                what,
                e2e.rows(),
                e2e.secs(),
                e2e.rowsPerSec(),
                e2e.mbPerSec(),
                e2e.cpuSecs(),
                OS.getSystemLoadAverage(),
                perReader,
                100 * perReader / raw.rowsPerSec(),
                raw.rowsPerSec(),
                raw.mbPerSec(),
                100 * e2e.rowsPerSec() / (parallelism * raw.rowsPerSec()),
                parallelism);
    }
}

package dev.tributary.tiering.bench;

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
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.server.EmbeddedTieringExtension;
import dev.tributary.tiering.service.GatewayTieringService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * End-to-end tiering throughput: a real server (loopback gRPC) holds the data, the tiering job runs
 * on an embedded MiniCluster, the lake is a local Paimon warehouse. Measures the time from job
 * start until the lake's committed offsets reach every bucket's end, for (a) a log table and (b) a
 * PK table tiered from KV snapshots, and a raw single-thread Paimon write of the same rows as the
 * baseline. Not a test: run with {@code java -cp <test classpath> ...TieringThroughputBench
 * [logRows] [pkKeys] [parallelism]}.
 */
public final class TieringThroughputBench {
    private static final Schema LOG =
            Schema.of(
                    List.of(
                            new Column("id", DataTypes.BIGINT(), null),
                            new Column("user_name", DataTypes.STRING(), null),
                            new Column("url", DataTypes.STRING(), null),
                            new Column("amount", DataTypes.INT(), null)),
                    List.of());
    private static final Schema PK =
            Schema.of(
                    List.of(
                            new Column("id", DataTypes.BIGINT(), null),
                            new Column("user_name", DataTypes.STRING(), null),
                            new Column("url", DataTypes.STRING(), null),
                            new Column("amount", DataTypes.INT(), null)),
                    List.of("id"));
    private static final int BUCKETS = 16;

    private TieringThroughputBench() {}

    public static void main(String[] args) throws Exception {
        long logRows = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        long pkKeys = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000L;
        int parallelism = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        long seed = 42;
        Path dir = Files.createTempDirectory("tiering-bench");
        System.out.printf(
                "tiering bench: log rows %,d, pk keys %,d, parallelism %d, %d buckets, dir %s%n",
                logRows, pkKeys, parallelism, BUCKETS, dir);

        // a first, unreported pass warms the JIT so the baseline is not flattered against later,
        // warm end-to-end runs
        rawLakeWrite(dir.resolve("warmup"), LOG, Math.min(logRows, 300_000L), seed + 7);
        double rawLog = rawLakeWrite(dir.resolve("raw"), LOG, Math.min(logRows, 500_000L), seed);
        double rawPk = rawLakeWrite(dir.resolve("raw-pk"), PK, Math.min(pkKeys, 500_000L), seed);

        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("server").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("kv.snapshot.interval", "3s");
        conf.setString("tiering.embedded.enabled", "false"); // the bench starts the job itself
        try (TributaryServer server =
                        TributaryServer.start(
                                conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("bench", true);
            // each table in its own tiering group, so each measured job tiers only its table
            TableInfo log = create(conn, "events", LOG, "logbench");
            TableInfo pk = create(conn, "customers", PK, "pkbench");
            long t = System.nanoTime();
            long logBytes = loadLog(conn, log.path(), logRows, seed);
            System.out.printf(
                    "loaded log table: %,d rows, %.1f MB raw in %.1f s%n",
                    logRows, logBytes / 1e6, (System.nanoTime() - t) / 1e9);
            t = System.nanoTime();
            long pkBytes = loadPk(conn, pk.path(), pkKeys, seed);
            System.out.printf(
                    "loaded PK table: %,d keys, %.1f MB raw in %.1f s%n",
                    pkKeys, pkBytes / 1e6, (System.nanoTime() - t) / 1e9);
            for (TableInfo table : List.of(log, pk)) {
                conn.admin()
                        .alterTable(
                                table.path(),
                                TableAlteration.create()
                                        .setProperty("table.datalake.freshness", "30min"));
            }
            TieringGateway gateway = conn.tieringGateway();
            // wait (bounded) for KV snapshots that cover the whole load
            long waitUntil = System.nanoTime() + 60_000_000_000L;
            LockSupport.parkNanos(4_000_000_000L);
            while (gateway.latestSnapshots(pk.tableId()).size() < BUCKETS
                    && System.nanoTime() < waitUntil) {
                LockSupport.parkNanos(500_000_000L);
            }
            System.out.printf(
                    "PK buckets with a KV snapshot: %d of %d%n",
                    gateway.latestSnapshots(pk.tableId()).size(), BUCKETS);

            Configuration lakeConf =
                    new Configuration()
                            .setString("datalake.format", "paimon")
                            .setString(
                                    "datalake.paimon.warehouse",
                                    server.dataDir().resolve("lake").toUri().toString());
            try (LakeStorage lake = LakeStoragePlugins.open(lakeConf)) {
                double logSecs =
                        tier(server, lake, lakeConf, parallelism, log, "logbench", gateway, seed);
                report("log", logRows, logBytes, logSecs, parallelism, rawLog);
                double pkSecs =
                        tier(server, lake, lakeConf, parallelism, pk, "pkbench", gateway, seed);
                report("PK (from KV snapshots)", pkKeys, pkBytes, pkSecs, parallelism, rawPk);
            }
        }
        System.out.println("machine is shared and noisy: treat the figures as rough");
    }

    /**
     * A short freshness makes the new table pending soon (T11); it is raised before the job starts
     * so the round ceiling (T13) does not cut the measured round.
     */
    private static TableInfo create(Connection conn, String name, Schema schema, String group) {
        return conn.admin()
                .createTable(
                        TablePath.of("bench", name),
                        TableDescriptor.builder(schema)
                                .bucketCount(BUCKETS)
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", "1s")
                                .property("table.datalake.tiering.group", group)
                                .build(),
                        false);
    }

    private static Row row(Random r, long id) {
        return Row.of(
                id,
                "user-" + Long.toHexString(r.nextLong()),
                "https://shop.example.com/p/" + Long.toHexString(r.nextLong()) + "?ref=bench",
                r.nextInt(100_000));
    }

    private static long loadLog(Connection conn, TablePath path, long rows, long seed)
            throws Exception {
        Random r = new Random(seed);
        RowCodec codec = RowCodec.of(LOG);
        long bytes = 0;
        try (AppendWriter w = conn.appendWriter(path)) {
            List<CompletableFuture<?>> acks = new ArrayList<>();
            for (long i = 0; i < rows; i++) {
                Row row = row(r, i);
                bytes += codec.encode(row).length;
                acks.add(w.append(row));
                if (acks.size() == 50_000) {
                    CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                    acks.clear();
                }
            }
            w.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
        return bytes;
    }

    private static long loadPk(Connection conn, TablePath path, long keys, long seed)
            throws Exception {
        Random r = new Random(seed + 1);
        RowCodec codec = RowCodec.of(PK);
        long bytes = 0;
        try (UpsertWriter w = conn.upsertWriter(path)) {
            List<CompletableFuture<?>> acks = new ArrayList<>();
            for (long i = 0; i < keys; i++) {
                Row row = row(r, i);
                bytes += codec.encode(row).length;
                acks.add(w.upsert(row));
                if (acks.size() == 50_000) {
                    CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                    acks.clear();
                }
            }
            w.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
        return bytes;
    }

    /** Runs the job until the lake's committed offsets reach every bucket's end; seconds. */
    private static double tier(
            TributaryServer server,
            LakeStorage lake,
            Configuration lakeConf,
            int parallelism,
            TableInfo table,
            String group,
            TieringGateway gateway,
            long seed)
            throws Exception {
        Map<Integer, Long> ends = gateway.endOffsets(table.tableId());
        Configuration conf = new Configuration(lakeConf.toMap());
        conf.setString("tiering.embedded.parallelism", Integer.toString(parallelism));
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        conf.setString("tiering.job.group", group);
        long start = System.nanoTime();
        try (EmbeddedTiering job =
                EmbeddedTiering.start(
                        GatewayTieringService.factory(server.rpcTarget(), null, Map.of()), conf)) {
            while (!caughtUp(lake, table.path(), ends)) {
                LockSupport.parkNanos(100_000_000L);
            }
            return (System.nanoTime() - start) / 1e9;
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
     * Single-thread Paimon write of the same kind of rows through the plugin (one writer, as one
     * split), plus its commit; rows/s.
     */
    private static double rawLakeWrite(Path dir, Schema schema, long rows, long seed) {
        Configuration conf =
                new Configuration()
                        .setString("datalake.format", "paimon")
                        .setString("datalake.paimon.warehouse", dir.toUri().toString());
        TablePath path = TablePath.of("raw", schema.hasPrimaryKey() ? "pk" : "events");
        TableDescriptor d = TableDescriptor.builder(schema).bucketCount(1).build();
        try (LakeStorage lake = LakeStoragePlugins.open(conf)) {
            lake.catalog().createTable(path, d);
            Random r = new Random(seed);
            List<Row> data = new ArrayList<>();
            for (long i = 0; i < rows; i++) {
                data.add(row(r, i));
            }
            long start = System.nanoTime();
            var result =
                    writeAll(
                            lake,
                            path,
                            d,
                            data,
                            schema.hasPrimaryKey() ? ChangeType.INSERT : ChangeType.APPEND_ONLY);
            try (LakeCommitter c = lake.createCommitter(path)) {
                c.commit(List.of(result), TieringSnapshotProperties.of(1, 1, 1, Map.of(0, rows)));
            }
            double secs = (System.nanoTime() - start) / 1e9;
            double rate = rows / secs;
            System.out.printf(
                    "raw %s lake write (1 thread, Paimon plugin): %,d rows in %.2f s = %,.0f"
                            + " rows/s%n",
                    schema.hasPrimaryKey() ? "PK" : "log", rows, secs, rate);
            return rate;
        }
    }

    private static dev.tributary.lake.api.write.LakeWriteResult writeAll(
            LakeStorage lake, TablePath path, TableDescriptor d, List<Row> data, ChangeType type) {
        try (LakeWriter w = lake.createWriter(new LakeWriterContext(path, 1, d, 0, 1, 1))) {
            long offset = 0;
            for (Row row : data) {
                w.write(row, type, 0, offset++, 1_000L);
            }
            return w.complete();
        }
    }

    private static void report(
            String what, long rows, long bytes, double secs, int parallelism, double raw) {
        double rowsPerSec = rows / secs;
        System.out.printf(
                "%s: %,d rows tiered end to end in %.2f s = %,.0f rows/s, %.1f MB/s raw;"
                        + " per reader %,.0f rows/s = %.0f%% of the raw lake write%n",
                what,
                rows,
                secs,
                rowsPerSec,
                bytes / 1e6 / secs,
                rowsPerSec / parallelism,
                100 * rowsPerSec / parallelism / raw);
    }
}

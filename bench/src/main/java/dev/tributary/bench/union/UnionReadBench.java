package dev.tributary.bench.union;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.read.LakeReadRequest;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.read.LakeRowCursor;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.service.GatewayTieringService;
import dev.tributary.union.LakeAccess;
import dev.tributary.union.UnionPlan;
import dev.tributary.union.UnionScan;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * Union-read scan throughput (T40): a log table of N rows (default 5,000,000, ~100 bytes each)
 * whose first {@code lake-fraction} (default 90%) was tiered into the lake by the real tiering job
 * and whose rest stays in the store, read three ways in the same run, each a full scan of every
 * bucket on one thread through the public APIs:
 *
 * <ul>
 *   <li>union read ({@link UnionScan}): lake as of the latest tiering snapshot + the store's log
 *       from its offsets: every row once;
 *   <li>store-only scan ({@link LogScanner}) of the same table, offsets 0 to the end: every row,
 *       all served by the server over gRPC (retention is off, so the store still has them);
 *   <li>lake-only read ({@link LakeReader}) of the snapshot: the tiered rows only.
 * </ul>
 *
 * <p>Each is run {@code --repeat} times (default 2) after one unreported warm-up pass; the best
 * pass is reported with rows/s and the ratios union/store and union/lake.
 *
 * <p>Usage: {@code UnionReadBench [--rows 5000000] [--lake-fraction 0.9] [--format paimon|iceberg]
 * [--buckets 8] [--repeat 2] [--seed 42] [--dir DIR]}.
 */
public final class UnionReadBench {
    private static final Clock CLOCK = Clock.system();
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("user_id", DataTypes.INT())
                    .column("amount", DataTypes.DOUBLE())
                    .column("category", DataTypes.STRING())
                    .column("payload", DataTypes.STRING())
                    .build();

    private UnionReadBench() {}

    private record Rate(long rows, double secs, double cpuSecs) {
        double rowsPerSec() {
            return rows / secs;
        }
    }

    public static void main(String[] args) throws Exception {
        long rows = 5_000_000;
        double lakeFraction = 0.9;
        String format = "paimon";
        int buckets = 8;
        int repeat = 2;
        long seed = 42;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Long.parseLong(args[++i]);
                case "--lake-fraction" -> lakeFraction = Double.parseDouble(args[++i]);
                case "--format" -> format = args[++i];
                case "--buckets" -> buckets = Integer.parseInt(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("union-bench");
        }
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("datalake.format", format);
        // the job's writers need the warehouse too (the server alone defaults it)
        conf.setString("datalake." + format + ".warehouse", dir.resolve("lake").toUri().toString());
        conf.setString("tiering.embedded.parallelism", "2");
        conf.setString("log.flush.policy", "os-cache");
        System.out.printf(
                "union read bench: %,d rows, %.0f%% in the lake, %s, %d buckets, seed %d, dir %s%n",
                rows, lakeFraction * 100, format, buckets, seed, dir);
        try (TributaryServer server = TributaryServer.start(conf, CLOCK, java.util.List.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("bench", true);
            TablePath path = TablePath.of("bench", "events");
            TableInfo info =
                    conn.admin()
                            .createTable(
                                    path,
                                    TableDescriptor.builder(SCHEMA)
                                            .bucketCount(buckets)
                                            .bucketKeys("id")
                                            .property("table.datalake.enabled", "true")
                                            .property("table.datalake.freshness", "1s")
                                            .build(),
                                    false);
            try (LakeStorage lake = LakeAccess.open(conn.admin(), Map.of()).orElseThrow()) {
                // idempotent: the server may have created it already
                lake.catalog().createTable(path, info.descriptor());
            }
            Random random = new Random(seed);
            long lakeRows = (long) (rows * lakeFraction);
            long t0 = System.nanoTime();
            write(conn, path, 0, lakeRows, random);
            System.out.printf(
                    "wrote %,d rows in %.1f s; tiering them...%n",
                    lakeRows, (System.nanoTime() - t0) / 1e9);
            // pending by now (1s freshness); a long freshness keeps the round ceiling (T13) from
            // cutting the one round that tiers the load, and no round runs after it
            conn.admin()
                    .alterTable(
                            path,
                            TableAlteration.create()
                                    .setProperty("table.datalake.freshness", "30min"));
            t0 = System.nanoTime();
            try (EmbeddedTiering job =
                    EmbeddedTiering.start(
                            GatewayTieringService.factory(server.rpcTarget(), null, Map.of()),
                            conf)) {
                long deadline = System.nanoTime() + 20L * 60 * 1_000_000_000L;
                while (conn.admin().tieringStatus(path).lagRecords().orElse(1) != 0) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "not tiered after 20 minutes: " + conn.admin().tieringStatus(path));
                    }
                    LockSupport.parkNanos(500_000_000L);
                }
            }
            System.out.printf("tiered in %.1f s (job stopped)%n", (System.nanoTime() - t0) / 1e9);
            write(conn, path, lakeRows, rows, random);
            System.out.printf("wrote %,d more rows that stay in the store%n", rows - lakeRows);

            try (LakeStorage lake = LakeAccess.open(conn.admin(), Map.of()).orElseThrow()) {
                Rate union = null;
                Rate store = null;
                Rate lakeOnly = null;
                for (int pass = 0; pass <= repeat; pass++) {
                    Rate u = measure(() -> unionScan(conn, lake, info));
                    Rate s = measure(() -> storeScan(conn, info));
                    Rate l = measure(() -> lakeScan(lake, info));
                    if (pass == 0) {
                        System.out.printf(
                                "warm-up: union %,d rows, store %,d, lake %,d%n",
                                u.rows(), s.rows(), l.rows());
                        check(u.rows() == rows, "union read returned " + u.rows());
                        check(s.rows() == rows, "store scan returned " + s.rows());
                        check(l.rows() == lakeRows, "lake read returned " + l.rows());
                        continue;
                    }
                    union = best(union, u);
                    store = best(store, s);
                    lakeOnly = best(lakeOnly, l);
                }
                System.out.println();
                System.out.println(
                        "| read | rows | best s | rows/s | process CPU s | rows per CPU-s |");
                System.out.println("|---|---|---|---|---|---|");
                print("union (lake + store tail)", union);
                print("store-only scan", store);
                print("lake-only read", lakeOnly);
                System.out.printf(
                        "%nunion / store-only: %.2fx rows/s; union / lake-only: %.2fx rows/s%n",
                        union.rowsPerSec() / store.rowsPerSec(),
                        union.rowsPerSec() / lakeOnly.rowsPerSec());
            }
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("wrong result: " + what);
        }
    }

    private static Rate best(Rate a, Rate b) {
        return a == null || b.secs() < a.secs() ? b : a;
    }

    private static void print(String what, Rate r) {
        System.out.printf(
                "| %s | %,d | %.2f | %,.0f | %.2f | %,.0f |%n",
                what, r.rows(), r.secs(), r.rowsPerSec(), r.cpuSecs(), r.rows() / r.cpuSecs());
    }

    private interface Scan {
        long run() throws Exception;
    }

    private static Rate measure(Scan scan) throws Exception {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        long n = scan.run();
        return new Rate(n, (System.nanoTime() - t0) / 1e9, (os.getProcessCpuTime() - cpu0) / 1e9);
    }

    private static long unionScan(Connection conn, LakeStorage lake, TableInfo info) {
        try (UnionScan scan = UnionScan.builder(conn, info.path()).table(info).lake(lake).build();
                UnionScan.Rows r = scan.read()) {
            long n = 0;
            long sink = 0;
            while (r.next()) {
                sink += r.row().arity();
                n++;
            }
            UnionPlan plan = r.plan();
            check(plan.lakeRecords() > 0, "the union read used no lake snapshot");
            return n + (sink < 0 ? 1 : 0);
        }
    }

    private static long storeScan(Connection conn, TableInfo info) {
        LogScanner scanner = conn.logScanner(info.path());
        long n = 0;
        for (int b = 0; b < info.bucketCount(); b++) {
            try (RecordIterator it = scanner.scan(b, 0, Long.MAX_VALUE)) {
                while (it.hasNext()) {
                    it.next();
                    n++;
                }
            }
        }
        return n;
    }

    private static long lakeScan(LakeStorage lake, TableInfo info) {
        try (LakeReader reader = lake.createReader(info.path())) {
            Optional<LakeSnapshot> s = reader.latestTieringSnapshot(info.tableId());
            long n = 0;
            for (int b = 0; b < info.bucketCount(); b++) {
                try (LakeRowCursor c =
                        reader.read(
                                LakeReadRequest.all(
                                        s.orElseThrow().snapshotId(), info.descriptor(), b))) {
                    while (c.next()) {
                        n++;
                    }
                }
            }
            return n;
        }
    }

    private static final String[] CATEGORIES = {"books", "garden", "toys", "music", "tools"};

    private static void write(Connection conn, TablePath path, long from, long to, Random random)
            throws Exception {
        StringBuilder pool = new StringBuilder();
        for (int i = 0; i < 64; i++) {
            pool.append((char) ('a' + random.nextInt(26)));
        }
        String payload = pool.toString();
        try (AppendWriter w = conn.appendWriter(path)) {
            for (long id = from; id < to; id++) {
                w.append(
                        Row.of(
                                id,
                                random.nextInt(1_000_000),
                                random.nextDouble() * 1000,
                                CATEGORIES[(int) (id % CATEGORIES.length)],
                                payload));
            }
            w.flush();
        }
    }
}

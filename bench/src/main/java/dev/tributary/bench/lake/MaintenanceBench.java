package dev.tributary.bench.lake;

import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.status.TableMaintenanceStatus;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.job.TieringOptions;
import dev.tributary.tiering.service.GatewayTieringService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;

/**
 * Lake maintenance over many rounds (issue 13, T38, T39), end to end: a real server (store,
 * coordinator with lake maintenance) and the real tiering job on an embedded MiniCluster tier a
 * 16-bucket log table and a 16-bucket PK table for N lockstep rounds (each step writes a batch to
 * every bucket of both tables and waits until the lake holds it), once with auto-compaction off and
 * once on, same rows, same seed, same JVM. Then it waits until maintenance has run after the last
 * round and reports, per table and mode: tiering throughput (rows written and tiered per second of
 * the lockstep loop), live data files per bucket, delete files, snapshots retained, data files on
 * disk against files the retained snapshots reference, what compaction and expiry did, and the time
 * of a full scan with the format's own reader (Paimon's {@code ReadBuilder}, Iceberg's {@code
 * IcebergGenerics}, best of 3, server stopped).
 *
 * <p>Usage: {@code MaintenanceBench [--rounds 500] [--rows-per-bucket 40] [--formats
 * paimon,iceberg] [--modes off,on] [--freshness 250ms] [--interval 2s] [--max-files 5]
 * [--warmup-rounds 20] [--seed 42] [--dir DIR]}.
 */
public final class MaintenanceBench {
    private static final Clock CLOCK = Clock.system();
    private static final int BUCKETS = 16;
    private static final List<Column> COLUMNS =
            List.of(
                    new Column("id", DataTypes.BIGINT(), null),
                    new Column("user_name", DataTypes.STRING(), null),
                    new Column("url", DataTypes.STRING(), null),
                    new Column("amount", DataTypes.INT(), null));
    private static final Schema LOG = Schema.of(COLUMNS, List.of());
    private static final Schema PK = Schema.of(COLUMNS, List.of("id"));
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private MaintenanceBench() {}

    private record Settings(
            int rounds,
            int rowsPerBucket,
            String freshness,
            String interval,
            int maxFiles,
            int warmupRounds,
            long seed,
            Path dir) {}

    /** What one mode of one format measured, per table. */
    private record Result(
            String format,
            boolean compaction,
            String table,
            long rows,
            double secs,
            double cpuSecs,
            long tieringRounds,
            long roundFailures,
            int maxFilesPerBucket,
            double avgFilesPerBucket,
            int deleteFiles,
            int snapshots,
            int filesOnDisk,
            int unreferenced,
            int unreferencedMetadata,
            long compactions,
            long yielded,
            long compactionFailures,
            long snapshotsExpired,
            long bytesReclaimed,
            long liveBytes,
            double scanMillis,
            long scanRows) {
        double rowsPerSec() {
            return rows / secs;
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = 500;
        int rowsPerBucket = 40;
        List<String> formats = List.of("paimon", "iceberg");
        List<String> modes = List.of("off", "on");
        String freshness = "250ms";
        String interval = "2s";
        int maxFiles = 5;
        int warmup = 20;
        long seed = 42;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--rows-per-bucket" -> rowsPerBucket = Integer.parseInt(args[++i]);
                case "--formats" -> formats = List.of(args[++i].split(","));
                case "--modes" -> modes = List.of(args[++i].split(","));
                case "--freshness" -> freshness = args[++i];
                case "--interval" -> interval = args[++i];
                case "--max-files" -> maxFiles = Integer.parseInt(args[++i]);
                case "--warmup-rounds" -> warmup = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("maintenance-bench");
        }
        Settings s =
                new Settings(
                        rounds, rowsPerBucket, freshness, interval, maxFiles, warmup, seed, dir);
        System.out.printf(
                "MaintenanceBench: %d rounds x %d rows per bucket, %d buckets, log + PK table,"
                        + " freshness %s, compaction interval %s, max-files %d, snapshots: 10"
                        + " retained, time-retained 0s, seed %d, %d cores, dir %s%n",
                rounds,
                rowsPerBucket,
                BUCKETS,
                freshness,
                interval,
                maxFiles,
                seed,
                Runtime.getRuntime().availableProcessors(),
                dir);
        List<Result> all = new ArrayList<>();
        for (String format : formats) {
            for (String mode : modes) {
                all.addAll(run(s, format, mode.equals("on")));
            }
        }
        print(all);
    }

    private static List<Result> run(Settings s, String format, boolean compaction)
            throws Exception {
        Path dir = s.dir().resolve(format + "-" + (compaction ? "on" : "off"));
        Path warehouse = dir.resolve("lake");
        Configuration lakeConf =
                new Configuration()
                        .setString("datalake.format", format)
                        .setString(
                                "datalake." + format + ".warehouse", warehouse.toUri().toString());
        Configuration conf = new Configuration();
        lakeConf.toMap().forEach(conf::setString);
        conf.setString("data.dir", dir.resolve("server").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        System.out.printf("%n== %s, compaction %s ==%n", format, compaction ? "on" : "off");
        List<Result> out = new ArrayList<>();
        TablePath logPath = TablePath.of("bench", "events");
        TablePath pkPath = TablePath.of("bench", "users");
        Map<TablePath, long[]> rows = new LinkedHashMap<>();
        long[] timing = new long[2];
        Map<TablePath, TableTieringStatus> finalStatus = new LinkedHashMap<>();
        try (TributaryServer server = TributaryServer.start(conf, CLOCK, List.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("bench", true);
            long logId = create(conn, logPath, LOG, s, compaction);
            long pkId = create(conn, pkPath, PK, s, compaction);
            Configuration tiering = new Configuration();
            lakeConf.toMap().forEach(tiering::setString);
            tiering.set(TieringOptions.SHUFFLE_SEED, s.seed());
            tiering.set(TieringOptions.EMBEDDED_PARALLELISM, 2);
            try (EmbeddedTiering job =
                    EmbeddedTiering.start(
                            GatewayTieringService.factory(server.rpcTarget(), null, Map.of()),
                            tiering)) {
                Random random = new Random(s.seed());
                Lockstep step = new Lockstep(server, conn, logId, logPath, pkId, pkPath, s);
                for (int r = 0; r < s.warmupRounds(); r++) {
                    step.run(random);
                }
                rows.put(logPath, new long[] {0});
                rows.put(pkPath, new long[] {0});
                long cpu0 = OS.getProcessCpuTime();
                long t0 = CLOCK.nanoTime();
                for (int r = 0; r < s.rounds(); r++) {
                    long[] written = step.run(random);
                    rows.get(logPath)[0] += written[0];
                    rows.get(pkPath)[0] += written[1];
                    if ((r + 1) % 50 == 0) {
                        System.out.printf(
                                "  %d rounds, %.1f s%n", r + 1, (CLOCK.nanoTime() - t0) / 1e9);
                    }
                }
                timing[0] = CLOCK.nanoTime() - t0;
                timing[1] = OS.getProcessCpuTime() - cpu0;
                long lastRoundEnd = CLOCK.currentTimeMillis();
                for (long id : List.of(logId, pkId)) {
                    finalStatus.put(
                            id == logId ? logPath : pkPath,
                            settle(server, id, lastRoundEnd, compaction, s.maxFiles()));
                }
            }
        }
        // the server is down: nothing else runs while the engines scan
        for (TablePath p : List.of(logPath, pkPath)) {
            TableTieringStatus st = finalStatus.get(p);
            TableMaintenanceStatus m = st.maintenance();
            if (st.totalFailures() > 0) {
                // a failed round is a finding of its own: say why, not just how many
                System.out.printf(
                        "%s %s: %d failed round(s), the last: %s%n",
                        format, p, st.totalFailures(), st.lastFailure());
            }
            int[] disk = filesOnDisk(warehouse, format, p);
            int unreferenced = 0;
            int unreferencedMetadata = 0;
            try (LakeStorage lake = LakeStoragePlugins.open(lakeConf);
                    LakeCommitter c = lake.createCommitter(p)) {
                // everything no retained snapshot references, whatever its age or writer
                for (String f :
                        c.listOrphanFiles(
                                OrphanPolicy.olderThan(Instant.now().plusSeconds(86_400)))) {
                    if (isDataFile(format, f)) {
                        unreferenced++;
                    } else {
                        unreferencedMetadata++;
                    }
                }
            }
            double best = Double.MAX_VALUE;
            long scanned = 0;
            for (int i = 0; i < 3; i++) {
                long t = CLOCK.nanoTime();
                scanned = scan(warehouse, format, p);
                best = Math.min(best, (CLOCK.nanoTime() - t) / 1e6);
            }
            var stats = m.stats();
            out.add(
                    new Result(
                            format,
                            compaction,
                            p.table(),
                            rows.get(p)[0],
                            timing[0] / 1e9,
                            timing[1] / 1e9,
                            st.lastRound() == null ? 0 : st.lastRound().roundId(),
                            st.totalFailures(),
                            stats.maxDataFilesPerBucket(),
                            stats.dataFiles() / (double) BUCKETS,
                            stats.deleteFiles(),
                            stats.snapshots(),
                            disk[0],
                            unreferenced,
                            unreferencedMetadata,
                            m.compactions(),
                            m.compactionsYielded(),
                            m.compactionFailures(),
                            m.snapshotsExpired(),
                            m.bytesReclaimed(),
                            stats.dataBytes(),
                            best,
                            scanned));
        }
        return out;
    }

    private static long create(
            Connection conn, TablePath path, Schema schema, Settings s, boolean compaction) {
        TableDescriptor.Builder d =
                TableDescriptor.builder(schema)
                        .bucketCount(BUCKETS)
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", s.freshness())
                        .property("table.datalake.auto-compaction", Boolean.toString(compaction))
                        .property("table.datalake.compaction.interval", s.interval())
                        .property(
                                "table.datalake.compaction.max-files",
                                Integer.toString(s.maxFiles()))
                        .property("table.datalake.snapshot.num-retained", "10")
                        .property("table.datalake.snapshot.time-retained", "0s");
        if (!schema.hasPrimaryKey()) {
            d.bucketKeys("id");
        }
        return conn.admin().createTable(path, d.build(), false).tableId();
    }

    /** One lockstep step: a batch into both tables, then wait until the lake holds it. */
    private static final class Lockstep {
        private final TributaryServer server;
        private final Connection conn;
        private final long logId;
        private final TablePath logPath;
        private final long pkId;
        private final TablePath pkPath;
        private final Settings s;

        Lockstep(
                TributaryServer server,
                Connection conn,
                long logId,
                TablePath logPath,
                long pkId,
                TablePath pkPath,
                Settings s) {
            this.server = server;
            this.conn = conn;
            this.logId = logId;
            this.logPath = logPath;
            this.pkId = pkId;
            this.pkPath = pkPath;
            this.s = s;
        }

        long[] run(Random random) throws Exception {
            int n = s.rowsPerBucket() * BUCKETS;
            List<CompletableFuture<?>> acks = new ArrayList<>(2 * n);
            try (AppendWriter a = conn.appendWriter(logPath);
                    UpsertWriter u = conn.upsertWriter(pkPath)) {
                for (int i = 0; i < n; i++) {
                    acks.add(a.append(row(random, random.nextLong())));
                    // a key space that makes most PK changes updates of earlier rows
                    long key = random.nextInt(50_000);
                    Row r = row(random, key);
                    acks.add(random.nextInt(10) == 0 ? u.delete(r) : u.upsert(r));
                }
                a.flush();
                u.flush();
                CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).join();
            }
            awaitTiered(logId);
            awaitTiered(pkId);
            return new long[] {n, n};
        }

        private void awaitTiered(long tableId) throws InterruptedException {
            long deadline = CLOCK.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (true) {
                TableTieringStatus st =
                        server.coordinator().tableStatus(tableId).join().orElseThrow();
                boolean caughtUp = true;
                for (int b = 0; b < BUCKETS && caughtUp; b++) {
                    long end = server.store().endOffset(new TableBucket(tableId, b));
                    caughtUp = st.tieredOffsets().getOrDefault(b, 0L) >= end;
                }
                if (caughtUp) {
                    return;
                }
                if (CLOCK.nanoTime() > deadline) {
                    // what every thread does, to tell a stuck reader from a slow one
                    for (var t : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
                        System.out.print(t);
                    }
                    throw new IllegalStateException(
                            "table "
                                    + tableId
                                    + " did not catch up in 2 minutes: "
                                    + st.state()
                                    + ", last failure "
                                    + st.lastFailure());
                }
                Thread.sleep(5);
            }
        }
    }

    private static Row row(Random random, long id) {
        return Row.of(
                id,
                "user-" + random.nextInt(100_000),
                "https://example.com/p/" + random.nextInt(1_000_000),
                random.nextInt(10_000));
    }

    /**
     * Waits until maintenance ran after the last round (and, with compaction, until every bucket is
     * within max-files), at most 3 minutes.
     */
    private static TableTieringStatus settle(
            TributaryServer server, long tableId, long after, boolean compaction, int maxFiles)
            throws InterruptedException {
        long deadline = CLOCK.nanoTime() + Duration.ofMinutes(3).toNanos();
        TableTieringStatus st;
        while (true) {
            st = server.coordinator().tableStatus(tableId).join().orElseThrow();
            TableMaintenanceStatus m = st.maintenance();
            boolean fresh = m.statsAtMillis() >= after;
            boolean within = !compaction || m.stats().maxDataFilesPerBucket() <= maxFiles;
            if (fresh && within && m.state().name().equals("IDLE")) {
                return st;
            }
            if (CLOCK.nanoTime() > deadline) {
                System.out.printf("  table %d did not settle in 3 minutes: %s%n", tableId, m);
                return st;
            }
            Thread.sleep(100);
        }
    }

    /** Whether an orphan listing's path is a data (or delete) file rather than metadata. */
    private static boolean isDataFile(String format, String path) {
        return format.equals("iceberg") ? path.contains("/data/") : path.contains("/bucket-");
    }

    /** Data (and delete) files on disk: {count}. */
    private static int[] filesOnDisk(Path warehouse, String format, TablePath path) {
        Path table =
                format.equals("iceberg")
                        ? warehouse.resolve(path.database()).resolve(path.table()).resolve("data")
                        : warehouse.resolve(path.database() + ".db").resolve(path.table());
        try (Stream<Path> files = Files.walk(table)) {
            int n =
                    (int)
                            files.filter(Files::isRegularFile)
                                    .filter(f -> !f.getFileName().toString().startsWith("."))
                                    .filter(
                                            f ->
                                                    format.equals("iceberg")
                                                            || table.relativize(f)
                                                                    .getName(0)
                                                                    .toString()
                                                                    .startsWith("bucket-"))
                                    .count();
            return new int[] {n};
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A full scan with the format's own reader; the number of rows. */
    private static long scan(Path warehouse, String format, TablePath path) throws Exception {
        long n = 0;
        if (format.equals("iceberg")) {
            try (HadoopCatalog catalog =
                    new HadoopCatalog(
                            new org.apache.hadoop.conf.Configuration(),
                            warehouse.toUri().toString())) {
                org.apache.iceberg.Table t =
                        catalog.loadTable(
                                org.apache.iceberg.catalog.TableIdentifier.of(
                                        path.database(), path.table()));
                try (CloseableIterable<Record> records = IcebergGenerics.read(t).build()) {
                    for (Record ignored : records) {
                        n++;
                    }
                }
            }
            return n;
        }
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(
                                Options.fromMap(
                                        Map.of(
                                                "warehouse",
                                                warehouse.toUri().toString(),
                                                "cache-enabled",
                                                "false"))))) {
            Table t = catalog.getTable(Identifier.create(path.database(), path.table()));
            ReadBuilder rb = t.newReadBuilder();
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan().splits())) {
                RecordReader.RecordIterator<InternalRow> batch;
                while ((batch = reader.readBatch()) != null) {
                    while (batch.next() != null) {
                        n++;
                    }
                    batch.releaseBatch();
                }
            }
        }
        return n;
    }

    private static void print(List<Result> all) {
        System.out.printf(
                "%n| format | table | compaction | rows | s | rows/s | on/off | CPU s | rounds |"
                        + " failed rounds | files/bucket max (avg) | delete files | snapshots |"
                        + " data files on disk | unreferenced data (metadata) files |"
                        + " compactions (gave way, failed) |"
                        + " snapshots expired | reclaimed MB | live MB | full scan ms (rows) |%n");
        System.out.println(
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Result r : all) {
            Result off =
                    all.stream()
                            .filter(
                                    x ->
                                            x.format().equals(r.format())
                                                    && x.table().equals(r.table())
                                                    && !x.compaction())
                            .findFirst()
                            .orElse(null);
            String ratio =
                    off == null || !r.compaction()
                            ? "-"
                            : String.format("%.0f%%", 100 * r.rowsPerSec() / off.rowsPerSec());
            String scanRatio =
                    off == null || !r.compaction()
                            ? ""
                            : String.format(" = %.2fx off", r.scanMillis() / off.scanMillis());
            System.out.printf(
                    "| %s | %s | %s | %,d | %.1f | %,.0f | %s | %.1f | %d | %d | %d (%.1f) | %d |"
                            + " %d | %d | %d (%d) | %d (%d, %d) | %d | %.1f | %.1f | %.0f (%,d)%s"
                            + " |%n",
                    r.format(),
                    r.table(),
                    r.compaction() ? "on" : "off",
                    r.rows(),
                    r.secs(),
                    r.rowsPerSec(),
                    ratio,
                    r.cpuSecs(),
                    r.tieringRounds(),
                    r.roundFailures(),
                    r.maxFilesPerBucket(),
                    r.avgFilesPerBucket(),
                    r.deleteFiles(),
                    r.snapshots(),
                    r.filesOnDisk(),
                    r.unreferenced(),
                    r.unreferencedMetadata(),
                    r.compactions(),
                    r.yielded(),
                    r.compactionFailures(),
                    r.snapshotsExpired(),
                    r.bytesReclaimed() / 1e6,
                    r.liveBytes() / 1e6,
                    r.scanMillis(),
                    r.scanRows(),
                    scanRatio);
        }
    }
}

package dev.tributary.bench.status;

import dev.tributary.cli.embedded.EmbeddedTieringExtension;
import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.status.CoordinatorStatus;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.server.TributaryServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Status at scale (issue 26): a real server in this JVM with N lake-enabled log tables (Paimon) and
 * the embedded tiering job, a few rows written to every table every minute, and for M minutes, once
 * a minute: the live heap after a full GC (the MemoryMXBean after {@code System.gc()}, this JVM
 * being the server's), the RSS, the rounds committed in that minute, and the p50/p99 latency and
 * size of the console's first load ({@code /api/console}, no {@code since}) and of {@code
 * /api/tiering}. Heap histograms ({@code jcmd <pid> GC.class_histogram}) are written at minute 5
 * and at the end, to say what grew if the heap did.
 *
 * <p>{@code java -Xmx2g ... StatusScaleBench [--tables 1000] [--minutes 30] [--freshness 60s]
 * [--calls 20] [--dir DIR]}
 */
public final class StatusScaleBench {
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("page", DataTypes.STRING())
                    .build();

    private StatusScaleBench() {}

    public static void main(String[] args) throws Exception {
        int tables = 1000;
        int minutes = 30;
        String freshness = "60s";
        int calls = 20;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--tables" -> tables = Integer.parseInt(args[++i]);
                case "--minutes" -> minutes = Integer.parseInt(args[++i]);
                case "--freshness" -> freshness = args[++i];
                case "--calls" -> calls = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("status-bench");
        }
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("data").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("datalake.format", "paimon");
        long pid = ProcessHandle.current().pid();
        System.out.printf(
                "status bench: %d tables, freshness %s, %d minutes, %d calls per endpoint per"
                        + " minute, pid %d, dir %s, max heap %d MB%n",
                tables,
                freshness,
                minutes,
                calls,
                pid,
                dir,
                Runtime.getRuntime().maxMemory() >> 20);
        try (TributaryServer server =
                        TributaryServer.start(
                                conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
                Connection conn = Connection.open(server.rpcTarget())) {
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            conn.admin().createDatabase("bench", true);
            List<TablePath> paths = new ArrayList<>();
            long t0 = System.nanoTime();
            for (int i = 0; i < tables; i++) {
                TablePath p = TablePath.of("bench", String.format("t%04d", i));
                conn.admin()
                        .createTable(
                                p,
                                TableDescriptor.builder(SCHEMA)
                                        .bucketCount(2)
                                        .property("table.datalake.enabled", "true")
                                        .property("table.datalake.freshness", freshness)
                                        .build(),
                                true);
                paths.add(p);
            }
            System.out.printf(
                    "created %d tables in %.1f s%n", tables, (System.nanoTime() - t0) / 1e9);
            HttpClient http = HttpClient.newHttpClient();
            long written = 0;
            System.out.printf(
                    "%3s %9s %8s %7s %7s %9s %9s %9s %8s %8s %9s%n",
                    "min",
                    "heapMB",
                    "rssMB",
                    "rounds",
                    "writeS",
                    "con p50ms",
                    "con p99ms",
                    "con bytes",
                    "tie p50",
                    "tie p99",
                    "tie bytes");
            long lastRoundsAt = System.currentTimeMillis();
            long start = System.nanoTime();
            for (int minute = 0; minute <= minutes; minute++) {
                long due = start + TimeUnit.MINUTES.toNanos(minute);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(wait));
                }
                long w0 = System.nanoTime();
                if (minute < minutes) {
                    written += write(conn, paths, minute);
                }
                double writeSeconds = (System.nanoTime() - w0) / 1e9;
                long now = System.currentTimeMillis();
                int rounds = committedBetween(server, lastRoundsAt, now);
                lastRoundsAt = now;
                Call console = measure(http, base + "/api/console", calls);
                Call tiering = measure(http, base + "/api/tiering", calls);
                long heap = liveHeapMb();
                System.out.printf(
                        "%3d %9d %8d %7d %7.1f %9d %9d %9d %8d %8d %9d%n",
                        minute,
                        heap,
                        rssMb(),
                        rounds,
                        writeSeconds,
                        console.p50,
                        console.p99,
                        console.bytes,
                        tiering.p50,
                        tiering.p99,
                        tiering.bytes);
                if (minute == 5 || minute == minutes) {
                    histogram(pid, dir.resolve("histogram-min" + minute + ".txt"));
                }
            }
            System.out.printf("rows written: %d; histograms in %s%n", written, dir);
        }
    }

    /** Three rows to every table (so each of its rounds has something to commit). */
    private static long write(Connection conn, List<TablePath> paths, int minute) {
        long n = 0;
        for (TablePath p : paths) {
            try (AppendWriter w = conn.appendWriter(p)) {
                for (int r = 0; r < 3; r++) {
                    w.append(Row.of((long) minute * 3 + r, "/page/" + r));
                    n++;
                }
                w.flush();
            }
        }
        return n;
    }

    /** Rounds that committed with an end in {@code (fromMillis, toMillis]}, over all tables. */
    private static int committedBetween(TributaryServer server, long fromMillis, long toMillis) {
        CoordinatorStatus s = server.coordinator().status().join();
        int n = 0;
        for (TableTieringStatus t : s.tables()) {
            for (RoundSummary r : t.recentRounds()) {
                if (r.outcome() == RoundSummary.Outcome.COMMITTED
                        && r.endMillis() > fromMillis
                        && r.endMillis() <= toMillis) {
                    n++;
                }
            }
        }
        return n;
    }

    private record Call(long p50, long p99, long bytes) {}

    private static Call measure(HttpClient http, String url, int calls) throws Exception {
        long[] millis = new long[calls];
        long bytes = 0;
        for (int i = 0; i < calls; i++) {
            long c0 = System.nanoTime();
            HttpResponse<byte[]> r =
                    http.send(
                            HttpRequest.newBuilder(URI.create(url)).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
            millis[i] = (System.nanoTime() - c0) / 1_000_000;
            if (r.statusCode() != 200) {
                throw new IllegalStateException(
                        url + ": " + new String(r.body(), StandardCharsets.UTF_8));
            }
            bytes = Math.max(bytes, r.body().length);
        }
        Arrays.sort(millis);
        return new Call(pct(millis, 50), pct(millis, 99), bytes);
    }

    private static long pct(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** Heap in use right after full collections: what is reachable. */
    private static long liveHeapMb() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
    }

    private static long rssMb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10;
            }
        }
        return -1;
    }

    private static void histogram(long pid, Path out) throws Exception {
        Process p =
                new ProcessBuilder("jcmd", Long.toString(pid), "GC.class_histogram")
                        .redirectErrorStream(true)
                        .redirectOutput(out.toFile())
                        .start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroy();
        }
        System.out.println("heap histogram: " + out);
    }
}

package dev.tributary.bench.cluster;

import dev.tributary.bench.cluster.MetadataBenchData.Percentiles;
import dev.tributary.cli.cluster.LocalCluster;
import dev.tributary.cli.cluster.LocalClusterLayout;
import dev.tributary.cli.cluster.LocalServerProcess;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Metadata operation latency through real servers, a lone server against a cluster of three, in one
 * run (T49, issue 22): the deployments {@code tributary server} and {@code tributary cluster start
 * --servers 3} run, as server processes on this machine with a local Paimon lake.
 *
 * <ul>
 *   <li><b>CREATE TABLE</b>, timed by the client ({@code Admin.createTable} of a 4-bucket log table
 *       without a lake: the RPC, the table's metadata write, its bucket assignment and the holders
 *       opening its buckets), {@code --tables} in a row after {@code --warmup} untimed.
 *   <li><b>A round's commit record</b>, as the coordinator times it ({@code
 *       tributary_metadata_write_seconds{operation="put_tiering_record"}} from its {@code
 *       /metrics}: p50, p99 over the last minutes, count and mean): one lake table with a 1 s
 *       freshness, its rounds run by the embedded tiering job while a writer appends for {@code
 *       --tiering-seconds}. The coordinator's {@code put_table} figures come from a scrape right
 *       after the timed CREATE TABLEs.
 * </ul>
 *
 * <p>The lone server keeps its metadata in a file with one fsync per write; the cluster's three
 * voters (one per server process) commit through Ratis, each entry fsync'd by the leader and a
 * follower on this one disk. {@code --rounds} repeats both with fresh directories, the order
 * reversed every other round.
 *
 * <pre>
 * java -cp ... dev.tributary.bench.cluster.ServerMetadataLatencyBench [--tables 200] [--warmup 20]
 *     [--tiering-seconds 60] [--rounds 2] [--dir DIR]
 * </pre>
 */
public final class ServerMetadataLatencyBench {
    private static final Clock CLOCK = Clock.system();
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private static final Schema SCHEMA =
            Schema.of(
                    List.of(
                            new Column("id", DataTypes.BIGINT(), null),
                            new Column("payload", DataTypes.STRING(), null)),
                    List.of());
    private static final Pattern SAMPLE =
            Pattern.compile(
                    "^tributary_metadata_write_seconds(_count|_sum)?\\{(.*)\\} (\\S+)$",
                    Pattern.MULTILINE);

    private ServerMetadataLatencyBench() {}

    /** A running deployment: where clients connect, and where its coordinator's metrics are. */
    private interface Deployment extends AutoCloseable {
        String name();

        String addresses();

        /** The coordinator's {@code /metrics} URL. */
        URI metrics(Connection conn);

        @Override
        void close();
    }

    /** The coordinator's figures of one operation. */
    private record Written(double p50Ms, double p99Ms, long count, double meanMs) {}

    private record Result(
            int round, String deployment, Percentiles createTable, Written table, Written record) {}

    public static void main(String[] args) throws Exception {
        int tables = 200;
        int warmup = 20;
        int tieringSeconds = 60;
        int rounds = 2;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--tables" -> tables = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--tiering-seconds" -> tieringSeconds = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> {
                    System.err.println(
                            "unknown argument "
                                    + args[i]
                                    + "; usage: [--tables N] [--warmup N] [--tiering-seconds S]"
                                    + " [--rounds N] [--dir DIR]");
                    System.exit(2);
                }
            }
        }
        Path base = dir != null ? dir : Files.createTempDirectory("server-metadata-bench");
        System.out.printf(
                Locale.ROOT,
                "server metadata latency: %d CREATE TABLE (after %d warm-up), %d s of rounds,"
                        + " %d round(s), dir %s%n",
                tables,
                warmup,
                tieringSeconds,
                rounds,
                base);
        List<Result> results = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            List<String> order =
                    round % 2 == 1
                            ? List.of("server", "cluster-3")
                            : List.of("cluster-3", "server");
            for (String name : order) {
                Path d = base.resolve("round-" + round).resolve(name);
                try (Deployment dep = name.equals("server") ? lone(d) : cluster(d)) {
                    results.add(measure(round, dep, tables, warmup, tieringSeconds));
                }
            }
        }
        print(results);
        System.exit(0);
    }

    private static Result measure(
            int round, Deployment dep, int tables, int warmup, int tieringSeconds)
            throws Exception {
        try (Connection conn = Connection.builder().address(dep.addresses()).build()) {
            say(
                    "round %d %s: load %s, CREATE TABLE",
                    round, dep.name(), MetadataBenchData.loadAverage());
            conn.admin().createDatabase("bench", true);
            for (int i = 0; i < warmup; i++) {
                create(conn, "warm_" + i, false);
            }
            long[] nanos = new long[tables];
            for (int i = 0; i < tables; i++) {
                long t0 = CLOCK.nanoTime();
                create(conn, "t_" + i, false);
                nanos[i] = CLOCK.nanoTime() - t0;
            }
            // right away: the published percentiles cover the last minute or two only
            Written table = written(get(dep.metrics(conn)), "put_table");
            say(
                    "round %d %s: load %s, %d s of rounds of a lake table",
                    round, dep.name(), MetadataBenchData.loadAverage(), tieringSeconds);
            TablePath lake = create(conn, "lake", true);
            write(conn, lake, Duration.ofSeconds(tieringSeconds));
            return new Result(
                    round,
                    dep.name(),
                    Percentiles.of(nanos),
                    table,
                    written(get(dep.metrics(conn)), "put_tiering_record"));
        }
    }

    private static TablePath create(Connection conn, String name, boolean lake) {
        TablePath path = TablePath.of("bench", name);
        TableDescriptor.Builder d = TableDescriptor.builder(SCHEMA).bucketCount(4).bucketKeys("id");
        if (lake) {
            d.property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s");
        }
        conn.admin().createTable(path, d.build(), false);
        return path;
    }

    /** Appends batches every 100 ms for {@code duration}, so every round has something to tier. */
    private static void write(Connection conn, TablePath path, Duration duration)
            throws InterruptedException {
        Random random = new Random(42);
        long end = CLOCK.nanoTime() + duration.toNanos();
        long id = 0;
        try (AppendWriter w = conn.appendWriter(path)) {
            while (CLOCK.nanoTime() < end) {
                List<CompletableFuture<?>> acks = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    acks.add(w.append(Row.of(id++, "p-" + random.nextInt(1_000_000))));
                }
                w.flush();
                CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).join();
                Thread.sleep(100);
            }
        }
    }

    /** The coordinator's figures of {@code operation} in a Prometheus scrape. */
    static Written written(String scrape, String operation) {
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        long count = 0;
        double sum = 0;
        String op = "operation=\"" + operation + "\"";
        Matcher m = SAMPLE.matcher(scrape);
        while (m.find()) {
            if (!m.group(2).contains(op)) {
                continue;
            }
            double v = Double.parseDouble(m.group(3));
            String suffix = m.group(1);
            if ("_count".equals(suffix)) {
                count = (long) v;
            } else if ("_sum".equals(suffix)) {
                sum = v;
            } else if (m.group(2).contains("quantile=\"0.5\"")) {
                p50 = v * 1000;
            } else if (m.group(2).contains("quantile=\"0.99\"")) {
                p99 = v * 1000;
            }
        }
        return new Written(p50, p99, count, count == 0 ? Double.NaN : sum * 1000 / count);
    }

    private static Deployment lone(Path dir) throws Exception {
        int rpc = freePorts(1);
        int http = freePorts(1);
        LocalServerProcess p =
                LocalServerProcess.start(
                        1,
                        dir.resolve("server"),
                        List.of(
                                "--set",
                                "data.dir=" + dir.resolve("server"),
                                "--set",
                                "server.rpc.port=" + rpc,
                                "--set",
                                "server.http.port=" + http,
                                "--set",
                                "datalake.paimon.warehouse=" + dir.resolve("lake").toUri()));
        String address = "127.0.0.1:" + rpc;
        Deployment dep =
                new Deployment() {
                    @Override
                    public String name() {
                        return "server";
                    }

                    @Override
                    public String addresses() {
                        return address;
                    }

                    @Override
                    public URI metrics(Connection conn) {
                        return URI.create("http://127.0.0.1:" + http + "/metrics");
                    }

                    @Override
                    public void close() {
                        p.terminate();
                        try {
                            p.awaitExitOrKill(45_000);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                };
        try {
            awaitCoordinator(address, p);
        } catch (RuntimeException | InterruptedException e) {
            dep.close();
            throw e;
        }
        return dep;
    }

    private static Deployment cluster(Path dir) throws Exception {
        LocalClusterLayout layout =
                new LocalClusterLayout(dir, "bench", 3, freePorts(3), freePorts(3), freePorts(3));
        LocalCluster c =
                new LocalCluster(
                        layout,
                        List.of("--set", "datalake.paimon.warehouse=" + layout.lake().toUri()),
                        List.of(),
                        null,
                        new PrintWriter(System.err, true),
                        CLOCK);
        try {
            c.start(START_TIMEOUT);
        } catch (RuntimeException e) {
            c.stop();
            throw e;
        }
        return new Deployment() {
            @Override
            public String name() {
                return "cluster-3";
            }

            @Override
            public String addresses() {
                return layout.addressList();
            }

            @Override
            public URI metrics(Connection conn) {
                ClusterInfo info = conn.admin().describeCluster();
                int id = info.coordinatorId().orElseThrow();
                return URI.create("http://127.0.0.1:" + layout.httpPort(id) + "/metrics");
            }

            @Override
            public void close() {
                c.stop();
            }
        };
    }

    private static void awaitCoordinator(String address, LocalServerProcess p)
            throws InterruptedException {
        long deadline = CLOCK.nanoTime() + START_TIMEOUT.toNanos();
        try (Connection conn = Connection.builder().address(address).build()) {
            while (true) {
                if (!p.process().isAlive()) {
                    throw new IllegalStateException("the server exited; see " + p.log());
                }
                try {
                    if (conn.admin().describeCluster().coordinatorId().isPresent()) {
                        return;
                    }
                } catch (TributaryException starting) {
                    // not listening yet
                }
                if (CLOCK.nanoTime() > deadline) {
                    throw new IllegalStateException("the server did not start; see " + p.log());
                }
                Thread.sleep(250);
            }
        }
    }

    /** The first of {@code n} consecutive free loopback ports. */
    private static int freePorts(int n) throws IOException {
        Random random = new Random();
        for (int attempt = 0; attempt < 100; attempt++) {
            int first = 20_000 + random.nextInt(30_000);
            boolean free = true;
            for (int port = first; port < first + n && free; port++) {
                try (ServerSocket s = new ServerSocket()) {
                    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                } catch (IOException inUse) {
                    free = false;
                }
            }
            if (free) {
                return first;
            }
        }
        throw new IOException("no " + n + " consecutive free ports found");
    }

    private static String get(URI uri) throws IOException, InterruptedException {
        HttpResponse<String> r =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(uri).GET().build(),
                                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException(uri + " answered " + r.statusCode());
        }
        return r.body();
    }

    private static void print(List<Result> results) {
        System.out.println();
        System.out.println(
                "| round | deployment | CREATE TABLE p50 ms | p99 ms | max ms | x server p50 |"
                        + " put_table p50 / p99 / mean ms | put_tiering_record p50 / p99 / mean"
                        + " ms (count) | x server p50 |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (Result r : results) {
            Result lone =
                    results.stream()
                            .filter(o -> o.round() == r.round() && o.deployment().equals("server"))
                            .findFirst()
                            .orElse(r);
            System.out.printf(
                    Locale.ROOT,
                    "| %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f / %.2f / %.2f | %.2f / %.2f /"
                            + " %.2f (%d) | %.2f |%n",
                    r.round(),
                    r.deployment(),
                    r.createTable().p50() / 1e6,
                    r.createTable().p99() / 1e6,
                    r.createTable().max() / 1e6,
                    (double) r.createTable().p50() / lone.createTable().p50(),
                    r.table().p50Ms(),
                    r.table().p99Ms(),
                    r.table().meanMs(),
                    r.record().p50Ms(),
                    r.record().p99Ms(),
                    r.record().meanMs(),
                    r.record().count(),
                    r.record().p50Ms() / lone.record().p50Ms());
        }
    }

    private static void say(String format, Object... args) {
        System.out.printf(
                Locale.ROOT,
                "[%tT] %s%n",
                CLOCK.currentTimeMillis(),
                String.format(Locale.ROOT, format, args));
    }
}

package dev.tributary.bench.cluster;

import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.row.Row;
import dev.tributary.common.testing.LoopbackPorts;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.server.TributaryServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Replicated buckets on three real servers of one cluster in this JVM, over loopback (T50/T51).
 *
 * <p>Throughput: one client writer appends ~100-byte rows (BIGINT id, BIGINT ts, 80-char STRING) as
 * fast as its back-pressure allows to a 4-bucket log table with one replica per bucket, then to one
 * with three (acknowledged once every in-sync replica has a batch), alternating, {@code --rounds}
 * times {@code --seconds} each; the figure is rows acknowledged by the final flush. Both tables
 * live on the same three servers, so the runs share the machine alike.
 *
 * <p>Failover: a one-bucket table with three replicas; a writer appends and flushes one row at a
 * time; the bucket's leader (never the coordinator's server) is stopped ({@code close()}, not a
 * kill -9: this is one JVM), and the time to the first write acknowledged after the stop is
 * measured from when {@code close()} returned (until then the server lives and may acknowledge
 * writes); the stopped server is started again and rejoins the in-sync set before the next round.
 * With {@code --controlled-shutdown true} (the default, as in production) the stopping server hands
 * its leadership over; with {@code false} it just goes silent, which is what a crash costs: the
 * coordinator moves its buckets at {@code --heartbeat-timeout} (default 2s; interval 200 ms).
 *
 * <p>Moves (issue 23), after the throughput rounds (the RF 3 table dropped first, since its buckets
 * have a copy on every server): the server holding most of the RF 1 table's buckets is drained
 * ({@code moveReplicas}, as {@code tributary cluster rebalance --drain} does), then a rebalance
 * moves buckets back onto it, {@code --moves} times; each is timed from the call to the last move's
 * end, over the bytes of the moved buckets' copies, and set against RF 1's append rate of the same
 * run. The receiving servers' {@code replica.move.max-bytes-per-second} caps it (64mb by default;
 * {@code --set} changes it).
 *
 * <p>Usage: {@code ReplicationBench [--seconds N] [--rounds N] [--failovers N] [--moves N] [--dir
 * PATH] [--controlled-shutdown BOOL] [--heartbeat-timeout DURATION] [--set KEY=VALUE]...}; {@code
 * --set} passes a server option to every server (say {@code replica.fetch.max-wait=0ms}).
 */
public final class ReplicationBench {
    private static final Schema LOG =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("ts", DataTypes.BIGINT())
                    .column("payload", DataTypes.STRING())
                    .build();

    private static final long SLOW_CLOSE_NANOS = 1_000_000_000L;

    private final Path dir;
    private final Clock clock = Clock.system();
    private final List<TributaryServer> servers = new ArrayList<>();
    private final String[] payloads = new String[1024];
    private final boolean controlledShutdown;
    private final String heartbeatTimeout;
    private final Map<String, String> extra;
    private String voters;

    private ReplicationBench(
            Path dir,
            boolean controlledShutdown,
            String heartbeatTimeout,
            Map<String, String> extra) {
        this.dir = dir;
        this.extra = extra;
        this.controlledShutdown = controlledShutdown;
        this.heartbeatTimeout = heartbeatTimeout;
        Random random = new Random(42);
        for (int i = 0; i < payloads.length; i++) {
            StringBuilder sb = new StringBuilder(80);
            for (int c = 0; c < 80; c++) {
                sb.append((char) ('a' + random.nextInt(26)));
            }
            payloads[i] = sb.toString();
        }
    }

    public static void main(String[] args) throws Exception {
        int seconds = 10;
        int rounds = 3;
        int failovers = 10;
        int moves = 2;
        Path dir = null;
        boolean controlled = true;
        String heartbeatTimeout = "2s";
        Map<String, String> extra = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--failovers" -> failovers = Integer.parseInt(args[++i]);
                case "--moves" -> moves = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--controlled-shutdown" -> controlled = Boolean.parseBoolean(args[++i]);
                case "--heartbeat-timeout" -> heartbeatTimeout = args[++i];
                case "--set" -> {
                    String[] kv = args[++i].split("=", 2);
                    if (kv.length != 2) {
                        throw new IllegalArgumentException("--set takes KEY=VALUE, not " + args[i]);
                    }
                    extra.put(kv[0], kv[1]);
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path base = dir != null ? dir : Files.createTempDirectory("replication-bench");
        ReplicationBench bench = new ReplicationBench(base, controlled, heartbeatTimeout, extra);
        try {
            bench.run(seconds, rounds, failovers, moves);
        } finally {
            bench.servers.forEach(TributaryServer::close);
            if (dir == null) {
                // the runs write gigabytes: a temporary directory must not outlive its run
                DurableFiles.deleteRecursively(base);
            }
        }
        System.exit(0);
    }

    private void run(int seconds, int rounds, int failovers, int moves) throws Exception {
        System.out.printf(
                Locale.ROOT,
                "three servers: controlled shutdown %s, heartbeat timeout %s, options %s%n",
                controlledShutdown,
                heartbeatTimeout,
                extra);
        voters =
                "1@127.0.0.1:"
                        + LoopbackPorts.free()
                        + ",2@127.0.0.1:"
                        + LoopbackPorts.free()
                        + ",3@127.0.0.1:"
                        + LoopbackPorts.free();
        for (int id = 1; id <= 3; id++) {
            servers.add(start(id));
        }
        TributaryServer coordinator = awaitCoordinator();
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            waitFor(() -> conn.admin().describeCluster().servers().size() == 3, 60_000);
            conn.admin().createDatabase("bench", true);
            TablePath rf1 = table(conn, "rf1", 1, 4);
            TablePath rf3 = table(conn, "rf3", 3, 4);
            List<Double> one = new ArrayList<>();
            List<Double> three = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                one.add(throughput(conn, rf1, seconds, "RF 1"));
                three.add(throughput(conn, rf3, seconds, "RF 3"));
            }
            double m1 = median(one);
            double m3 = median(three);
            System.out.printf(
                    Locale.ROOT,
                    "append median: RF 1 %,.0f rows/s, RF 3 %,.0f rows/s: RF 3 / RF 1 = %.2f%n",
                    m1,
                    m3,
                    m3 / m1);
            conn.admin().dropTable(rf3, false);
            moves(conn, coordinator, rf1, moves, m1);

            List<Long> millis = new ArrayList<>();
            for (int f = 0; f < failovers; f++) {
                long ms = failover(conn, coordinator, f);
                if (ms >= 0) {
                    millis.add(ms);
                }
            }
            if (millis.isEmpty()) {
                System.out.printf(
                        Locale.ROOT,
                        "failover: no run kept of %d (every close() drained)%n",
                        failovers);
                return;
            }
            Collections.sort(millis);
            System.out.printf(
                    Locale.ROOT,
                    "failover (controlled shutdown %s, heartbeat timeout %s), leader stopped ->"
                            + " first acknowledged write (%d of %d; the others' close() took 1 s"
                            + " or more): p50 %d ms, p99 %d ms, all %s%n",
                    controlledShutdown,
                    heartbeatTimeout,
                    millis.size(),
                    failovers,
                    millis.get(millis.size() / 2),
                    millis.get(
                            Math.min(millis.size() - 1, (int) Math.ceil(millis.size() * 0.99) - 1)),
                    millis);
        }
    }

    /**
     * Drains the server holding most of {@code table}'s buckets, then rebalances them back, {@code
     * rounds} times; prints each move's copy rate against the RF 1 append rate.
     */
    private void moves(
            Connection conn, TributaryServer coordinator, TablePath table, int rounds, double rf1)
            throws Exception {
        if (rounds == 0) {
            return;
        }
        long tableId = coordinator.coordinator().describeTable(table).join().tableId();
        List<Double> rates = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            int busiest =
                    coordinator.coordinator().bucketAssignments().stream()
                            .filter(a -> a.tableId() == tableId)
                            .flatMap(a -> a.buckets().stream())
                            .collect(
                                    java.util.stream.Collectors.groupingBy(
                                            BucketReplicas::leader,
                                            java.util.stream.Collectors.counting()))
                            .entrySet()
                            .stream()
                            .max(Map.Entry.comparingByValue())
                            .orElseThrow()
                            .getKey();
            for (boolean drain : new boolean[] {true, false}) {
                // a drain copies the moved buckets the drained server holds; a rebalance what it
                // receives (a server keeps the copy of a bucket that moved away while it holds
                // other buckets of the table, so only the moved buckets count)
                Map<Integer, Long> before = bucketBytes(server(busiest), tableId);
                long start = clock.nanoTime();
                List<dev.tributary.coordinator.cluster.ReplicaMoves.Move> planned =
                        coordinator
                                .coordinator()
                                .moveReplicas(
                                        drain ? java.util.Set.of(busiest) : java.util.Set.of(),
                                        drain ? java.util.Set.of() : java.util.Set.of(busiest),
                                        false)
                                .join();
                waitFor(() -> coordinator.coordinator().replicationHealth().moving() == 0, 600_000);
                double secs = (clock.nanoTime() - start) / 1e9;
                Map<Integer, Long> sizes = drain ? before : bucketBytes(server(busiest), tableId);
                long moved =
                        planned.stream()
                                .mapToLong(m -> sizes.getOrDefault(m.bucket().bucket(), 0L))
                                .sum();
                double mbps = moved / secs / 1e6;
                rates.add(mbps);
                System.out.printf(
                        Locale.ROOT,
                        "move %d (%s server %d): %d buckets, %.1f MB in %.2f s = %.1f MB/s"
                                + " (RF 1 appends: %.1f MB/s, ratio %.2f)%n",
                        r,
                        drain ? "drain" : "rebalance onto",
                        busiest,
                        planned.size(),
                        moved / 1e6,
                        secs,
                        mbps,
                        rf1 * 100 / 1e6,
                        mbps / (rf1 * 100 / 1e6));
            }
        }
        System.out.printf(
                Locale.ROOT,
                "move median: %.1f MB/s; RF 1 appends %.1f MB/s%n",
                median(rates),
                rf1 * 100 / 1e6);
    }

    /** The bytes of each bucket's copy of a table on a server (none once deleted). */
    private static Map<Integer, Long> bucketBytes(TributaryServer server, long tableId) {
        Path table = server.dataDir().resolve("store/tables").resolve(Long.toString(tableId));
        Map<Integer, Long> out = new LinkedHashMap<>();
        try (java.util.stream.Stream<Path> buckets = Files.list(table)) {
            for (Path b : buckets.filter(Files::isDirectory).toList()) {
                try (java.util.stream.Stream<Path> files = Files.walk(b)) {
                    out.put(
                            Integer.parseInt(b.getFileName().toString()),
                            files.filter(Files::isRegularFile)
                                    .mapToLong(f -> f.toFile().length())
                                    .sum());
                }
            }
        } catch (java.io.IOException | java.io.UncheckedIOException | NumberFormatException e) {
            // no copy, or one being deleted: nothing to count
        }
        return out;
    }

    private double throughput(Connection conn, TablePath table, int seconds, String name) {
        long rows = 0;
        long start = clock.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        try (AppendWriter w = conn.appendWriter(table)) {
            while (clock.nanoTime() < end) {
                for (int i = 0; i < 1000; i++) {
                    w.append(Row.of(rows, rows, payloads[(int) (rows % payloads.length)]));
                    rows++;
                }
            }
            w.flush();
        }
        double secs = (clock.nanoTime() - start) / 1e9;
        double perSecond = rows / secs;
        System.out.printf(
                Locale.ROOT,
                "%s: %,d rows in %.1f s = %,.0f rows/s (~%.1f MB/s)%n",
                name,
                rows,
                secs,
                perSecond,
                perSecond * 100 / 1e6);
        return perSecond;
    }

    /** Stops the leader of a fresh table's bucket; returns ms to the first write acked after. */
    private long failover(Connection conn, TributaryServer coordinator, int round)
            throws Exception {
        TablePath table = null;
        long tableId = -1;
        for (int i = 0; table == null; i++) {
            TablePath p = TablePath.of("bench", "failover_" + round + "_" + i);
            table(conn, p.table(), 3, 1);
            long id = coordinator.coordinator().describeTable(p).join().tableId();
            if (server(leaderOf(coordinator, id).leader()) != coordinator) {
                table = p;
                tableId = id;
            }
        }
        long id = tableId;
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong stoppedAt = new AtomicLong(Long.MAX_VALUE);
        AtomicLong firstAckAfter = new AtomicLong(-1);
        TablePath target = table;
        Thread writer =
                new Thread(
                        () -> {
                            try (AppendWriter w = conn.appendWriter(target)) {
                                long n = 0;
                                while (!stop.get()) {
                                    long began = clock.nanoTime();
                                    try {
                                        w.append(Row.of(n, n, payloads[(int) (n % 1024)]));
                                        w.flush();
                                        n++;
                                        if (began >= stoppedAt.get() && firstAckAfter.get() < 0) {
                                            firstAckAfter.set(clock.nanoTime());
                                        }
                                    } catch (RuntimeException e) {
                                        // retried by the next iteration
                                    }
                                }
                            }
                        });
        writer.start();
        Thread.sleep(500);
        int leader = leaderOf(coordinator, id).leader();
        // counted from when close() returned: until then the server is alive and may still
        // acknowledge writes (a kill -9 ends it at once)
        long closing = clock.nanoTime();
        server(leader).close();
        stoppedAt.set(clock.nanoTime());
        waitFor(() -> firstAckAfter.get() > 0, 120_000);
        long ms = (firstAckAfter.get() - stoppedAt.get()) / 1_000_000;
        stop.set(true);
        writer.join();
        System.out.printf(
                Locale.ROOT,
                "failover %d: server %d stopped (close() took %d ms), %d ms%n",
                round,
                leader,
                (stoppedAt.get() - closing) / 1_000_000,
                ms);
        servers.set(servers.indexOf(server(leader)), start(leader));
        waitFor(() -> leaderOf(coordinator, id).isr().contains(leader), 120_000);
        // a close() that drained for a second or more let the failover happen before it returned:
        // nothing measured (a kill -9 has no such wait)
        return stoppedAt.get() - closing < SLOW_CLOSE_NANOS ? ms : -1;
    }

    private TablePath table(Connection conn, String name, int rf, int buckets) {
        TablePath p = TablePath.of("bench", name);
        conn.admin()
                .createTable(
                        p,
                        TableDescriptor.builder(LOG)
                                .bucketCount(buckets)
                                .property("table.replication.factor", Integer.toString(rf))
                                .build(),
                        false);
        return p;
    }

    private static BucketReplicas leaderOf(TributaryServer coordinator, long tableId) {
        return coordinator.coordinator().bucketAssignments().stream()
                .filter(a -> a.tableId() == tableId)
                .map(a -> a.replicasOf(0))
                .findFirst()
                .orElseThrow();
    }

    private TributaryServer server(int id) {
        return servers.stream()
                .filter(s -> s.dataDir().getFileName().toString().equals("server-" + id))
                .findFirst()
                .orElseThrow();
    }

    private TributaryServer start(int id) {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("server-" + id).toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("cluster.id", "bench");
        conf.setString("cluster.server-id", Integer.toString(id));
        conf.setString("cluster.voters", voters);
        conf.setString("cluster.election-timeout", "1s");
        conf.setString("cluster.server.heartbeat-interval", "200ms");
        conf.setString("cluster.server.heartbeat-timeout", heartbeatTimeout);
        conf.setString("replica.controlled-shutdown", Boolean.toString(controlledShutdown));
        extra.forEach(conf::setString);
        return TributaryServer.start(conf, clock, List.of());
    }

    private TributaryServer awaitCoordinator() throws InterruptedException {
        waitFor(() -> servers.stream().filter(TributaryServer::coordinates).count() == 1, 60_000);
        return servers.stream().filter(TributaryServer::coordinates).findFirst().orElseThrow();
    }

    private void waitFor(java.util.function.BooleanSupplier done, long timeoutMillis)
            throws InterruptedException {
        long deadline = clock.currentTimeMillis() + timeoutMillis;
        while (!done.getAsBoolean()) {
            if (clock.currentTimeMillis() > deadline) {
                throw new IllegalStateException("timed out after " + timeoutMillis + " ms");
            }
            Thread.sleep(20);
        }
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}

package dev.tributary.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.cli.TributaryCli;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T49 plan step 6: {@code tributary cluster start --servers 3} runs three real server processes;
 * rows written through the address list reach the shared lake exactly once; {@code kill -9} of the
 * coordinator's server makes another server coordinate, DDL keeps working through the same client
 * and the killed server shows EXPIRED; running the command again on the same directory restarts it,
 * and tiering carries on with every row exactly once; stopping the commands leaves no server
 * process. The table has three copies of each bucket (the cluster's default, T50): the killed
 * server's buckets keep in-sync leaders, and {@code tributary tiering status} shows every bucket
 * under-replicated until it is back and caught up.
 *
 * <p>Issue 23's moves, on the same processes: a table created while a server was dead has none of
 * its replicas there; back, {@code tributary cluster rebalance} moves replicas onto it while a
 * writer keeps writing, and {@code --drain} moves them all off again (refused, with one line, while
 * a bucket has nowhere else to go), and a last rebalance brings them back (new copies of what it
 * deleted); every acknowledged row is in the store and the lake exactly once throughout, and the
 * drained server deletes its copy.
 */
class ClusterStartITCase {
    private static final TablePath CLICKS = TablePath.of("db", "clicks");
    private static final TablePath MOVED = TablePath.of("db", "moved");
    private static final TablePath AFTER_DRAIN = TablePath.of("db", "after_drain");
    private static final int ROWS = 600;

    @TempDir Path dir;

    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private final List<RunningCommand> commands = new ArrayList<>();
    private final Set<Long> serverPids = new HashSet<>();

    @AfterEach
    void stopEverything() throws Exception {
        for (RunningCommand c : commands) {
            c.stop();
        }
        // only after a failed assertion: nothing may outlive the test
        for (long pid : serverPids) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    @DisplayName(
            "T49: cluster start runs 3 servers; kill -9 of the coordinator's server fails over,"
                    + " a re-run restarts it, the lake holds every row once")
    void killTheCoordinatorsServer() throws Exception {
        System.out.println("ClusterStartITCase seed: " + seed);
        Set<Integer> taken = new HashSet<>();
        Path base = dir.resolve("cluster");
        List<String> args =
                List.of(
                        "cluster",
                        "start",
                        "--servers",
                        "3",
                        "--data-dir",
                        base.toString(),
                        // a fourth port each for the server added at the end
                        "--raft-port",
                        Integer.toString(freeRange(4, taken)),
                        "--rpc-port",
                        Integer.toString(freeRange(4, taken)),
                        "--http-port",
                        Integer.toString(freeRange(4, taken)),
                        "--cluster-id",
                        "it",
                        // three JVM starts on a shared 2-core machine can take most of a minute
                        "--start-timeout",
                        "150s",
                        "--set",
                        "cluster.election-timeout=1s",
                        "--set",
                        "cluster.server.heartbeat-interval=200ms",
                        "--set",
                        "cluster.server.heartbeat-timeout=2s",
                        "--set",
                        "tiering.embedded.parallelism=1");
        long begin = System.nanoTime();
        RunningCommand first = start(args);
        phase("cluster started", begin);
        LocalClusterLayout layout = LocalClusterLayout.read(base).orElseThrow();
        assertThat(layout.servers()).isEqualTo(3);
        assertThat(first.out()).contains("addresses: " + layout.addressList());
        for (int id = 1; id <= 3; id++) {
            serverPids.add(pid(layout, id));
            assertThat(first.out()).contains("log " + layout.serverDir(id).resolve("server.out"));
        }

        try (Connection conn = Connection.open(layout.addressList())) {
            conn.admin().createDatabase("db", false);
            conn.admin().createTable(CLICKS, lakeTable(Map.of()), false);
            // no factor given: three copies of each bucket, one on every server (T50)
            assertThat(conn.admin().describeCluster().servers())
                    .as("six buckets, a copy of each on every server")
                    .allSatisfy(s -> assertThat(s.buckets()).isEqualTo(6));
            write(conn, CLICKS, 0, ROWS);
            awaitLakeExactly(layout, CLICKS, ROWS);
            phase("first rows in the lake", begin);

            int coordinator = conn.admin().describeCluster().coordinatorId().getAsInt();
            long killed = pid(layout, coordinator);
            long t0 = System.nanoTime();
            ProcessHandle.of(killed).orElseThrow().destroyForcibly();
            ClusterInfo after =
                    await().atMost(Duration.ofSeconds(30))
                            .pollInterval(Duration.ofMillis(100))
                            .ignoreExceptions()
                            .until(
                                    () -> conn.admin().describeCluster(),
                                    i ->
                                            i.coordinatorId().isPresent()
                                                    && i.coordinatorId().getAsInt() != coordinator);
            long failoverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            System.out.printf(
                    "ClusterStartITCase: kill -9 of server %d (the coordinator) -> server %d"
                            + " coordinates after %d ms%n",
                    coordinator, after.coordinatorId().getAsInt(), failoverMillis);
            // DDL through the same client, following the new coordinator (the quorum's new
            // leader answers NOT_COORDINATOR "starting its coordinator" for a moment)
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions()
                    .until(
                            () -> {
                                conn.admin().createDatabase("after", true);
                                return true;
                            });
            System.out.printf(
                    "ClusterStartITCase: first DDL through the address list after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            assertThat(conn.admin().listDatabases()).contains("db", "after");
            await().atMost(Duration.ofSeconds(20))
                    .ignoreExceptions()
                    .until(
                            () -> conn.admin().describeCluster(),
                            i ->
                                    i.servers().stream()
                                            .anyMatch(
                                                    s ->
                                                            s.serverId() == coordinator
                                                                    && s.liveness()
                                                                            == ClusterInfo.Liveness
                                                                                    .EXPIRED));
            await().atMost(Duration.ofSeconds(10))
                    .until(
                            () ->
                                    first.err()
                                            .contains(
                                                    "server "
                                                            + coordinator
                                                            + " (pid "
                                                            + killed
                                                            + ") exited with code 137"));
            assertThat(first.finished()).as("the command keeps the others running").isFalse();
            // its buckets have in-sync leaders on the others; tiering status says it is out of
            // every in-sync set
            await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> tieringStatus(layout),
                            out ->
                                    out.contains(
                                            "db.clicks: replicas: 3 per bucket, 6 buckets,"
                                                    + " 6 under-replicated, 0 without a"
                                                    + " leader"));

            // created while a server is dead: two copies of each bucket, none on the dead server
            conn.admin()
                    .createTable(MOVED, lakeTable(Map.of("table.replication.factor", "2")), false);
            write(conn, MOVED, 0, ROWS);

            // the same command on the same directory starts only the killed server, same ports
            RunningCommand again = start(args);
            phase("killed server restarted", begin);
            assertThat(again.err()).contains("already running, left to the command");
            long restarted = pid(layout, coordinator);
            serverPids.add(restarted);
            assertThat(restarted).isNotEqualTo(killed);
            assertThat(again.out())
                    .contains("127.0.0.1:" + layout.rpcPort(coordinator))
                    .doesNotContain("EXPIRED");

            // tiering carries on (server 1's job, restarted with it if it was the one killed)
            write(conn, CLICKS, ROWS, ROWS);
            awaitLakeExactly(layout, CLICKS, 2 * ROWS);
            // back, the server copied what it missed and is in every in-sync set again
            await().atMost(Duration.ofSeconds(60))
                    .until(
                            () -> tieringStatus(layout),
                            out -> out.contains("db.clicks: replicas: 3 per bucket, 6 buckets, 0"));
            phase("all rows in the lake", begin);

            moveReplicas(conn, layout, coordinator);
            phase("replicas moved onto the returned server and drained off it", begin);

            addServer(conn, args);
            phase("a fourth server added and given replicas", begin);
        }

        for (RunningCommand c : commands) {
            assertThat(c.stop()).as("exit code, stderr: %s", c.err()).isZero();
        }
        for (long pid : serverPids) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .as("server process %d is gone", pid)
                    .isFalse();
        }
        LocalClusterLayout atEnd = LocalClusterLayout.read(base).orElseThrow();
        for (int id = 1; id <= atEnd.servers(); id++) {
            assertThat(atEnd.serverDir(id).resolve("server.pid")).doesNotExist();
        }
        phase("stopped", begin);
    }

    /**
     * Issue 23: the returned server {@code back} holds clicks' replicas (three copies on three
     * servers) and none of moved's; a rebalance moves four of moved's twelve onto it while rows are
     * written, a drain takes them all off again once nothing else needs it.
     */
    private void moveReplicas(Connection conn, LocalClusterLayout layout, int back)
            throws Exception {
        String address = layout.addressList();
        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(
                        () -> conn.admin().describeCluster().servers(),
                        servers ->
                                servers.stream()
                                        .allMatch(
                                                s ->
                                                        s.liveness() == ClusterInfo.Liveness.ALIVE
                                                                && s.buckets()
                                                                        == (s.serverId() == back
                                                                                ? 6
                                                                                : 12)));
        CliRun dry = cli("cluster", "rebalance", "--dry-run", "--address", address);
        assertThat(dry.code()).as(dry.toString()).isZero();
        assertThat(dry.out()).startsWith("4 buckets would move (dry run, nothing started):");
        assertThat(conn.admin().describeCluster().replication().orElseThrow().moving()).isZero();

        // a writer keeps writing through the moves; the idempotent writer retries what a leader
        // change cut
        FutureTask<Void> writer =
                new FutureTask<>(
                        () -> {
                            try (Connection own = Connection.open(address)) {
                                for (int i = 0; i < 10; i++) {
                                    write(own, MOVED, ROWS + i * (ROWS / 10L), ROWS / 10);
                                }
                            }
                            return null;
                        });
        new Thread(writer, "writer-during-moves").start();
        CliRun moved = cli("cluster", "rebalance", "--address", address);
        assertThat(moved.code()).as(moved.toString()).isZero();
        List<String> lines = moved.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("4 buckets moving:");
        assertThat(lines.subList(2, lines.size()))
                .hasSize(4)
                .allSatisfy(
                        l ->
                                assertThat(l)
                                        .startsWith("db.moved")
                                        .containsPattern("[\\[ ]" + back + "[\\],]"));
        awaitLoad(conn, id -> 10);
        writer.get(120, TimeUnit.SECONDS);
        assertStoreExactly(conn, MOVED, 2 * ROWS);
        awaitLakeExactly(layout, MOVED, 2 * ROWS);

        // clicks has a copy on every server: it has nowhere to go, and nothing is started
        CliRun refused =
                cli("cluster", "rebalance", "--drain", Integer.toString(back), "-a", address);
        assertThat(refused.code()).as(refused.toString()).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(refused.err())
                .startsWith("error: ")
                .contains("add a server first")
                .doesNotContain("\tat ");
        assertThat(conn.admin().describeCluster().replication().orElseThrow().moving()).isZero();

        long movedId = conn.admin().describeTable(MOVED).tableId();
        Path movedCopy =
                layout.serverDir(back).resolve("store/tables").resolve(Long.toString(movedId));
        assertThat(movedCopy).isDirectory();
        conn.admin().dropTable(CLICKS, false);
        CliRun drained =
                cli("cluster", "rebalance", "--drain", Integer.toString(back), "-a", address);
        assertThat(drained.code()).as(drained.toString()).isZero();
        assertThat(drained.out()).startsWith("4 buckets moving:");
        awaitLoad(conn, id -> id == back ? 0 : 6);
        await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(movedCopy));
        write(conn, MOVED, 2 * ROWS, ROWS);
        assertStoreExactly(conn, MOVED, 3 * ROWS);
        awaitLakeExactly(layout, MOVED, 3 * ROWS);

        // it stays drained: a rebalance puts nothing back; undrained, the server makes new copies
        // of the buckets it deleted
        CliRun cluster = cli("cluster", "-a", address);
        assertThat(cluster.out().lines().filter(l -> l.contains(" draining ")))
                .singleElement()
                .satisfies(l -> assertThat(l).startsWith(back + " "));
        CliRun stays = cli("cluster", "rebalance", "-a", address);
        assertThat(stays.out()).as(stays.toString()).startsWith("nothing to move");
        CliRun back2 =
                cli("cluster", "rebalance", "--undrain", Integer.toString(back), "-a", address);
        assertThat(back2.code()).as(back2.toString()).isZero();
        assertThat(back2.out()).startsWith("4 buckets moving:");
        awaitLoad(conn, id -> 4);
        assertThat(movedCopy).isDirectory();
        assertStoreExactly(conn, MOVED, 3 * ROWS);
    }

    /**
     * Issue 23: the same command with {@code --servers 4} adds a fourth server to the running
     * cluster, as an observer of the metadata quorum (which stays the three voters); a rebalance
     * moves replicas onto it and rows written afterwards are in the store and the lake once.
     */
    private void addServer(Connection conn, List<String> args) throws Exception {
        List<String> four = new ArrayList<>(args);
        four.set(four.indexOf("--servers") + 1, "4");
        RunningCommand added = start(four);
        LocalClusterLayout layout =
                LocalClusterLayout.read(Path.of(args.get(args.indexOf("--data-dir") + 1)))
                        .orElseThrow();
        assertThat(layout.servers()).isEqualTo(4);
        assertThat(layout.voterCount()).isEqualTo(3);
        serverPids.add(pid(layout, 4));
        assertThat(added.err()).contains("already running, left to the command");
        assertThat(added.out()).contains("127.0.0.1:" + layout.rpcPort(4));

        // moved: six buckets, two copies each, four per server; three go to the new server
        String address = layout.addressList();
        CliRun rebalanced = cli("cluster", "rebalance", "-a", address);
        assertThat(rebalanced.code()).as(rebalanced.toString()).isZero();
        assertThat(rebalanced.out()).startsWith("3 buckets moving:");
        awaitLoad(conn, id -> 3);
        write(conn, MOVED, 3 * ROWS, ROWS);
        assertStoreExactly(conn, MOVED, 4 * ROWS);
        awaitLakeExactly(layout, MOVED, 4 * ROWS);
        ClusterInfo info = conn.admin().describeCluster();
        assertThat(info.coordinatorId().getAsInt())
                .as("an observer never coordinates")
                .isNotEqualTo(4);
        assertThat(info.servers())
                .hasSize(4)
                .allSatisfy(s -> assertThat(s.liveness()).isEqualTo(ClusterInfo.Liveness.ALIVE))
                .allSatisfy(s -> assertThat(s.observer()).isEqualTo(s.serverId() == 4));
        CliRun cluster = cli("cluster", "-a", address);
        assertThat(cluster.out().lines().filter(l -> l.contains(" observer ")))
                .singleElement()
                .satisfies(l -> assertThat(l).startsWith("4 "));

        // and out again: refused for a voter and while it runs; drained and stopped, it goes
        assertRefused(cli("cluster", "remove-server", "1", "-a", address), "is a voter");
        assertRefused(cli("cluster", "remove-server", "4", "-a", address), "is alive");
        CliRun drained = cli("cluster", "rebalance", "--drain", "4", "-a", address);
        assertThat(drained.out()).as(drained.toString()).startsWith("3 buckets moving:");
        awaitLoad(conn, id -> id == 4 ? 0 : 4);
        // a table created now places nothing on the draining server, which can still go
        conn.admin().createTable(AFTER_DRAIN, plainTable(), false);
        awaitLoad(conn, id -> id == 4 ? 0 : 8);
        assertThat(added.stop()).as("exit code, stderr: %s", added.err()).isZero();
        await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> conn.admin().describeCluster().servers(),
                        servers ->
                                servers.stream()
                                        .anyMatch(
                                                s ->
                                                        s.serverId() == 4
                                                                && s.liveness()
                                                                        == ClusterInfo.Liveness
                                                                                .EXPIRED));
        CliRun removed = cli("cluster", "remove-server", "4", "-a", address);
        assertThat(removed.code()).as(removed.toString()).isZero();
        assertThat(removed.out()).contains("server 4 removed from the cluster");
        assertThat(conn.admin().describeCluster().servers())
                .extracting(ClusterInfo.Server::serverId)
                .containsExactlyInAnyOrder(1, 2, 3);
        assertStoreExactly(conn, MOVED, 4 * ROWS);

        // and out of the directory's layout, so that no later start brings it back
        List<String> three = new ArrayList<>(args);
        three.set(three.indexOf("--servers") + 1, "3");
        CliRun shrunk = cli(three.toArray(String[]::new));
        assertThat(shrunk.code()).as(shrunk.toString()).isZero();
        assertThat(shrunk.out()).startsWith("left server 4 out of the cluster in ");
        assertThat(LocalClusterLayout.read(layout.base()).orElseThrow().servers()).isEqualTo(3);
    }

    private static void assertRefused(CliRun run, String why) {
        assertThat(run.code()).as(run.toString()).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(run.err()).startsWith("error: ").contains(why).doesNotContain("\tat ");
    }

    /** Waits until no bucket moves and each server holds the replicas {@code load} says. */
    private static void awaitLoad(Connection conn, java.util.function.IntUnaryOperator load) {
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(
                        () -> conn.admin().describeCluster(),
                        i ->
                                i.replication().orElseThrow().moving() == 0
                                        && i.servers().stream()
                                                .allMatch(
                                                        s ->
                                                                s.buckets()
                                                                        == load.applyAsInt(
                                                                                s.serverId())));
    }

    /** Every bucket of {@code table} read from its leader holds ids 0..n-1, each exactly once. */
    private void assertStoreExactly(Connection conn, TablePath table, int n) {
        LogScanner scanner = conn.logScanner(table);
        List<Long> ids = new ArrayList<>();
        for (int b = 0; b < scanner.table().descriptor().bucketCount(); b++) {
            scanner.readAll(b).forEach(r -> ids.add(r.row().getLong(0)));
        }
        assertThat(ids)
                .as("store ids of %s, each once (seed %d)", table, seed)
                .hasSize(n)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, n).boxed().collect(Collectors.toList()));
    }

    /** Six buckets of (id, name), tiered within a second, with {@code extra} properties. */
    private static TableDescriptor lakeTable(Map<String, String> extra) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT())
                                .column("name", DataTypes.STRING())
                                .build())
                .bucketCount(6)
                .bucketKeys("id")
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "1s")
                .properties(extra)
                .build();
    }

    /** Six buckets of (id), two copies each, not tiered. */
    private static TableDescriptor plainTable() {
        return TableDescriptor.builder(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                .bucketCount(6)
                .property("table.replication.factor", "2")
                .build();
    }

    record CliRun(int code, String out, String err) {}

    private static CliRun cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = TributaryCli.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new CliRun(code, out.toString(), err.toString());
    }

    /** {@code tributary tiering status} against the cluster, as a user runs it. */
    private static String tieringStatus(LocalClusterLayout layout) {
        CliRun r = cli("tiering", "status", "--address", layout.addressList());
        return r.code() == 0 ? r.out() : "exit " + r.code() + ": " + r.err();
    }

    private static void phase(String what, long begin) {
        System.out.printf(
                "ClusterStartITCase: %s at %d ms%n",
                what, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
    }

    private RunningCommand start(List<String> args) {
        RunningCommand c = new RunningCommand(args);
        commands.add(c);
        await().atMost(Duration.ofSeconds(160))
                .until(() -> c.finished() || c.out().contains("running; Ctrl-C"));
        assertThat(c.finished()).as("the command still runs; stderr: %s", c.err()).isFalse();
        return c;
    }

    private void write(Connection conn, TablePath table, long from, int count) throws Exception {
        try (AppendWriter w = conn.appendWriter(table)) {
            for (long id = from; id < from + count; id++) {
                w.append(Row.of(id, "click-" + random.nextInt(1000)));
            }
            w.flush();
        }
    }

    /** Waits until the Paimon table holds ids 0..n-1, each exactly once. */
    private void awaitLakeExactly(LocalClusterLayout layout, TablePath table, int n) {
        List<Long> ids =
                await().atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(500))
                        .ignoreExceptions()
                        .until(() -> lakeIds(layout.lake(), table), l -> l.size() >= n);
        assertThat(ids)
                .as("lake ids of %s, each once (seed %d)", table, seed)
                .hasSize(n)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, n).boxed().collect(Collectors.toList()));
    }

    private static List<Long> lakeIds(Path warehouse, TablePath path) throws Exception {
        Options options =
                Options.fromMap(
                        Map.of(
                                "warehouse",
                                warehouse.toUri().toString(),
                                "cache-enabled",
                                "false"));
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
            int idField = table.rowType().getFieldIndex("id");
            ReadBuilder rb = table.newReadBuilder();
            List<Long> out = new ArrayList<>();
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan().splits())) {
                reader.forEachRemaining(r -> out.add(r.getLong(idField)));
            }
            return out;
        }
    }

    private static long pid(LocalClusterLayout layout, int id) throws IOException {
        return Long.parseLong(Files.readString(layout.serverDir(id).resolve("server.pid")).trim());
    }

    /**
     * The first of {@code count} consecutive free loopback ports, none of them in taken, below the
     * kernel's ephemeral range: a port in it can be taken as the local end of any outgoing
     * connection (the first server's own Raft and gRPC calls) before the server meant to listen on
     * it starts.
     */
    private static int freeRange(int count, Set<Integer> taken) throws IOException {
        int below = ephemeralLow();
        // spread by process id, so parallel builds on one machine start in different places
        long spread = ProcessHandle.current().pid() * 31;
        for (int attempt = 0; attempt < 100; attempt++) {
            int first;
            if (below > 20_000 + count) {
                first = 20_000 + (int) ((spread + attempt * 97L) % (below - 20_000 - count));
            } else {
                try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                    first = s.getLocalPort();
                }
            }
            boolean ok = first + count - 1 <= 65535;
            for (int p = first; ok && p < first + count; p++) {
                ok = !taken.contains(p) && free(p);
            }
            if (ok) {
                for (int p = first; p < first + count; p++) {
                    taken.add(p);
                }
                return first;
            }
        }
        throw new IOException("no " + count + " consecutive free ports");
    }

    /** The lowest ephemeral port, or 0 when the kernel does not say. */
    private static int ephemeralLow() {
        try {
            // line by line: readString and readAllBytes trust the size procfs reports and can
            // return a truncated "3" for "32768 60999"
            String range =
                    Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0);
            return Integer.parseInt(range.trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code tributary ...} in this JVM on its own thread, stopped by an interrupt (Ctrl-C). */
    private static final class RunningCommand {
        private final StringWriter out = new StringWriter();
        private final StringWriter err = new StringWriter();
        private final FutureTask<Integer> task;
        private final Thread thread;

        RunningCommand(List<String> args) {
            task =
                    new FutureTask<>(
                            () ->
                                    TributaryCli.execute(
                                            args.toArray(String[]::new),
                                            new PrintWriter(out, true),
                                            new PrintWriter(err, true)));
            thread = new Thread(task, "cluster-start");
            thread.start();
        }

        String out() {
            return out.toString();
        }

        String err() {
            return err.toString();
        }

        boolean finished() {
            return task.isDone();
        }

        /** Interrupts the command and returns its exit code. */
        int stop() throws Exception {
            thread.interrupt();
            return task.get(90, TimeUnit.SECONDS);
        }
    }
}

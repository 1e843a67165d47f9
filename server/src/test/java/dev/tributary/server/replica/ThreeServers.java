package dev.tributary.server.replica;

import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.testing.LoopbackPorts;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.server.TributaryServer;
import dev.tributary.storage.log.LogBucket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Servers 1 to 3 of one cluster, real {@link TributaryServer}s in this JVM over loopback, each with
 * its data directory {@code server-<id>} under one directory and the same manual clock: what the
 * replication tests start, stop, wipe and restart.
 */
final class ThreeServers implements AutoCloseable {
    private final Path dir;
    private final ManualClock clock;
    private final List<TributaryServer> servers = new ArrayList<>();
    private final Map<String, String> options = new HashMap<>();

    private String voters;

    ThreeServers(Path dir, ManualClock clock) {
        this.dir = dir;
        this.clock = clock;
        controlledShutdown(true);
    }

    /**
     * Whether servers started from now on hand their buckets over when they stop; off, a stop is
     * what a crash costs the others.
     */
    ThreeServers controlledShutdown(boolean on) {
        return option("replica.controlled-shutdown", Boolean.toString(on));
    }

    /** An option of the servers started from now on. */
    ThreeServers option(String key, String value) {
        options.put(key, value);
        return this;
    }

    /** Starts servers 1 to 3; returns the one that coordinates. */
    TributaryServer startThree() throws Exception {
        Set<Integer> ports = new LinkedHashSet<>();
        while (ports.size() < 3) {
            ports.add(LoopbackPorts.free());
        }
        Iterator<Integer> port = ports.iterator();
        voters =
                "1@127.0.0.1:"
                        + port.next()
                        + ",2@127.0.0.1:"
                        + port.next()
                        + ",3@127.0.0.1:"
                        + port.next();
        for (int id = 1; id <= 3; id++) {
            servers.add(start(id, "0"));
        }
        return awaitOneCoordinator();
    }

    /** Starts server {@code id} again (a stopped one, or one whose directory was wiped). */
    TributaryServer restart(int id) {
        return restart(id, "0");
    }

    /** Starts server {@code id} again on {@code rpcPort} ("0": any free port). */
    TributaryServer restart(int id, String rpcPort) {
        TributaryServer old = server(id);
        TributaryServer started = start(id, rpcPort);
        servers.set(servers.indexOf(old), started);
        return started;
    }

    private TributaryServer start(int id, String rpcPort) {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dataDir(id).toString());
        conf.setString("server.rpc.port", rpcPort);
        conf.setString("server.http.port", "0");
        conf.setString("cluster.id", "replicated");
        conf.setString("cluster.server-id", Integer.toString(id));
        conf.setString("cluster.voters", voters);
        conf.setString("cluster.election-timeout", "1s");
        conf.setString("cluster.server.heartbeat-interval", "200ms");
        conf.setString("replica.lag.time.max", "5s");
        options.forEach(conf::setString);
        return TributaryServer.start(conf, clock, List.of());
    }

    /** Server {@code id}'s data directory. */
    Path dataDir(int id) {
        return dir.resolve("server-" + id);
    }

    /** The three servers as last started (some may be stopped). */
    List<TributaryServer> all() {
        return List.copyOf(servers);
    }

    TributaryServer server(int id) {
        return servers.stream()
                .filter(s -> s.dataDir().getFileName().toString().equals("server-" + id))
                .findFirst()
                .orElseThrow();
    }

    static int serverId(TributaryServer s) {
        return Integer.parseInt(s.dataDir().getFileName().toString().substring("server-".length()));
    }

    /** Waits until exactly one running server coordinates and returns it. */
    TributaryServer awaitOneCoordinator() {
        return await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> {
                            List<TributaryServer> c =
                                    servers.stream().filter(TributaryServer::coordinates).toList();
                            return c.size() == 1 ? c.get(0) : null;
                        },
                        s -> s != null);
    }

    /**
     * Moves the clock a second at a time, {@code seconds} times, each step once every server but
     * {@code silent} beat again: the others stay alive while {@code silent} falls behind.
     */
    void advanceWhileOthersBeat(TributaryServer coordinator, int silent, int seconds) {
        for (int step = 0; step < seconds; step++) {
            clock.advance(Duration.ofSeconds(1));
            await().atMost(Duration.ofSeconds(30))
                    .until(
                            () ->
                                    coordinator.coordinator().serverLiveness().join().stream()
                                                    .filter(
                                                            v ->
                                                                    v.serverId() != silent
                                                                            && v.millisSinceHeartbeat()
                                                                                    .map(
                                                                                            ms ->
                                                                                                    ms
                                                                                                            < 1000)
                                                                                    .orElse(false))
                                                    .count()
                                            == 2);
        }
    }

    /**
     * Creates tables {@code db.<prefix>0}, {@code db.<prefix>1}, ... like {@code descriptor} until
     * one's bucket 0 is led by a server {@code leads} accepts (leadership rotates, so one of three
     * at the latest), once all three servers registered.
     */
    TablePath tableLedBy(
            Connection conn,
            TributaryServer coordinator,
            String prefix,
            TableDescriptor descriptor,
            IntPredicate leads) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> conn.admin().describeCluster().servers().size() == 3);
        conn.admin().createDatabase("db", true);
        for (int i = 0; i < 3; i++) {
            TablePath p = TablePath.of("db", prefix + i);
            conn.admin().createTable(p, descriptor, false);
            long id = coordinator.coordinator().describeTable(p).join().tableId();
            if (leads.test(replicasOf(coordinator, id).leader())) {
                return p;
            }
        }
        throw new AssertionError("three tables in a row led by other servers than wanted");
    }

    /** Like {@link #tableLedBy}, led by a server that does not coordinate (T49's case aside). */
    TablePath tableLedByAnotherServer(
            Connection conn, TributaryServer coordinator, String prefix, TableDescriptor d) {
        return tableLedBy(conn, coordinator, prefix, d, id -> server(id) != coordinator);
    }

    /** The replicas of the table's bucket 0, as the coordinator's metadata has them. */
    static BucketReplicas replicasOf(TributaryServer coordinator, long tableId) {
        return coordinator.coordinator().bucketAssignments().stream()
                .filter(a -> a.tableId() == tableId)
                .map((BucketAssignment a) -> a.replicasOf(0))
                .findFirst()
                .orElseThrow();
    }

    static LogBucket logOf(TributaryServer s, TableBucket bucket) {
        return s.store().replicaLog(bucket);
    }

    @Override
    public void close() {
        servers.forEach(TributaryServer::close);
    }
}

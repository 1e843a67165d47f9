package dev.tributary.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.Row;
import dev.tributary.common.testing.LoopbackPorts;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.AdminServiceGrpc;
import dev.tributary.rpc.proto.ListDatabasesRequest;
import dev.tributary.server.TributaryServer;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T49: three real servers of one cluster, in one JVM over loopback (Raft, gRPC and heartbeats are
 * the production paths): the quorum's leader coordinates, the others register through their
 * heartbeats and answer coordinator calls by naming it, a table's buckets are spread over the
 * three, and when the coordinator's server stops another server takes over with a newer incarnation
 * and the same tables.
 */
class ThreeVoterClusterITCase {
    @TempDir Path dir;

    private static final TablePath SPREAD = TablePath.of("db", "spread");

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final List<TributaryServer> servers = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();

    @AfterEach
    void stopAll() {
        connections.forEach(Connection::close);
        servers.forEach(TributaryServer::close);
    }

    @Test
    @DisplayName(
            "T49: the leader coordinates, followers refuse coordinator calls naming it, buckets"
                    + " spread over three servers, a stopped coordinator is replaced")
    void coordinatorFollowsTheQuorum() throws Exception {
        int[] raftPorts = {LoopbackPorts.free(), LoopbackPorts.free(), LoopbackPorts.free()};
        String voters =
                "1@127.0.0.1:"
                        + raftPorts[0]
                        + ",2@127.0.0.1:"
                        + raftPorts[1]
                        + ",3@127.0.0.1:"
                        + raftPorts[2];
        for (int id = 1; id <= 3; id++) {
            servers.add(start(id, voters));
        }
        TributaryServer first = awaitOneCoordinator(servers);
        long firstIncarnation = first.coordinator().incarnation();
        try (Connection conn = Connection.open(first.rpcTarget())) {
            ClusterInfo info = awaitAllAlive(conn, 3);
            assertThat(info.coordinatorId()).hasValue(serverId(first));
            assertThat(info.servers())
                    .extracting(ClusterInfo.Server::rpcAddress)
                    .containsExactlyInAnyOrderElementsOf(
                            servers.stream().map(TributaryServer::advertisedRpcAddress).toList());

            conn.admin().createDatabase("db", true);
            conn.admin()
                    .createTable(
                            SPREAD,
                            TableDescriptor.builder(
                                            Schema.newBuilder()
                                                    .column("id", DataTypes.INT())
                                                    .build())
                                    .bucketCount(6)
                                    .bucketKeys("id")
                                    // one copy: where the buckets go is what is checked
                                    .property("table.replication.factor", "1")
                                    .build(),
                            false);
            assertThat(first.coordinator().bucketsPerServer())
                    .as("six buckets, two per server")
                    .isEqualTo(Map.of(1, 2, 2, 2, 3, 2));

            // tables with fewer buckets than servers: one server each, most of them not the
            // coordinator's, which still creates them, keeps their lake tables and reports them
            for (int i = 0; i < 3; i++) {
                TablePath single = TablePath.of("db", "single" + i);
                conn.admin()
                        .createTable(
                                single,
                                TableDescriptor.builder(
                                                Schema.newBuilder()
                                                        .column("id", DataTypes.INT())
                                                        .build())
                                        .bucketCount(1)
                                        .property("table.replication.factor", "1")
                                        .property("table.datalake.enabled", "true")
                                        .build(),
                                false);
                assertThat(conn.admin().tieringStatus(single).path()).isEqualTo(single);
            }
            assertThat(first.coordinator().bucketsPerServer())
                    .as("balanced by count")
                    .isEqualTo(Map.of(1, 3, 2, 3, 3, 3));
        }
        long tableId =
                first.coordinator().describeTable(TablePath.of("db", "spread")).join().tableId();
        for (TributaryServer s : servers) {
            // every server follows the metadata and opens the table for its buckets
            await().atMost(Duration.ofSeconds(30)).until(() -> s.store().hasTable(tableId));
        }

        TributaryServer follower = servers.stream().filter(s -> s != first).findFirst().get();
        assertThat(follower.coordinates()).isFalse();
        // over raw gRPC a follower refuses a coordinator call, naming the coordinator to follow
        ManagedChannel raw =
                NettyChannelBuilder.forTarget(follower.rpcTarget()).usePlaintext().build();
        try {
            Throwable refused =
                    catchThrowable(
                            () ->
                                    AdminServiceGrpc.newBlockingStub(raw)
                                            .withDeadlineAfter(10, TimeUnit.SECONDS)
                                            .listDatabases(
                                                    ListDatabasesRequest.getDefaultInstance()));
            assertThat(GrpcErrors.fromThrowable(refused))
                    .isInstanceOfSatisfying(
                            NotCoordinatorException.class,
                            e -> {
                                assertThat(e).hasMessageContaining("not the cluster's coordinator");
                                assertThat(e.leaderId())
                                        .contains(Integer.toString(serverId(first)));
                                assertThat(e.leaderAddress())
                                        .contains(first.advertisedRpcAddress());
                            });
        } finally {
            raw.shutdownNow();
        }

        // a client connected to a follower follows the coordinator for DDL and each bucket's
        // server for writes and reads: every row lands once, on the server that holds its bucket
        int rows = 600;
        try (Connection conn = Connection.open(follower.rpcTarget())) {
            assertThat(conn.admin().listTables("db")).contains("spread");
            try (AppendWriter w = conn.appendWriter(SPREAD)) {
                for (int i = 0; i < rows; i++) {
                    w.append(Row.of(i));
                }
                w.flush();
            }
            LogScanner scanner = conn.logScanner(SPREAD);
            Map<Integer, Long> ends = scanner.endOffsets();
            assertThat(ends).hasSize(6);
            assertThat(ends.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(rows);
            Set<Integer> ids = new HashSet<>();
            for (int bucket = 0; bucket < 6; bucket++) {
                for (LogRecord r : scanner.readAll(bucket)) {
                    assertThat(ids.add(r.row().getInt(0))).as("row %s once", r.row()).isTrue();
                }
            }
            assertThat(ids).hasSize(rows);
        }
        for (TributaryServer s : servers) {
            long here = 0;
            for (int bucket = 0; bucket < 6; bucket++) {
                here += s.store().endOffset(new TableBucket(tableId, bucket));
            }
            assertThat(here)
                    .as("server %s holds the rows of its two buckets", serverId(s))
                    .isPositive();
        }

        // the coordinator's server stops: another voter leads and coordinates, with the tables
        List<TributaryServer> rest =
                servers.stream().filter(s -> s != first).collect(Collectors.toList());
        // a client of another server whose coordinator calls follow the coordinator's server
        Connection kept = Connection.open(rest.get(0).rpcTarget());
        connections.add(kept);
        assertThat(kept.admin().listDatabases()).contains("db");
        first.close();
        TributaryServer second = awaitOneCoordinator(rest);
        assertThat(second.coordinator().incarnation()).isGreaterThan(firstIncarnation);
        for (TributaryServer s : rest) {
            try (Connection fresh = Connection.open(s.rpcTarget())) {
                await().atMost(Duration.ofSeconds(30))
                        .ignoreExceptions()
                        .until(() -> fresh.admin().describeCluster().coordinatorId().isPresent());
            }
        }
        // its next call finds the dead server unreachable and goes on at its bootstrap server,
        // which answers or names the new coordinator: the caller sees no failure
        assertThat(kept.admin().listDatabases()).contains("db");
        try (Connection conn = Connection.open(second.rpcTarget())) {
            assertThat(conn.admin().listTables("db")).contains("spread");
            ClusterInfo info = conn.admin().describeCluster();
            assertThat(info.coordinatorId()).hasValue(serverId(second));
            // the remaining follower's heartbeats found the new coordinator
            int other = serverId(rest.get(0) == second ? rest.get(1) : rest.get(0));
            await().atMost(Duration.ofSeconds(30))
                    .until(
                            () ->
                                    second.coordinator().serverLiveness().join().stream()
                                            .anyMatch(
                                                    v ->
                                                            v.serverId() == other
                                                                    && v.instanceId().isPresent()));
            conn.admin().createDatabase("after", false);
            assertThat(conn.admin().listDatabases()).contains("db", "after");
        }
        TributaryServer last = rest.get(0) == second ? rest.get(1) : rest.get(0);
        try (Connection conn = Connection.open(last.rpcTarget())) {
            // a client of the remaining follower follows the new coordinator
            assertThat(conn.admin().listDatabases()).contains("db", "after");
        }
    }

    private TributaryServer start(int id, String voters) {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("server-" + id).toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("cluster.id", "three");
        conf.setString("cluster.server-id", Integer.toString(id));
        conf.setString("cluster.voters", voters);
        conf.setString("cluster.election-timeout", "1s");
        conf.setString("cluster.server.heartbeat-interval", "200ms");
        return TributaryServer.start(conf, clock, List.of());
    }

    private static TributaryServer awaitOneCoordinator(List<TributaryServer> candidates) {
        return await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> {
                            List<TributaryServer> c =
                                    candidates.stream()
                                            .filter(TributaryServer::coordinates)
                                            .toList();
                            return c.size() == 1 ? c.get(0) : null;
                        },
                        s -> s != null);
    }

    private static ClusterInfo awaitAllAlive(Connection conn, int count) {
        return await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> conn.admin().describeCluster(),
                        info ->
                                info.servers().size() == count
                                        && info.servers().stream()
                                                .allMatch(
                                                        s ->
                                                                s.liveness()
                                                                        == ClusterInfo.Liveness
                                                                                .ALIVE));
    }

    private static int serverId(TributaryServer s) {
        return Integer.parseInt(s.dataDir().getFileName().toString().substring("server-".length()));
    }
}

package dev.tributary.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.testing.LoopbackPorts;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.cluster.LivenessState;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.ClusterServiceGrpc;
import dev.tributary.rpc.proto.ServerHeartbeatRequest;
import dev.tributary.rpc.proto.ServerHeartbeatResponse;
import dev.tributary.server.TributaryServer;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T49: a server registers itself in its coordinator metadata once its endpoints are bound, and
 * {@code DescribeCluster} / {@code /api/cluster} show the registered servers and who coordinates,
 * for a lone server and for a cluster of one; a restart on another port replaces the registration.
 */
class ClusterMembershipITCase {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    private static TableDescriptor.Builder table(int buckets) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.INT())
                                .column("dt", DataTypes.STRING())
                                .build())
                .bucketCount(buckets);
    }

    @Test
    @DisplayName(
            "a lone server shows itself, server 0, as coordinator; a restart moves its address")
    void loneServer() throws Exception {
        int firstPort = LoopbackPorts.free();
        try (TributaryServer server = start(firstPort, Map.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            ClusterInfo info = describeOnceAlive(conn);
            assertThat(info.clusterId()).isEmpty();
            assertThat(info.clustered()).isFalse();
            assertThat(info.coordinatorId()).hasValue(0);
            assertThat(info.raftTerm()).isEmpty();
            assertThat(info.raftLeaderId()).isEmpty();
            assertThat(info.replication()).hasValue(new ClusterInfo.Replication(0, 0, 0, 0, 0));
            assertThat(info.servers())
                    .containsExactly(
                            new ClusterInfo.Server(
                                    0,
                                    server.rpcTarget(),
                                    httpAddress(server),
                                    clock.currentTimeMillis(),
                                    true,
                                    false,
                                    false,
                                    ClusterInfo.Liveness.ALIVE,
                                    // the manual clock stands still: the last heartbeat is "now"
                                    OptionalLong.of(0),
                                    0,
                                    0));
            assertThat(server.rpcPort()).isEqualTo(firstPort);

            JsonNode json = apiCluster(server);
            assertThat(json.get("clusterId").asText()).isEmpty();
            assertThat(json.get("coordinatorId").asInt()).isZero();
            assertThat(json.get("raftTerm").isNull()).isTrue();
            assertThat(json.get("servers")).hasSize(1);
            JsonNode row = json.get("servers").get(0);
            assertThat(row.get("serverId").asInt()).isZero();
            assertThat(row.get("rpcAddress").asText()).isEqualTo(server.rpcTarget());
            assertThat(row.get("httpAddress").asText()).isEqualTo(httpAddress(server));
            assertThat(row.get("coordinator").asBoolean()).isTrue();
            assertThat(row.get("liveness").asText()).isEqualTo("ALIVE");
            assertThat(row.get("millisSinceHeartbeat").asLong()).isZero();
            assertThat(row.get("buckets").asInt()).isZero();

            // T49: a lone server is assigned every bucket: of a table, and of each partition
            conn.admin().createDatabase("db", true);
            conn.admin().createTable(TablePath.of("db", "plain"), table(3).build(), false);
            TablePath daily = TablePath.of("db", "daily");
            conn.admin().createTable(daily, table(2).partitionKeys("dt").build(), false);
            conn.admin().createPartition(daily, PartitionSpec.of("dt", "2026-12-03"), false);
            assertThat(conn.admin().describeCluster().servers().get(0).buckets()).isEqualTo(5);
            // one replica each, the lone server's: all in sync (T50)
            assertThat(conn.admin().describeCluster().replication())
                    .hasValue(new ClusterInfo.Replication(5, 0, 0, 0, 0));
            assertThat(apiCluster(server).get("replication").get("buckets").asInt()).isEqualTo(5);
            assertThat(get(server, "/metrics").body())
                    .contains("tributary_cluster_buckets{health=\"all\"} 5.0")
                    .contains("tributary_cluster_buckets{health=\"under_replicated\"} 0.0")
                    .contains("tributary_cluster_buckets{health=\"leaderless\"} 0.0")
                    .contains("tributary_cluster_buckets{health=\"not_preferred_leader\"} 0.0");
            assertThat(apiCluster(server).get("replication").get("notPreferredLeader").asInt())
                    .isZero();
            assertThat(apiCluster(server).get("servers").get(0).get("buckets").asInt())
                    .isEqualTo(5);
            assertThat(row.get("reportedBuckets").asInt()).isZero();
            // the next heartbeats report the 5 buckets the server holds
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(
                            () -> {
                                assertThat(
                                                conn.admin()
                                                        .describeCluster()
                                                        .servers()
                                                        .get(0)
                                                        .reportedBuckets())
                                        .isEqualTo(5);
                                assertThat(
                                                apiCluster(server)
                                                        .get("servers")
                                                        .get(0)
                                                        .get("reportedBuckets")
                                                        .asInt())
                                        .isEqualTo(5);
                            });

            // the console's overview carries the same view; its page draws a Cluster section
            JsonNode console = JSON.readTree(get(server, "/api/console").body());
            assertThat(console.get("cluster")).isEqualTo(apiCluster(server));
            assertThat(get(server, "/").body()).contains("clusterSection(snap.cluster)");
        }

        clock.advance(Duration.ofMinutes(5));
        int secondPort = freePortOtherThan(firstPort);
        try (TributaryServer server = start(secondPort, Map.of("server.http.port", "-1"));
                Connection conn = Connection.open(server.rpcTarget())) {
            ClusterInfo info = describeOnceAlive(conn);
            assertThat(info.servers())
                    .as("the restart replaced the registration, read back from the metadata")
                    .containsExactly(
                            new ClusterInfo.Server(
                                    0,
                                    server.rpcTarget(),
                                    "",
                                    clock.currentTimeMillis(),
                                    true,
                                    false,
                                    false,
                                    ClusterInfo.Liveness.ALIVE,
                                    OptionalLong.of(0),
                                    5,
                                    // its heartbeat that made it ALIVE reported them in full
                                    5));
            assertThat(info.servers().get(0).rpcAddress()).endsWith(":" + secondPort);
        }
    }

    @Test
    @DisplayName(
            "a cluster of one shows its id, the cluster id, the Raft term and itself as leader")
    void clusterOfOne() throws Exception {
        Map<String, String> cluster =
                Map.of(
                        "cluster.id",
                        "members",
                        "cluster.server-id",
                        "4",
                        "cluster.voters",
                        "4@127.0.0.1:" + LoopbackPorts.free(),
                        "cluster.election-timeout",
                        "300ms");
        int firstPort = LoopbackPorts.free();
        long firstTerm;
        try (TributaryServer server = start(firstPort, cluster);
                Connection conn = Connection.open(server.rpcTarget())) {
            ClusterInfo info = describeOnceAlive(conn);
            assertThat(info.clusterId()).isEqualTo("members");
            assertThat(info.coordinatorId()).hasValue(4);
            assertThat(info.raftLeaderId()).hasValue(4);
            assertThat(info.raftTerm()).isPresent();
            firstTerm = info.raftTerm().getAsLong();
            assertThat(firstTerm).isGreaterThanOrEqualTo(1);
            assertThat(info.servers())
                    .containsExactly(
                            new ClusterInfo.Server(
                                    4,
                                    server.rpcTarget(),
                                    httpAddress(server),
                                    clock.currentTimeMillis(),
                                    true,
                                    false,
                                    false,
                                    ClusterInfo.Liveness.ALIVE,
                                    OptionalLong.of(0),
                                    0,
                                    0));
            conn.admin().createDatabase("db", true);
            conn.admin().createTable(TablePath.of("db", "plain"), table(4).build(), false);

            JsonNode json = apiCluster(server);
            assertThat(json.get("clusterId").asText()).isEqualTo("members");
            assertThat(json.get("coordinatorId").asInt()).isEqualTo(4);
            assertThat(json.get("raftLeaderId").asInt()).isEqualTo(4);
            assertThat(json.get("raftTerm").asLong()).isGreaterThanOrEqualTo(firstTerm);
            assertThat(json.get("servers").get(0).get("serverId").asInt()).isEqualTo(4);
            assertThat(json.get("servers").get(0).get("coordinator").asBoolean()).isTrue();
        }

        clock.advance(Duration.ofMinutes(1));
        int secondPort = freePortOtherThan(firstPort);
        try (TributaryServer server = start(secondPort, cluster);
                Connection conn = Connection.open(server.rpcTarget())) {
            ClusterInfo info = conn.admin().describeCluster();
            assertThat(info.raftTerm().getAsLong())
                    .as("a restarted voter elects itself in a new term")
                    .isGreaterThan(firstTerm);
            assertThat(info.servers())
                    .as("the registration from the Raft log was replaced by the new one")
                    .singleElement()
                    .satisfies(
                            s -> {
                                assertThat(s.serverId()).isEqualTo(4);
                                assertThat(s.rpcAddress()).isEqualTo(server.rpcTarget());
                                assertThat(s.rpcAddress()).endsWith(":" + secondPort);
                                assertThat(s.registeredAtMillis())
                                        .isEqualTo(clock.currentTimeMillis());
                                assertThat(s.coordinator()).isTrue();
                                assertThat(s.buckets())
                                        .as("the assignment, read back from the Raft log")
                                        .isEqualTo(4);
                            });
            assertThat(info.coordinator().map(ClusterInfo.Server::serverId)).contains(4);
        }
    }

    @Test
    @DisplayName(
            "heartbeats over the real RPC: the server's own is accepted, an unregistered id is"
                    + " invalid input, a second instance of the server fences the first")
    void heartbeatsOverTheRpc() throws Exception {
        try (TributaryServer server = start(0, Map.of())) {
            // the server heartbeats itself over loopback once it registered
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(
                            () ->
                                    assertThat(server.coordinator().serverLiveness().join())
                                            .singleElement()
                                            .satisfies(
                                                    v -> {
                                                        assertThat(v.state())
                                                                .isEqualTo(LivenessState.ALIVE);
                                                        assertThat(v.instanceId())
                                                                .contains(server.instanceId());
                                                    }));
            ManagedChannel channel =
                    NettyChannelBuilder.forTarget(server.rpcTarget()).usePlaintext().build();
            try {
                ClusterServiceGrpc.ClusterServiceBlockingStub stub =
                        ClusterServiceGrpc.newBlockingStub(channel);
                assertThat(heartbeatError(stub, 7, "someone"))
                        .isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("server 7 is not registered");
                assertThat(heartbeatError(stub, 0, ""))
                        .isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("instance id");
                assertThat(heartbeatError(stub, 0, "x".repeat(65)))
                        .isInstanceOf(InvalidInputException.class);

                ServerHeartbeatResponse accepted = heartbeat(stub, 0, "a-second-instance");
                assertThat(accepted.getCoordinatorIncarnation())
                        .isEqualTo(server.coordinator().incarnation());
                assertThat(heartbeatError(stub, 0, server.instanceId()))
                        .as("the first instance is fenced once a second one heartbeat")
                        .isInstanceOf(FencedException.class)
                        .hasMessageContaining("replaced by a newer instance");
                assertThat(server.coordinator().serverLiveness().join().get(0).instanceId())
                        .contains("a-second-instance");

                // the server's own heartbeater was fenced and stopped, and the stub sends no
                // more: past the 8 s timeout the coordinator's expiry check (on its manual clock)
                // expires the server
                clock.advance(Duration.ofSeconds(10));
                assertThat(server.coordinator().serverLiveness().join())
                        .singleElement()
                        .satisfies(
                                v -> {
                                    assertThat(v.state()).isEqualTo(LivenessState.EXPIRED);
                                    assertThat(v.millisSinceHeartbeat()).contains(10_000L);
                                });
                JsonNode row = apiCluster(server).get("servers").get(0);
                assertThat(row.get("liveness").asText()).isEqualTo("EXPIRED");
                assertThat(row.get("millisSinceHeartbeat").asLong()).isEqualTo(10_000L);
                // a heartbeat of the current instance brings it back
                heartbeat(stub, 0, "a-second-instance");
                assertThat(server.coordinator().serverLiveness().join().get(0).state())
                        .isEqualTo(LivenessState.ALIVE);
            } finally {
                channel.shutdownNow();
            }
        }
    }

    @Test
    @DisplayName(
            "a heartbeat carrying addresses registers its server; a newer instance's new address"
                    + " replaces it, a replaced instance's old one does not come back")
    void heartbeatRegistersItsServer() throws Exception {
        try (TributaryServer server = start(0, Map.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            ManagedChannel channel =
                    NettyChannelBuilder.forTarget(server.rpcTarget()).usePlaintext().build();
            try {
                ClusterServiceGrpc.ClusterServiceBlockingStub stub =
                        ClusterServiceGrpc.newBlockingStub(channel);
                assertThat(errorOf(() -> heartbeat(stub, 7, "first", "no-port-here", "")))
                        .isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("rpc address");
                assertThat(rpcAddressOf(conn, 7)).as("nothing registered").isNull();

                heartbeat(stub, 7, "first", "10.0.0.7:9123", "10.0.0.7:8080");
                assertThat(rpcAddressOf(conn, 7)).isEqualTo("10.0.0.7:9123");
                assertThat(server.coordinator().serverLiveness().join())
                        .filteredOn(v -> v.serverId() == 7)
                        .singleElement()
                        .satisfies(v -> assertThat(v.state()).isEqualTo(LivenessState.ALIVE));

                // a restart on another port: the new instance's heartbeat moves the registration
                heartbeat(stub, 7, "second", "10.0.0.7:9200", "");
                assertThat(rpcAddressOf(conn, 7)).isEqualTo("10.0.0.7:9200");
                // the replaced instance, still beating with its old address, is fenced and its
                // address does not come back
                assertThat(
                                errorOf(
                                        () ->
                                                heartbeat(
                                                        stub,
                                                        7,
                                                        "first",
                                                        "10.0.0.7:9123",
                                                        "10.0.0.7:8080")))
                        .isInstanceOf(FencedException.class);
                assertThat(rpcAddressOf(conn, 7)).isEqualTo("10.0.0.7:9200");
            } finally {
                channel.shutdownNow();
            }
        }
    }

    private static String rpcAddressOf(Connection conn, int serverId) {
        return conn.admin().describeCluster().servers().stream()
                .filter(s -> s.serverId() == serverId)
                .map(ClusterInfo.Server::rpcAddress)
                .findFirst()
                .orElse(null);
    }

    private static ServerHeartbeatResponse heartbeat(
            ClusterServiceGrpc.ClusterServiceBlockingStub stub,
            int serverId,
            String instance,
            String rpcAddress,
            String httpAddress) {
        return stub.withDeadlineAfter(10, TimeUnit.SECONDS)
                .serverHeartbeat(
                        ServerHeartbeatRequest.newBuilder()
                                .setServerId(serverId)
                                .setInstanceId(instance)
                                .setRpcAddress(rpcAddress)
                                .setHttpAddress(httpAddress)
                                .build());
    }

    private static Throwable errorOf(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            return GrpcErrors.fromThrowable(e);
        }
        throw new AssertionError("the call succeeded");
    }

    @Test
    @DisplayName(
            "a server bound to the wildcard registers its advertised host and heartbeats there")
    void advertisedHost() throws Exception {
        try (TributaryServer server =
                        start(
                                0,
                                Map.of(
                                        "server.bind-host", "0.0.0.0",
                                        "server.advertised-host", "127.0.0.1"));
                Connection conn = Connection.open(server.advertisedRpcAddress())) {
            assertThat(server.rpcTarget()).startsWith("0.0.0.0:");
            assertThat(server.advertisedRpcAddress()).isEqualTo("127.0.0.1:" + server.rpcPort());
            ClusterInfo.Server me = conn.admin().describeCluster().servers().get(0);
            assertThat(me.rpcAddress()).isEqualTo(server.advertisedRpcAddress());
            assertThat(me.httpAddress())
                    .isEqualTo("127.0.0.1:" + server.httpAddress().orElseThrow().getPort());
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(
                            () ->
                                    assertThat(server.coordinator().serverLiveness().join())
                                            .extracting(v -> v.state())
                                            .containsExactly(LivenessState.ALIVE));
        }
    }

    private static ServerHeartbeatResponse heartbeat(
            ClusterServiceGrpc.ClusterServiceBlockingStub stub, int serverId, String instance) {
        return stub.withDeadlineAfter(10, TimeUnit.SECONDS)
                .serverHeartbeat(
                        ServerHeartbeatRequest.newBuilder()
                                .setServerId(serverId)
                                .setInstanceId(instance)
                                .build());
    }

    private static Throwable heartbeatError(
            ClusterServiceGrpc.ClusterServiceBlockingStub stub, int serverId, String instance) {
        try {
            heartbeat(stub, serverId, instance);
        } catch (RuntimeException e) {
            return GrpcErrors.fromThrowable(e);
        }
        throw new AssertionError("the heartbeat was accepted");
    }

    /**
     * The cluster once every registered server is ALIVE: a server heartbeats right after it
     * registered, so its first describe may still show UNKNOWN.
     */
    private static ClusterInfo describeOnceAlive(Connection conn) {
        return await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> conn.admin().describeCluster(),
                        info ->
                                info.servers().stream()
                                        .allMatch(s -> s.liveness() == ClusterInfo.Liveness.ALIVE));
    }

    private TributaryServer start(int rpcPort, Map<String, String> extra) {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.toString());
        conf.setString("server.rpc.port", Integer.toString(rpcPort));
        conf.setString("server.http.port", "0");
        extra.forEach(conf::setString);
        return TributaryServer.start(conf, clock, List.of());
    }

    private static String httpAddress(TributaryServer server) {
        return server.httpAddress().map(a -> a.getHostString() + ":" + a.getPort()).orElseThrow();
    }

    private JsonNode apiCluster(TributaryServer server) throws Exception {
        return JSON.readTree(get(server, "/api/cluster").body());
    }

    private HttpResponse<String> get(TributaryServer server, String path) throws Exception {
        String url = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort() + path;
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(URI.create(url)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r;
    }

    private static int freePortOtherThan(int port) throws Exception {
        int p = LoopbackPorts.free();
        while (p == port) {
            p = LoopbackPorts.free();
        }
        return p;
    }
}

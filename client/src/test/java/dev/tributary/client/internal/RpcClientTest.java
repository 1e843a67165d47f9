package dev.tributary.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.AdminServiceGrpc;
import dev.tributary.rpc.proto.DescribeTableRequest;
import dev.tributary.rpc.proto.TableInfoPb;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RpcClientTest {

    private static List<Thread> clientThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("tributary-client-"))
                .toList();
    }

    @Test
    void aConnectionStopsItsOwnThreadsWhenClosed() throws Exception {
        TablePath path = TablePath.of("db", "t");
        Server server =
                NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                        .addService(
                                new AdminServiceGrpc.AdminServiceImplBase() {
                                    @Override
                                    public void describeTable(
                                            DescribeTableRequest req,
                                            StreamObserver<TableInfoPb> out) {
                                        out.onNext(
                                                TableInfoPb.newBuilder()
                                                        .setTableId(7)
                                                        .setPath(req.getPath())
                                                        .build());
                                        out.onCompleted();
                                    }
                                })
                        .build()
                        .start();
        try {
            List<Thread> before = clientThreads();
            RpcClient client =
                    new RpcClient("127.0.0.1:" + server.getPort(), null, Duration.ofSeconds(10));
            TableInfoPb info =
                    RpcClient.call(
                            () ->
                                    client.admin()
                                            .describeTable(
                                                    DescribeTableRequest.newBuilder()
                                                            .setPath(ProtoConverters.toPb(path))
                                                            .build()));
            assertThat(info.getTableId()).isEqualTo(7);
            List<Thread> own = clientThreads().stream().filter(t -> !before.contains(t)).toList();
            assertThat(own).as("the call ran on the connection's own threads").isNotEmpty();
            assertThat(own).allMatch(Thread::isDaemon);

            client.close();
            for (Thread t : own) {
                t.join(5_000);
            }
            assertThat(own).as("threads left after close").noneMatch(Thread::isAlive);
        } finally {
            server.shutdownNow().awaitTermination();
        }
    }

    private static Server describingServer(int port) throws java.io.IOException {
        return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
                .addService(
                        new AdminServiceGrpc.AdminServiceImplBase() {
                            @Override
                            public void describeTable(
                                    DescribeTableRequest req, StreamObserver<TableInfoPb> out) {
                                out.onNext(TableInfoPb.newBuilder().setTableId(9).build());
                                out.onCompleted();
                            }
                        })
                .build()
                .start();
    }

    /**
     * Found by the fault soak's server-outage runs: after a long outage gRPC's own reconnect
     * backoff (up to two minutes) kept writers and jobs away from a server that was back. A call
     * that fails UNAVAILABLE resets it, so the caller's next try connects at once.
     */
    @Test
    void aRetryRightAfterTheServerIsBackReconnectsInsteadOfWaitingForGrpcsBackoff()
            throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        DescribeTableRequest req =
                DescribeTableRequest.newBuilder()
                        .setPath(ProtoConverters.toPb(TablePath.of("db", "t")))
                        .build();
        try (RpcClient client = new RpcClient("127.0.0.1:" + port, null, Duration.ofSeconds(10))) {
            // the server is down: the channel fails and enters gRPC's reconnect backoff (~1 s)
            for (int i = 0; i < 3; i++) {
                org.assertj.core.api.Assertions.assertThatThrownBy(
                                () -> RpcClient.call(() -> client.admin().describeTable(req)))
                        .isInstanceOf(dev.tributary.common.exception.RetriableException.class);
            }
            Server server = describingServer(port);
            try {
                // at once, well inside the backoff: a failed try resets it, the next connects
                TableInfoPb info;
                try {
                    info = RpcClient.call(() -> client.admin().describeTable(req));
                } catch (dev.tributary.common.exception.RetriableException stillBackingOff) {
                    info = RpcClient.call(() -> client.admin().describeTable(req));
                }
                assertThat(info.getTableId()).isEqualTo(9);
            } finally {
                server.shutdownNow().awaitTermination();
            }
        }
    }
}

package dev.tributary.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.AdminServiceGrpc;
import dev.tributary.rpc.proto.DescribeTableRequest;
import dev.tributary.rpc.proto.TableInfoPb;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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

    /** A channel whose every call ends at once with {@code status}. */
    private static Channel endingWith(Status status) {
        return new Channel() {
            @Override
            public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> m, CallOptions o) {
                return new ClientCall<>() {
                    @Override
                    public void start(Listener<R> listener, Metadata headers) {
                        listener.onClose(status, new Metadata());
                    }

                    @Override
                    public void request(int n) {}

                    @Override
                    public void cancel(String message, Throwable cause) {}

                    @Override
                    public void halfClose() {}

                    @Override
                    public void sendMessage(Q message) {}
                };
            }

            @Override
            public String authority() {
                return "test";
            }
        };
    }

    /**
     * Found by the server-outage runs: after a long outage gRPC's own reconnect backoff (up to two
     * minutes) kept writers and jobs away from a server that was back (ServerOutageITCase measured
     * ~9 s instead of ~1 s). A call that fails UNAVAILABLE resets it, so the caller's next try
     * connects at once; other failures leave it alone.
     */
    @Test
    void aCallFailingUnavailableResetsTheReconnectBackoffOthersDoNot() {
        AtomicInteger resets = new AtomicInteger();
        ReconnectOnUnavailable interceptor = new ReconnectOnUnavailable(resets::incrementAndGet);
        DescribeTableRequest req =
                DescribeTableRequest.newBuilder()
                        .setPath(ProtoConverters.toPb(TablePath.of("db", "t")))
                        .build();
        for (Status status :
                List.of(Status.UNAVAILABLE, Status.INVALID_ARGUMENT, Status.DEADLINE_EXCEEDED)) {
            Channel channel = io.grpc.ClientInterceptors.intercept(endingWith(status), interceptor);
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> AdminServiceGrpc.newBlockingStub(channel).describeTable(req))
                    .isInstanceOf(io.grpc.StatusRuntimeException.class);
        }
        assertThat(resets).hasValue(1);
    }
}

package dev.tributary.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.ClusterServiceGrpc;
import dev.tributary.rpc.proto.ServerHeartbeatRequest;
import dev.tributary.rpc.proto.ServerHeartbeatResponse;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * T49: a server's heartbeats follow a coordinator failover at once, not at the next interval (the
 * interval here is a minute, so only the follow-up can explain a second beat). The coordinators are
 * stand-ins that count beats: what is tested is the heartbeater's timing logic.
 */
class ServerHeartbeaterTest {
    private static final Duration A_MINUTE = Duration.ofMinutes(1);

    private final AtomicReference<Optional<String>> coordinator =
            new AtomicReference<>(Optional.empty());
    private final CountingCoordinator starting = new CountingCoordinator(true);
    private final CountingCoordinator ready = new CountingCoordinator(false);
    private ServerHeartbeater heartbeater;

    @AfterEach
    void close() {
        if (heartbeater != null) {
            heartbeater.close();
        }
        starting.close();
        ready.close();
    }

    @Test
    void aNewCoordinatorIsBeatenAtOnceAndAStartingOneRetriedSoon() {
        coordinator.set(Optional.of(starting.address()));
        heartbeater = heartbeater();
        heartbeater.start();
        // "not (yet) the coordinator" is asked again within moments, not a minute later
        await().atMost(Duration.ofSeconds(20)).until(() -> starting.beats.get() >= 3);

        coordinator.set(Optional.of(ready.address()));
        await().atMost(Duration.ofSeconds(20)).until(() -> ready.beats.get() >= 1);
        int asked = starting.beats.get();
        // once accepted, the next beat waits for the interval
        await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(2))
                .until(() -> ready.beats.get() == 1 && starting.beats.get() == asked);
    }

    @Test
    void noCoordinatorKnownMeansNoBeat() {
        heartbeater = heartbeater();
        heartbeater.start();
        await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(2))
                .until(() -> starting.beats.get() == 0);
        coordinator.set(Optional.of(ready.address()));
        await().atMost(Duration.ofSeconds(20)).until(() -> ready.beats.get() == 1);
        assertThat(starting.beats.get()).isZero();
    }

    /** A coordinator endpoint that counts beats and either accepts them or is still starting. */
    private static final class CountingCoordinator extends ClusterServiceGrpc.ClusterServiceImplBase
            implements AutoCloseable {
        final AtomicInteger beats = new AtomicInteger();
        private final boolean stillStarting;
        private final Server server;

        CountingCoordinator(boolean stillStarting) {
            this.stillStarting = stillStarting;
            try {
                this.server =
                        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                                .addService(this)
                                .build()
                                .start();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        String address() {
            return "127.0.0.1:" + server.getPort();
        }

        @Override
        public void serverHeartbeat(
                ServerHeartbeatRequest request, StreamObserver<ServerHeartbeatResponse> answer) {
            beats.incrementAndGet();
            if (stillStarting) {
                // what ClusterMembership answers between the election and the coordinator's start
                answer.onError(
                        GrpcErrors.toStatus(
                                new RetriableException(
                                        "server 1 leads the quorum and is starting its"
                                                + " coordinator; retry shortly")));
                return;
            }
            answer.onNext(
                    ServerHeartbeatResponse.newBuilder().setCoordinatorIncarnation(1).build());
            answer.onCompleted();
        }

        @Override
        public void close() {
            server.shutdownNow();
        }
    }

    private ServerHeartbeater heartbeater() {
        return new ServerHeartbeater(
                2,
                "instance",
                "storage",
                "127.0.0.1:1",
                "",
                coordinator::get,
                "",
                A_MINUTE,
                List::of);
    }
}

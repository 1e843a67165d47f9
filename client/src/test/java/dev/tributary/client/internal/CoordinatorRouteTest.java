package dev.tributary.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.AdminServiceGrpc;
import dev.tributary.rpc.proto.ListDatabasesRequest;
import dev.tributary.rpc.proto.ListDatabasesResponse;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Following {@code NOT_COORDINATOR} (issue 22 step 3): the redirect decision, and the channel
 * coordinator calls use, against scripted servers over loopback gRPC that answer as a voter does
 * (the coordinator answers; another voter refuses naming the leader, or naming none).
 */
class CoordinatorRouteTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private final List<Server> servers = new ArrayList<>();
    private ChannelPool pool;

    /** A voter: answers while {@code refusal} is null, else refuses with it. */
    private static final class Voter extends AdminServiceGrpc.AdminServiceImplBase {
        final String name;
        final AtomicInteger calls = new AtomicInteger();
        volatile RuntimeException refusal;
        volatile boolean hung;
        String address;

        Voter(String name) {
            this.name = name;
        }

        @Override
        public void listDatabases(
                ListDatabasesRequest req, StreamObserver<ListDatabasesResponse> out) {
            calls.incrementAndGet();
            if (hung) {
                return; // never answers, as a stopped process or a black-holed network
            }
            RuntimeException r = refusal;
            if (r != null) {
                out.onError(GrpcErrors.toStatus(r));
                return;
            }
            out.onNext(ListDatabasesResponse.newBuilder().addNames(name).build());
            out.onCompleted();
        }
    }

    private Voter start(String name) throws Exception {
        Voter v = new Voter(name);
        Server s =
                NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                        .addService(v)
                        .build()
                        .start();
        servers.add(s);
        v.address = "127.0.0.1:" + s.getPort();
        return v;
    }

    private CoordinatorRoute route(Voter bootstrap) {
        pool =
                new ChannelPool(
                        new RpcClient(bootstrap.address, null, TIMEOUT),
                        a -> new RpcClient(a, null, TIMEOUT));
        return new CoordinatorRoute(pool);
    }

    @AfterEach
    void stop() {
        if (pool != null) {
            pool.close();
        }
        servers.forEach(Server::shutdownNow);
    }

    private static final Function<RpcClient, String> LIST =
            c -> c.admin().listDatabases(ListDatabasesRequest.getDefaultInstance()).getNames(0);

    private static CompletableFuture<String> listAsync(CoordinatorRoute route) {
        return route.callAsync(
                c -> CompletableFuture.supplyAsync(() -> RpcClient.call(() -> LIST.apply(c))));
    }

    @Test
    @DisplayName("the redirect decision: only NOT_COORDINATOR with an address redirects")
    void redirectTarget() {
        assertThat(
                        CoordinatorRoute.redirectTarget(
                                new NotCoordinatorException("n", "2", "host-b:9123")))
                .contains("host-b:9123");
        assertThat(CoordinatorRoute.redirectTarget(new NotCoordinatorException("n", "2")))
                .isEmpty();
        assertThat(CoordinatorRoute.redirectTarget(new NotCoordinatorException("n", "2", " ")))
                .isEmpty();
        assertThat(CoordinatorRoute.redirectTarget(new FencedException("f"))).isEmpty();
        assertThat(CoordinatorRoute.redirectTarget(new RetriableException("r"))).isEmpty();
    }

    @Test
    @DisplayName(
            "a refusal naming the leader is retried there once, and later calls stay there until"
                    + " it refuses too")
    void followsTheLeader() throws Exception {
        Voter a = start("a");
        Voter b = start("b");
        a.refusal = new NotCoordinatorException("not the coordinator", "2", b.address);
        CoordinatorRoute route = route(a);

        assertThat(route.call(LIST)).isEqualTo("b");
        assertThat(a.calls.get()).isEqualTo(1);
        assertThat(route.current()).isNotSameAs(pool.bootstrap());
        assertThat(route.call(LIST)).isEqualTo("b");
        assertThat(a.calls.get()).isEqualTo(1); // straight to the leader
        assertThat(b.calls.get()).isEqualTo(2);

        // an answer that is an error is not a channel failure: stay
        b.refusal = new NotFoundException("no such database");
        assertThatThrownBy(() -> route.call(LIST)).isInstanceOf(NotFoundException.class);
        assertThat(route.current()).isNotSameAs(pool.bootstrap());

        // the leader changed back to a: b names it, the call follows, later calls start at a
        b.refusal = new NotCoordinatorException("not any more", "1", a.address);
        a.refusal = null;
        assertThat(route.call(LIST)).isEqualTo("a");
        assertThat(pool.openedCount()).isEqualTo(2);
    }

    @Test
    @DisplayName(
            "no leader address: the refusal propagates; a followed leader that fails sends later"
                    + " calls back to the bootstrap channel; one redirect per call")
    void propagatesWithoutAnAddressAndRedirectsOnce() throws Exception {
        Voter a = start("a");
        Voter b = start("b");
        CoordinatorRoute route = route(a);
        a.refusal = new NotCoordinatorException("no leader elected", null);
        assertThatThrownBy(() -> route.call(LIST))
                .isInstanceOf(NotCoordinatorException.class)
                .hasMessageContaining("no leader elected");
        assertThat(pool.openedCount()).isZero();

        a.refusal = new NotCoordinatorException("go to b", "2", b.address);
        assertThat(route.call(LIST)).isEqualTo("b");
        b.refusal = new NotCoordinatorException("election under way", null);
        assertThatThrownBy(() -> route.call(LIST)).isInstanceOf(NotCoordinatorException.class);
        assertThat(route.current()).isSameAs(pool.bootstrap());

        // two voters naming each other: a, then b, then the call fails
        b.refusal = new NotCoordinatorException("go to a", "1", a.address);
        int before = a.calls.get() + b.calls.get();
        assertThatThrownBy(() -> route.call(LIST))
                .isInstanceOf(NotCoordinatorException.class)
                .hasMessageContaining("go to a");
        assertThat(a.calls.get() + b.calls.get()).isEqualTo(before + 2);
        assertThat(route.current()).isSameAs(pool.bootstrap());
    }

    @Test
    @DisplayName(
            "a followed coordinator that cannot be reached: the same call goes on at the bootstrap"
                    + " server, which names the new coordinator")
    void aDeadCoordinatorCostsTheCallerNothing() throws Exception {
        Voter a = start("a");
        Voter b = start("b");
        Voter c = start("c");
        a.refusal = new NotCoordinatorException("go to b", "2", b.address);
        CoordinatorRoute route = route(a);
        assertThat(route.call(LIST)).isEqualTo("b");

        // b's process dies; a names c, the new coordinator
        servers.get(1).shutdownNow().awaitTermination();
        a.refusal = new NotCoordinatorException("go to c", "3", c.address);
        assertThat(route.call(LIST)).isEqualTo("c");
        assertThat(route.current()).isNotSameAs(pool.bootstrap());
        CompletableFuture<String> async = listAsync(route);
        assertThat(async.get()).isEqualTo("c");

        // the same, asynchronously: c dies too, and a has become the coordinator: it answers
        servers.get(2).shutdownNow().awaitTermination();
        a.refusal = null;
        CompletableFuture<String> moved = listAsync(route);
        assertThat(moved.get()).isEqualTo("a");
        assertThat(route.current()).isSameAs(pool.bootstrap());

        // an answer (not a transport failure) is never retried elsewhere
        assertThat(CoordinatorRoute.unreachable(new RetriableException("busy"))).isFalse();
    }

    @Test
    @DisplayName("an asynchronous call follows the leader the same way")
    void asyncFollowsTheLeader() throws Exception {
        Voter a = start("a");
        Voter b = start("b");
        a.refusal = new NotCoordinatorException("not me", "2", b.address);
        CoordinatorRoute route = route(a);
        CompletableFuture<String> f = listAsync(route);
        assertThat(f.get()).isEqualTo("b");
        assertThat(route.current()).isNotSameAs(pool.bootstrap());

        b.refusal = new RetriableException("b went away");
        CompletableFuture<String> g = listAsync(route);
        assertThatThrownBy(g::join).hasCauseInstanceOf(RetriableException.class);
        assertThat(route.current()).isSameAs(pool.bootstrap());
    }

    @Test
    @DisplayName(
            "given several addresses, a call that times out on a hung server moves later calls to"
                    + " the next listed server, which answers")
    void leavesAHungServerForTheNextListed() throws Exception {
        Voter a = start("a");
        Voter b = start("b");
        a.hung = true;
        // deadlines long enough to connect on a loaded machine: only the hung call times out
        pool =
                new ChannelPool(
                        new RpcClient(a.address + "," + b.address, null, Duration.ofSeconds(3)),
                        x -> new RpcClient(x, null, Duration.ofSeconds(10)));
        CoordinatorRoute route = new CoordinatorRoute(pool, List.of(a.address, b.address));

        // the bootstrap channel is connected to a (the first listed) and stays there
        assertThatThrownBy(() -> route.call(LIST)).isInstanceOf(RetriableException.class);
        assertThat(route.call(LIST)).isEqualTo("b");
        assertThat(route.call(LIST)).isEqualTo("b");
        assertThat(a.calls.get()).isEqualTo(1);

        // one address only: the bootstrap channel is all there is
        CoordinatorRoute single = new CoordinatorRoute(pool);
        assertThatThrownBy(() -> single.call(LIST)).isInstanceOf(RetriableException.class);
        assertThat(single.current()).isSameAs(pool.bootstrap());
    }
}

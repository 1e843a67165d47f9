package dev.tributary.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.NotEnoughReplicasException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.error.ServerInternalException;
import dev.tributary.rpc.proto.BucketLeaderPb;
import dev.tributary.rpc.proto.GetBucketLeadersRequest;
import dev.tributary.rpc.proto.GetBucketLeadersResponse;
import dev.tributary.rpc.proto.ListDatabasesRequest;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The leaders cache and the channel pool (issue 22 step 3). The holders' answers are given as
 * values (what a server's {@code GetBucketLeaders} returns); the pool opens real channels, to
 * addresses nothing listens on, since only which channel is chosen matters here.
 */
class BucketLeadersTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final List<RpcClient> opened = new ArrayList<>();
    private final ChannelPool pool =
            new ChannelPool(
                    new RpcClient("127.0.0.1:1", null, TIMEOUT),
                    address -> {
                        RpcClient c = new RpcClient(address, null, TIMEOUT);
                        opened.add(c);
                        return c;
                    });

    @AfterEach
    void close() {
        pool.close();
    }

    private static GetBucketLeadersResponse answer(int answering, int... holders) {
        GetBucketLeadersResponse.Builder b =
                GetBucketLeadersResponse.newBuilder()
                        .setServerId(answering)
                        .setBucketCount(holders.length);
        for (int i = 0; i < holders.length; i++) {
            if (holders[i] >= 0) {
                b.addLeaders(
                        BucketLeaderPb.newBuilder()
                                .setBucket(i)
                                .setServerId(holders[i])
                                .setRpcAddress("127.0.0.1:" + (40000 + holders[i])));
            }
        }
        return b.build();
    }

    /** Answers from a list, counting the calls. */
    private static final class Answers
            implements Function<
                    GetBucketLeadersRequest, CompletableFuture<GetBucketLeadersResponse>> {
        final List<Object> script;
        final List<GetBucketLeadersRequest> asked = new ArrayList<>();

        Answers(Object... script) {
            this.script = List.of(script);
        }

        @Override
        @SuppressWarnings("unchecked")
        public CompletableFuture<GetBucketLeadersResponse> apply(GetBucketLeadersRequest req) {
            asked.add(req);
            Object next = script.get(Math.min(asked.size() - 1, script.size() - 1));
            if (next instanceof TributaryException e) {
                return CompletableFuture.failedFuture(e);
            }
            if (next instanceof CompletableFuture<?> pending) {
                return (CompletableFuture<GetBucketLeadersResponse>) pending;
            }
            return CompletableFuture.completedFuture((GetBucketLeadersResponse) next);
        }
    }

    @Test
    @DisplayName(
            "the answering server's own buckets use the bootstrap channel; another server's use one"
                    + " pooled channel per address; no holder or no address: bootstrap")
    void routesByHolder() {
        GetBucketLeadersResponse r =
                GetBucketLeadersResponse.newBuilder()
                        .setServerId(0)
                        .setBucketCount(5)
                        .addLeaders(leader(0, 0, "advertised-zero:9123"))
                        .addLeaders(leader(1, 7, "127.0.0.1:40007"))
                        .addLeaders(leader(2, 8, "")) // registered without address
                        // bucket 3 absent: not assigned
                        .addLeaders(leader(4, 7, "127.0.0.1:40007"))
                        .addLeaders(leader(9, 7, "127.0.0.1:40009")) // beyond the count: ignored
                        .build();
        Answers answers = new Answers(r);
        BucketLeaders leaders = new BucketLeaders(pool, answers);
        BucketLeaders.Key key = BucketLeaders.Key.table(5);

        assertThat(leaders.clientFor(key, 0)).isSameAs(pool.bootstrap());
        RpcClient seven = leaders.clientFor(key, 1);
        assertThat(seven).isNotSameAs(pool.bootstrap());
        assertThat(leaders.clientFor(key, 4)).isSameAs(seven);
        assertThat(leaders.clientFor(key, 2)).isSameAs(pool.bootstrap());
        assertThat(leaders.clientFor(key, 3)).isSameAs(pool.bootstrap());
        assertThat(leaders.clientFor(key, 9)).isSameAs(pool.bootstrap());
        assertThat(pool.openedCount()).isEqualTo(1);
        // fetched once, for the table and without a partition
        assertThat(answers.asked).hasSize(1);
        assertThat(answers.asked.get(0).getTableId()).isEqualTo(5);
        assertThat(answers.asked.get(0).hasPartitionId()).isFalse();
        assertThat(answers.asked.get(0).hasPartition()).isFalse();
    }

    private static BucketLeaderPb leader(int bucket, int server, String address) {
        return BucketLeaderPb.newBuilder()
                .setBucket(bucket)
                .setServerId(server)
                .setRpcAddress(address)
                .build();
    }

    @Test
    @DisplayName(
            "NOT_LEADER_FOR_BUCKET forgets that table's (partition's) holders; other failures and"
                    + " other keys keep theirs")
    void refreshesOnNotLeader() {
        Answers answers = new Answers(answer(0, 0, 0), answer(0, 0, 7));
        BucketLeaders leaders = new BucketLeaders(pool, answers);
        BucketLeaders.Key key = BucketLeaders.Key.partitionNamed(5, "dt=a");
        BucketLeaders.Key other = BucketLeaders.Key.partition(5, 12);

        assertThat(leaders.clientFor(key, 1)).isSameAs(pool.bootstrap());
        assertThat(leaders.clientFor(other, 1)).isNotSameAs(pool.bootstrap());
        assertThat(answers.asked).hasSize(2);
        assertThat(answers.asked.get(0).getPartition()).isEqualTo("dt=a");
        assertThat(answers.asked.get(1).getPartitionId()).isEqualTo(12);

        assertThat(leaders.onFailure(key, new RetriableException("overloaded"))).isFalse();
        assertThat(leaders.onFailure(key, new ServerInternalException("bug", null))).isFalse();
        assertThat(leaders.isCached(key)).isTrue();

        // as the writer sees it: wrapped in a CompletionException
        assertThat(
                        leaders.onFailure(
                                key,
                                new CompletionException(new NotLeaderForBucketException("no"))))
                .isTrue();
        assertThat(leaders.isCached(key)).isFalse();
        assertThat(leaders.isCached(other)).isTrue();
        // asked again: now bucket 1 is on server 7
        assertThat(leaders.clientFor(key, 1)).isNotSameAs(pool.bootstrap());
        assertThat(answers.asked).hasSize(3);
    }

    @Test
    @DisplayName(
            "holders that cannot be fetched: bootstrap channel; cached only when asking again would"
                    + " not help (a server without the call)")
    void fetchFailures() {
        BucketLeaders.Key key = BucketLeaders.Key.table(5);
        Answers transient1 = new Answers(new RetriableException("down"), answer(1, 1, 7));
        BucketLeaders a = new BucketLeaders(pool, transient1);
        assertThat(a.clientFor(key, 1)).isSameAs(pool.bootstrap());
        assertThat(a.isCached(key)).isFalse();
        assertThat(a.clientFor(key, 1)).isNotSameAs(pool.bootstrap());
        assertThat(transient1.asked).hasSize(2);

        BucketLeaders.Key partition = BucketLeaders.Key.partitionNamed(5, "dt=new");
        Answers notYet = new Answers(new PartitionNotFoundException("dt=new"));
        BucketLeaders b = new BucketLeaders(pool, notYet);
        assertThat(b.clientFor(partition, 0)).isSameAs(pool.bootstrap());
        assertThat(b.isCached(partition)).isFalse();

        // UNIMPLEMENTED arrives as a server internal error: an older server, ask no more
        Answers old = new Answers(new ServerInternalException("UNIMPLEMENTED", null));
        BucketLeaders c = new BucketLeaders(pool, old);
        assertThat(c.clientFor(key, 1)).isSameAs(pool.bootstrap());
        assertThat(c.clientFor(key, 0)).isSameAs(pool.bootstrap());
        assertThat(old.asked).hasSize(1);
        // until a refusal says the routing is stale
        c.onFailure(key, new NotLeaderForBucketException("no"));
        c.clientFor(key, 0);
        assertThat(old.asked).hasSize(2);

        // a malformed registered address: bootstrap, no channel opened
        Answers bad =
                new Answers(
                        GetBucketLeadersResponse.newBuilder()
                                .setServerId(0)
                                .setBucketCount(1)
                                .addLeaders(leader(0, 3, "no port here"))
                                .build());
        int before = pool.openedCount();
        assertThat(new BucketLeaders(pool, bad).clientFor(key, 0)).isSameAs(pool.bootstrap());
        assertThat(pool.openedCount()).isEqualTo(before);
    }

    @Test
    @DisplayName(
            "a holder that cannot be reached is asked about again (it stopped; its buckets get new"
                    + " leaders): a refused write or a slow answer keeps the cached holders")
    void anUnreachableHolderIsAskedAboutAgain() {
        BucketLeaders.Key key = BucketLeaders.Key.table(5);
        Answers answers = new Answers(answer(1, 1, 7), answer(1, 1, 8));
        BucketLeaders leaders = new BucketLeaders(pool, answers);
        RpcClient dead = leaders.clientFor(key, 1);
        assertThat(leaders.isCached(key)).isTrue();

        // what the write path sees: the transport's status wrapped as a retriable error
        TributaryException busy =
                GrpcErrors.fromThrowable(Status.RESOURCE_EXHAUSTED.asRuntimeException());
        assertThat(leaders.onFailure(key, busy)).isFalse();
        assertThat(leaders.onFailure(key, new NotEnoughReplicasException("one in sync"))).isFalse();
        assertThat(leaders.isCached(key)).isTrue();

        TributaryException unreachable =
                GrpcErrors.fromThrowable(
                        Status.UNAVAILABLE
                                .withDescription("Connection refused")
                                .asRuntimeException());
        assertThat(unreachable).isInstanceOf(RetriableException.class);
        assertThat(leaders.onFailure(key, unreachable)).isTrue();
        assertThat(leaders.isCached(key)).isFalse();
        assertThat(leaders.clientFor(key, 1)).isNotSameAs(dead);
        assertThat(answers.asked).hasSize(2);
    }

    @Test
    @DisplayName(
            "without cached holders a request waits for one shared fetch without blocking its"
                    + " thread; a refusal meanwhile does not drop the fetch under way")
    void oneFetchAtATimeWithoutBlocking() {
        CompletableFuture<GetBucketLeadersResponse> pending = new CompletableFuture<>();
        Answers answers = new Answers(pending);
        BucketLeaders leaders = new BucketLeaders(pool, answers);
        BucketLeaders.Key key = BucketLeaders.Key.table(5);
        CompletableFuture<RpcClient> first = leaders.clientForAsync(key, 1);
        CompletableFuture<RpcClient> second = leaders.clientForAsync(key, 0);
        assertThat(first).isNotDone();
        assertThat(second).isNotDone();
        leaders.onFailure(key, new NotLeaderForBucketException("stale"));
        assertThat(answers.asked).hasSize(1);

        pending.complete(answer(0, 0, 7));
        assertThat(first.join()).isNotSameAs(pool.bootstrap());
        assertThat(second.join()).isSameAs(pool.bootstrap());
        assertThat(leaders.isCached(key)).isTrue();
        assertThat(answers.asked).hasSize(1);
    }

    @Test
    @DisplayName("the pool opens a channel per address on first use and closes them all")
    void poolOpensLazilyAndClosesEverything() {
        assertThat(pool.openedCount()).isZero();
        RpcClient a = pool.forAddress("127.0.0.1:40001");
        assertThat(pool.forAddress("127.0.0.1:40001")).isSameAs(a);
        RpcClient b = pool.forAddress("127.0.0.1:40002");
        assertThat(b).isNotSameAs(a);
        assertThat(opened).containsExactly(a, b);

        pool.close();
        assertThatThrownBy(() -> pool.forAddress("127.0.0.1:40003"))
                .isInstanceOf(IllegalStateException.class);
        // every channel, the bootstrap one too, refuses calls after close
        for (RpcClient c : List.of(a, b, pool.bootstrap())) {
            assertThatThrownBy(
                            () ->
                                    RpcClient.call(
                                            () ->
                                                    c.admin()
                                                            .listDatabases(
                                                                    ListDatabasesRequest
                                                                            .getDefaultInstance())))
                    .isInstanceOf(TributaryException.class)
                    .hasMessageContaining("shutdown");
        }
        pool.close(); // idempotent
    }
}

package dev.tributary.client.internal;

import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.BucketLeaderPb;
import dev.tributary.rpc.proto.GetBucketLeadersRequest;
import dev.tributary.rpc.proto.GetBucketLeadersResponse;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which channel each bucket's requests go to (issue 22 step 3): a cache, per table or partition, of
 * the bucket holders a server reported ({@code ReadService.GetBucketLeaders}, asked on the
 * bootstrap channel), refetched after a server answered {@link NotLeaderForBucketException}.
 *
 * <p>A bucket held by the server that answered (the same server id) uses the bootstrap channel, not
 * its advertised address: a lone server, and every bucket of the server the user connected to, stay
 * on the channel the user opened, which may reach it by another name than the one it registered. A
 * bucket held by another server uses the pool's channel to that server's registered address. A
 * bucket with no holder, or a holder without an address, uses the bootstrap channel (whose server
 * refuses it with a retriable error until one is assigned). When the holders cannot be fetched, the
 * bootstrap channel is used too: after a retriable failure nothing is cached (the next request asks
 * again), as after a partition not created yet (a write creates it); after any other (a server
 * without the call) the table or partition routes to the bootstrap channel until a {@code
 * NOT_LEADER_FOR_BUCKET} invalidates it. Thread safe.
 */
public final class BucketLeaders {
    private static final Logger LOG = LoggerFactory.getLogger(BucketLeaders.class);

    /**
     * A table's buckets or one partition's: by id (readers) or by name (writers and lookups, which
     * know partitions by name and may create them on first write).
     */
    public record Key(long tableId, long partitionId, String partitionName) {
        /** An unpartitioned table's buckets. */
        public static Key table(long tableId) {
            return new Key(tableId, TableBucket.NO_PARTITION, null);
        }

        /** One partition's buckets, by id; {@code NO_PARTITION} for an unpartitioned table. */
        public static Key partition(long tableId, long partitionId) {
            return new Key(tableId, partitionId, null);
        }

        /** The buckets of {@code bucket}'s table or partition. */
        public static Key of(TableBucket bucket) {
            return partition(bucket.tableId(), bucket.partitionId());
        }

        /** One partition's buckets, by name; {@code null} for an unpartitioned table. */
        public static Key partitionNamed(long tableId, String name) {
            return new Key(tableId, TableBucket.NO_PARTITION, name);
        }

        GetBucketLeadersRequest request() {
            GetBucketLeadersRequest.Builder b =
                    GetBucketLeadersRequest.newBuilder().setTableId(tableId);
            if (partitionId != TableBucket.NO_PARTITION) {
                b.setPartitionId(partitionId);
            } else if (partitionName != null) {
                b.setPartition(partitionName);
            }
            return b.build();
        }
    }

    /**
     * Where one table's (partition's) buckets go: the address of each bucket held by another server
     * that registered one; every other bucket uses the bootstrap channel.
     *
     * @param bucketCount the buckets of the table, -1 when not known (holders not fetched)
     */
    record Route(Map<Integer, String> addresses, int bucketCount) {
        static final Route BOOTSTRAP = new Route(Map.of(), -1);

        Route {
            addresses = Map.copyOf(addresses);
        }

        Optional<String> addressOf(int bucket) {
            return Optional.ofNullable(addresses.get(bucket));
        }
    }

    private final ChannelPool pool;
    private final Function<GetBucketLeadersRequest, CompletableFuture<GetBucketLeadersResponse>>
            fetch;

    /** Per key, the route, or its fetch under way (one fetch at a time per key). */
    private final Map<Key, CompletableFuture<Route>> routes = new ConcurrentHashMap<>();

    /** Asks the pool's bootstrap channel for the holders, without blocking a thread. */
    public BucketLeaders(ChannelPool pool) {
        this(
                pool,
                req ->
                        RpcClient.callAsync(
                                pool.bootstrap().readAsyncWithTimeout()::getBucketLeaders, req));
    }

    BucketLeaders(
            ChannelPool pool,
            Function<GetBucketLeadersRequest, CompletableFuture<GetBucketLeadersResponse>> fetch) {
        this.pool = Objects.requireNonNull(pool);
        this.fetch = fetch;
    }

    /** The bootstrap channel, for calls that are not about one bucket. */
    public RpcClient bootstrap() {
        return pool.bootstrap();
    }

    /**
     * The channel for one bucket's requests; fetches the holders on first use after an
     * invalidation, blocking the calling thread for it. Never fails for routing reasons: when
     * nothing better is known, the bootstrap channel.
     *
     * @throws IllegalStateException after the connection was closed
     */
    public RpcClient clientFor(Key key, int bucket) {
        try {
            return clientForAsync(key, bucket).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : e;
        }
    }

    /**
     * Runs one bucket's request at its holder, and once more on the holder fetched again when that
     * server answers it no longer holds the bucket. For requests that are safe to repeat (reads,
     * lookups, leases, which the refusing server did not apply).
     */
    public <T> T callHolder(Key key, int bucket, Function<RpcClient, T> request) {
        try {
            return RpcClient.call(() -> request.apply(clientFor(key, bucket)));
        } catch (TributaryException e) {
            if (!onFailure(key, e)) {
                throw e;
            }
            return RpcClient.call(() -> request.apply(clientFor(key, bucket)));
        }
    }

    /**
     * Like {@link #clientFor} without blocking: completes once the holders are known (at once when
     * cached), so a writer never waits for them on its own thread or under its lock.
     */
    public CompletableFuture<RpcClient> clientForAsync(Key key, int bucket) {
        return route(key).thenApply(r -> channelOf(r, bucket));
    }

    private CompletableFuture<Route> route(Key key) {
        CompletableFuture<Route> route = routes.get(key);
        if (route == null) {
            CompletableFuture<Route> mine = new CompletableFuture<>();
            route = routes.putIfAbsent(key, mine);
            if (route == null) {
                route = mine;
                fetchInto(key, mine);
            }
        }
        return route;
    }

    private RpcClient channelOf(Route route, int bucket) {
        Optional<String> address = route.addressOf(bucket);
        if (address.isEmpty()) {
            return pool.bootstrap();
        }
        try {
            return pool.forAddress(address.get());
        } catch (TributaryException e) {
            // a malformed registered address: the bootstrap server refuses with the holder's name
            LOG.warn("cannot open a channel to {}: {}", address.get(), e.getMessage());
            return pool.bootstrap();
        }
    }

    /**
     * Runs a listing (offsets, snapshots) over a table's or partition's buckets at the servers
     * holding them: once on the bootstrap channel for every bucket (an empty bucket list) when that
     * server holds them all or the holders are not known, as a lone server always is; else once per
     * server with the buckets it holds. After a {@code NOT_LEADER_FOR_BUCKET} the holders are asked
     * again and the whole listing runs once more.
     *
     * @param call runs the listing on a channel for the given buckets (empty: every bucket)
     * @return one result per server asked
     * @throws TributaryException the first failure
     */
    public <T> List<T> fanOut(Key key, BiFunction<RpcClient, List<Integer>, T> call) {
        try {
            return fanOutOnce(key, call);
        } catch (TributaryException e) {
            if (!onFailure(key, e)) {
                throw e;
            }
            return fanOutOnce(key, call);
        }
    }

    private <T> List<T> fanOutOnce(Key key, BiFunction<RpcClient, List<Integer>, T> call) {
        Route route;
        try {
            route = route(key).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : e;
        }
        Map<RpcClient, List<Integer>> byChannel = new LinkedHashMap<>();
        for (int b = 0; b < route.bucketCount(); b++) {
            byChannel.computeIfAbsent(channelOf(route, b), c -> new ArrayList<>()).add(b);
        }
        RpcClient bootstrap = pool.bootstrap();
        if (byChannel.isEmpty() || (byChannel.size() == 1 && byChannel.containsKey(bootstrap))) {
            return List.of(RpcClient.call(() -> call.apply(bootstrap, List.of())));
        }
        List<T> out = new ArrayList<>(byChannel.size());
        byChannel.forEach((c, buckets) -> out.add(RpcClient.call(() -> call.apply(c, buckets))));
        return out;
    }

    /**
     * Called with the failure of a request about {@code key}'s buckets: forgets that table's
     * (partition's) holders when the server said it does not hold the bucket, so the retry asks
     * again.
     *
     * @return whether the holders were forgotten
     */
    public boolean onFailure(Key key, Throwable failure) {
        if (!refreshesLeaders(failure)) {
            return false;
        }
        CompletableFuture<Route> cached = routes.get(key);
        // a fetch under way may already carry the news; only a completed route is stale
        if (cached != null && cached.isDone()) {
            routes.remove(key, cached);
        }
        return true;
    }

    /**
     * Whether a request's failure means the client's idea of the bucket's holder may be stale: the
     * server said it does not lead the bucket, or the server at the cached address cannot be
     * reached (it stopped; its buckets get new leaders once the coordinator notices, and only
     * asking again finds them: a route kept after that would send every retry to a dead address).
     */
    static boolean refreshesLeaders(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 5; depth++, t = t.getCause()) {
            if (t instanceof NotLeaderForBucketException
                    || Status.fromThrowable(t).getCode() == Status.Code.UNAVAILABLE) {
                return true;
            }
        }
        return false;
    }

    /** Whether holders of {@code key} are cached (for tests). */
    boolean isCached(Key key) {
        CompletableFuture<Route> r = routes.get(key);
        return r != null && r.isDone();
    }

    /**
     * Fetches the holders and completes {@code into} with their route, or with the bootstrap route
     * when they cannot be fetched; forgets it again when asking later may give a better answer.
     */
    private void fetchInto(Key key, CompletableFuture<Route> into) {
        CompletableFuture<GetBucketLeadersResponse> answer;
        try {
            answer = fetch.apply(key.request());
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete(
                (r, error) -> {
                    if (error == null) {
                        into.complete(routeOf(r));
                        return;
                    }
                    TributaryException e =
                            GrpcErrors.fromThrowable(
                                    error instanceof CompletionException && error.getCause() != null
                                            ? error.getCause()
                                            : error);
                    if (e instanceof RetriableException
                            || e instanceof PartitionNotFoundException) {
                        // a transient failure, or a partition a write creates on the bootstrap
                        // server: this request goes there, the next one asks again
                        routes.remove(key, into);
                    } else {
                        // a server without the call, a dropped table: the bootstrap server answers
                        // the requests itself, with the precise error if any
                        LOG.debug(
                                "bucket holders of {} unknown; using the bootstrap channel",
                                key,
                                e);
                    }
                    into.complete(Route.BOOTSTRAP);
                });
    }

    /**
     * The route a server's answer gives: the address of each bucket held by another server that
     * registered one; the bootstrap channel for the answering server's own buckets and the rest.
     */
    static Route routeOf(GetBucketLeadersResponse r) {
        // only the listed entries are kept: the answer's size bounds the map, not its bucket count
        Map<Integer, String> addresses = new HashMap<>();
        for (BucketLeaderPb l : r.getLeadersList()) {
            if (l.getBucket() < 0 || l.getBucket() >= r.getBucketCount()) {
                continue;
            }
            if (l.getServerId() != r.getServerId() && !l.getRpcAddress().isEmpty()) {
                addresses.put(l.getBucket(), l.getRpcAddress());
            }
        }
        // a table never has more buckets: a larger count is not trusted for listings
        int count =
                r.getBucketCount() > 0 && r.getBucketCount() <= TableDescriptor.MAX_BUCKETS
                        ? r.getBucketCount()
                        : -1;
        return new Route(addresses, count);
    }
}

package dev.tributary.client.internal;

import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.rpc.proto.BucketLeaderPb;
import dev.tributary.rpc.proto.GetBucketLeadersRequest;
import dev.tributary.rpc.proto.GetBucketLeadersResponse;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
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

    /** Where one table's (partition's) buckets go; an empty address means the bootstrap channel. */
    record Route(String[] addresses) {
        static final Route BOOTSTRAP = new Route(new String[0]);

        Optional<String> addressOf(int bucket) {
            return bucket >= 0 && bucket < addresses.length && addresses[bucket] != null
                    ? Optional.of(addresses[bucket])
                    : Optional.empty();
        }
    }

    private final ChannelPool pool;
    private final Function<GetBucketLeadersRequest, GetBucketLeadersResponse> fetch;
    private final Map<Key, Route> routes = new ConcurrentHashMap<>();

    /** Asks the pool's bootstrap channel for the holders. */
    public BucketLeaders(ChannelPool pool) {
        this(pool, req -> RpcClient.call(() -> pool.bootstrap().read().getBucketLeaders(req)));
    }

    BucketLeaders(
            ChannelPool pool, Function<GetBucketLeadersRequest, GetBucketLeadersResponse> fetch) {
        this.pool = Objects.requireNonNull(pool);
        this.fetch = fetch;
    }

    /** The bootstrap channel, for calls that are not about one bucket. */
    public RpcClient bootstrap() {
        return pool.bootstrap();
    }

    /**
     * The channel for one bucket's requests; fetches the holders on first use after an
     * invalidation. Never fails: when nothing better is known, the bootstrap channel.
     */
    public RpcClient clientFor(Key key, int bucket) {
        Route route = routes.get(key);
        if (route == null) {
            route = fetchRoute(key);
            if (route == null) {
                return pool.bootstrap();
            }
            routes.put(key, route);
        }
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
        routes.remove(key);
        return true;
    }

    /** Whether a request's failure means the client's idea of the bucket's holder is stale. */
    static boolean refreshesLeaders(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 5; depth++, t = t.getCause()) {
            if (t instanceof NotLeaderForBucketException) {
                return true;
            }
        }
        return false;
    }

    /** Whether holders of {@code key} are cached (for tests). */
    boolean isCached(Key key) {
        return routes.containsKey(key);
    }

    /** The route, or null to use the bootstrap channel without caching it. */
    private Route fetchRoute(Key key) {
        GetBucketLeadersResponse r;
        try {
            r = fetch.apply(key.request());
        } catch (RetriableException | PartitionNotFoundException e) {
            // a partition a write creates on the bootstrap server: ask again next time
            return null;
        } catch (TributaryException e) {
            // a server without the call, a dropped table: the bootstrap server answers the request
            // itself, with the precise error if any
            LOG.debug("bucket holders of {} unknown; using the bootstrap channel", key, e);
            return Route.BOOTSTRAP;
        }
        return routeOf(r);
    }

    /**
     * The route a server's answer gives: the address of each bucket held by another server that
     * registered one; the bootstrap channel for the answering server's own buckets and the rest.
     */
    static Route routeOf(GetBucketLeadersResponse r) {
        int count = Math.max(0, r.getBucketCount());
        String[] addresses = new String[count];
        for (BucketLeaderPb l : r.getLeadersList()) {
            if (l.getBucket() < 0 || l.getBucket() >= count) {
                continue;
            }
            if (l.getServerId() != r.getServerId() && !l.getRpcAddress().isEmpty()) {
                addresses[l.getBucket()] = l.getRpcAddress();
            }
        }
        return new Route(addresses);
    }
}

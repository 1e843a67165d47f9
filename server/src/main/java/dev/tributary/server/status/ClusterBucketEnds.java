package dev.tributary.server.status;

import com.google.common.util.concurrent.ListenableFuture;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.rpc.PeerChannels;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.BucketOffsetPb;
import dev.tributary.rpc.proto.ListOffsetsRequest;
import dev.tributary.rpc.proto.ListOffsetsResponse;
import dev.tributary.rpc.proto.ReadServiceGrpc;
import dev.tributary.server.store.LocalBuckets;
import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * {@link BucketEnds} in a cluster: a bucket this server leads (or no server leads) is read here,
 * every other from its leader, one {@code ListOffsets} call per leading server, so the lag counts
 * buckets this server holds no replica of, and does not count a stale copy's end. One channel per
 * server is kept until {@link #close}, replaced when the server's address changes (a restart on
 * other ports).
 */
public final class ClusterBucketEnds implements BucketEnds, AutoCloseable {
    /** Largest {@code ListOffsets} answer accepted: a few dozen bytes per bucket. */
    private static final int MAX_ANSWER_BYTES = 8 << 20;

    /** How long a status waits for a leader's answer before it says the lag is not measured. */
    private static final long ANSWER_TIMEOUT_MILLIS = 5_000;

    private final int serverId;
    private final LocalBuckets held;
    private final LocalBucketEnds local;
    private final String token;
    private final Map<Integer, Peer> peers = new HashMap<>();
    private boolean closed;

    /**
     * @param held which server leads each bucket, from the metadata this server applied
     * @param token the cluster's bearer token, or empty
     */
    public ClusterBucketEnds(int serverId, LocalBuckets held, LocalBucketEnds local, String token) {
        this.serverId = serverId;
        this.held = held;
        this.local = local;
        this.token = token;
    }

    @Override
    public Map<Integer, End> ends(
            long tableId, long partitionId, int buckets, Map<Integer, Long> tiered) {
        Map<Integer, String> leaderAddress = new HashMap<>();
        Map<String, Integer> serverAt = new HashMap<>();
        for (LocalBuckets.Leader l : held.leaders(tableId, partitionId, null).leaders()) {
            if (l.serverId() != serverId && l.rpcAddress().isPresent()) {
                leaderAddress.put(l.bucket(), l.rpcAddress().get());
                serverAt.put(l.rpcAddress().get(), l.serverId());
            }
        }
        Map<Integer, End> out = new HashMap<>();
        Map<String, List<Integer>> remote = new TreeMap<>();
        for (int b = 0; b < buckets; b++) {
            String address = leaderAddress.get(b);
            if (address == null) {
                out.put(b, local.end(new TableBucket(tableId, partitionId, b), tiered(tiered, b)));
            } else {
                remote.computeIfAbsent(address, a -> new ArrayList<>()).add(b);
            }
        }
        // every leader asked at once: a status waits for the slowest, not for their sum
        Map<String, ListenableFuture<ListOffsetsResponse>> asked = new TreeMap<>();
        remote.forEach(
                (address, list) ->
                        asked.put(
                                address,
                                ask(
                                        channel(serverAt.get(address), address),
                                        tableId,
                                        partitionId,
                                        list,
                                        tiered)));
        asked.forEach(
                (address, answer) ->
                        out.putAll(ends(address, await(answer), remote.get(address), tiered)));
        return out;
    }

    private static long tiered(Map<Integer, Long> tiered, int bucket) {
        return Math.max(0, tiered.getOrDefault(bucket, 0L));
    }

    private static ListenableFuture<ListOffsetsResponse> ask(
            ManagedChannel channel,
            long tableId,
            long partitionId,
            List<Integer> buckets,
            Map<Integer, Long> tiered) {
        ListOffsetsRequest.Builder req =
                ListOffsetsRequest.newBuilder().setTableId(tableId).addAllBuckets(buckets);
        if (partitionId != TableBucket.NO_PARTITION) {
            req.setPartitionId(partitionId);
        }
        for (int b : buckets) {
            BucketOffsetPb.Builder from =
                    BucketOffsetPb.newBuilder().setBucket(b).setOffset(tiered(tiered, b));
            if (partitionId != TableBucket.NO_PARTITION) {
                from.setPartitionId(partitionId);
            }
            req.addAppendTimesFrom(from);
        }
        return ReadServiceGrpc.newFutureStub(channel)
                .withDeadlineAfter(ANSWER_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                .listOffsets(req.build());
    }

    private static ListOffsetsResponse await(ListenableFuture<ListOffsetsResponse> answer) {
        try {
            return answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RetriableException("interrupted while asking a leader for its ends", e);
        } catch (ExecutionException e) {
            throw GrpcErrors.fromThrowable(e.getCause());
        }
    }

    /** The ends {@code address} told, each bucket asked checked to be there. */
    private static Map<Integer, End> ends(
            String address,
            ListOffsetsResponse answer,
            List<Integer> buckets,
            Map<Integer, Long> tiered) {
        Map<Integer, Long> ends = new HashMap<>();
        answer.getEndOffsetsList().forEach(o -> ends.put(o.getBucket(), o.getOffset()));
        Map<Integer, Long> times = new HashMap<>();
        answer.getAppendTimesList().forEach(o -> times.put(o.getBucket(), o.getOffset()));
        Map<Integer, End> out = new HashMap<>();
        for (int b : buckets) {
            Long end = ends.get(b);
            if (end == null || (end > tiered(tiered, b) && !times.containsKey(b))) {
                throw new RetriableException(
                        "the leader of bucket " + b + " at " + address + " did not tell its end");
            }
            out.put(
                    b,
                    new End(
                            end,
                            times.containsKey(b)
                                    ? OptionalLong.of(times.get(b))
                                    : OptionalLong.empty()));
        }
        return out;
    }

    private synchronized ManagedChannel channel(int server, String address) {
        if (closed) {
            throw new RetriableException("the server is stopping");
        }
        Peer p = peers.get(server);
        if (p == null || !p.address().equals(address)) {
            if (p != null) {
                p.channel().shutdown();
            }
            p = new Peer(address, PeerChannels.open(address, token, MAX_ANSWER_BYTES));
            peers.put(server, p);
        }
        return p.channel();
    }

    @Override
    public synchronized void close() {
        closed = true;
        peers.values().forEach(p -> p.channel().shutdownNow());
        peers.clear();
    }

    private record Peer(String address, ManagedChannel channel) {}
}

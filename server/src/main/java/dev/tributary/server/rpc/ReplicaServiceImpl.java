package dev.tributary.server.rpc;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.rpc.proto.FetchKvSnapshotRequest;
import dev.tributary.rpc.proto.FetchKvSnapshotResponse;
import dev.tributary.rpc.proto.FetchReplicaRequest;
import dev.tributary.rpc.proto.FetchReplicaResponse;
import dev.tributary.rpc.proto.ReplicaServiceGrpc;
import dev.tributary.server.replica.KvSnapshotFetch;
import dev.tributary.server.replica.KvSnapshotFetchCodec;
import dev.tributary.server.replica.LeaderReplica;
import dev.tributary.server.replica.ReplicaFetch;
import dev.tributary.server.replica.ReplicaFetchCodec;
import dev.tributary.storage.kv.KvBucket;
import dev.tributary.storage.kv.KvSnapshotTransfer;
import io.grpc.stub.StreamObserver;
import java.util.Optional;
import java.util.function.Function;

/**
 * Answers followers' fetches of the logs (T50) and KV snapshots (T53) of buckets this server leads.
 */
public final class ReplicaServiceImpl extends ReplicaServiceGrpc.ReplicaServiceImplBase {
    /** The most bytes of a KV snapshot file one answer carries, whatever the follower asks. */
    static final int MAX_SNAPSHOT_CHUNK = 4 << 20;

    private final Function<TableBucket, Optional<LeaderReplica>> leaders;
    private final Function<TableBucket, Optional<KvBucket>> kvs;

    /**
     * @param leaders the bucket's leader replica on this server, if this server leads it
     * @param kvs the bucket's KV state on this server, if it is a primary-key bucket held here
     */
    public ReplicaServiceImpl(
            Function<TableBucket, Optional<LeaderReplica>> leaders,
            Function<TableBucket, Optional<KvBucket>> kvs) {
        this.leaders = leaders;
        this.kvs = kvs;
    }

    @Override
    public void fetchKvSnapshot(
            FetchKvSnapshotRequest req, StreamObserver<FetchKvSnapshotResponse> out) {
        Calls.unary(
                out,
                () -> {
                    KvSnapshotFetch.Request r = KvSnapshotFetchCodec.fromProto(req);
                    leaderOf(r.bucket()).checkEpoch(r.followerId(), r.leaderEpoch());
                    KvSnapshotTransfer t =
                            kvs.apply(r.bucket())
                                    .orElseThrow(
                                            () ->
                                                    new InvalidInputException(
                                                            "bucket "
                                                                    + r.bucket()
                                                                    + " has no KV state here"))
                                    .snapshotTransfer();
                    KvSnapshotFetch.Answer a;
                    if (r.release()) {
                        t.release(r.leaseId());
                        a = new KvSnapshotFetch.Answer(Optional.empty(), new byte[0]);
                    } else if (r.leaseId() == 0) {
                        a = new KvSnapshotFetch.Answer(Optional.of(t.leaseNewest()), new byte[0]);
                    } else {
                        byte[] data =
                                t.read(
                                        r.leaseId(),
                                        r.snapshotId(),
                                        r.file(),
                                        r.position(),
                                        Math.min(r.maxBytes(), MAX_SNAPSHOT_CHUNK));
                        a = new KvSnapshotFetch.Answer(Optional.empty(), data);
                    }
                    return KvSnapshotFetchCodec.toProto(a);
                });
    }

    private LeaderReplica leaderOf(TableBucket bucket) {
        return leaders.apply(bucket)
                .orElseThrow(
                        () ->
                                new NotLeaderForBucketException(
                                        "this server does not lead bucket " + bucket));
    }

    @Override
    public void fetchReplica(FetchReplicaRequest req, StreamObserver<FetchReplicaResponse> out) {
        Calls.async(
                out,
                () -> {
                    ReplicaFetch.Request r = ReplicaFetchCodec.fromProto(req);
                    return leaderOf(r.bucket())
                            .fetchOrWait(r)
                            .thenApply(ReplicaFetchCodec::toProto);
                });
    }
}

package dev.tributary.server.rpc;

import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.rpc.proto.FetchReplicaRequest;
import dev.tributary.rpc.proto.FetchReplicaResponse;
import dev.tributary.rpc.proto.ReplicaServiceGrpc;
import dev.tributary.server.replica.LeaderReplica;
import dev.tributary.server.replica.ReplicaFetch;
import dev.tributary.server.replica.ReplicaFetchCodec;
import io.grpc.stub.StreamObserver;
import java.util.Optional;
import java.util.function.Function;

/** Answers followers' fetches of the buckets this server leads (T50). */
public final class ReplicaServiceImpl extends ReplicaServiceGrpc.ReplicaServiceImplBase {
    private final Function<TableBucket, Optional<LeaderReplica>> leaders;

    /**
     * @param leaders the bucket's leader replica on this server, if this server leads it
     */
    public ReplicaServiceImpl(Function<TableBucket, Optional<LeaderReplica>> leaders) {
        this.leaders = leaders;
    }

    @Override
    public void fetchReplica(FetchReplicaRequest req, StreamObserver<FetchReplicaResponse> out) {
        Calls.async(
                out,
                () -> {
                    ReplicaFetch.Request r = ReplicaFetchCodec.fromProto(req);
                    LeaderReplica leader =
                            leaders.apply(r.bucket())
                                    .orElseThrow(
                                            () ->
                                                    new NotLeaderForBucketException(
                                                            "this server does not lead bucket "
                                                                    + r.bucket()));
                    return leader.fetchOrWait(r).thenApply(ReplicaFetchCodec::toProto);
                });
    }
}

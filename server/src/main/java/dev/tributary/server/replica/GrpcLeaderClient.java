package dev.tributary.server.replica;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.MoreExecutors;
import dev.tributary.rpc.PeerChannels;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.FetchKvSnapshotResponse;
import dev.tributary.rpc.proto.FetchReplicaResponse;
import dev.tributary.rpc.proto.ReplicaServiceGrpc;
import io.grpc.ManagedChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Fetches a bucket's log (T50) and KV snapshots (T53) from the leader's server over gRPC. */
public final class GrpcLeaderClient implements ReplicaFetcher.LeaderClient, AutoCloseable {
    private final ManagedChannel channel;
    private final ReplicaServiceGrpc.ReplicaServiceFutureStub stub;
    private final long timeoutMillis;

    /**
     * @param target the leader's RPC {@code host:port}
     * @param token the cluster's bearer token, or empty
     * @param maxAnswerBytes the largest answer accepted (a bound on what the leader can make this
     *     server allocate)
     */
    public GrpcLeaderClient(String target, String token, int maxAnswerBytes, long timeoutMillis) {
        this.channel = PeerChannels.open(target, token, maxAnswerBytes);
        this.stub = ReplicaServiceGrpc.newFutureStub(channel);
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public CompletableFuture<ReplicaFetch.Answer> fetch(ReplicaFetch.Request request) {
        CompletableFuture<ReplicaFetch.Answer> out = new CompletableFuture<>();
        Futures.addCallback(
                stub.withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS)
                        .fetchReplica(ReplicaFetchCodec.toProto(request)),
                new FutureCallback<FetchReplicaResponse>() {
                    @Override
                    public void onSuccess(FetchReplicaResponse r) {
                        try {
                            out.complete(ReplicaFetchCodec.fromProto(r));
                        } catch (RuntimeException e) {
                            out.completeExceptionally(e);
                        }
                    }

                    @Override
                    public void onFailure(Throwable t) {
                        out.completeExceptionally(GrpcErrors.fromThrowable(t));
                    }
                },
                MoreExecutors.directExecutor());
        return out;
    }

    @Override
    public CompletableFuture<KvSnapshotFetch.Answer> fetchKvSnapshot(KvSnapshotFetch.Request r) {
        CompletableFuture<KvSnapshotFetch.Answer> out = new CompletableFuture<>();
        Futures.addCallback(
                stub.withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS)
                        .fetchKvSnapshot(KvSnapshotFetchCodec.toProto(r)),
                new FutureCallback<FetchKvSnapshotResponse>() {
                    @Override
                    public void onSuccess(FetchKvSnapshotResponse answer) {
                        try {
                            out.complete(KvSnapshotFetchCodec.fromProto(answer, r.isManifest()));
                        } catch (RuntimeException e) {
                            out.completeExceptionally(e);
                        }
                    }

                    @Override
                    public void onFailure(Throwable t) {
                        out.completeExceptionally(GrpcErrors.fromThrowable(t));
                    }
                },
                MoreExecutors.directExecutor());
        return out;
    }

    @Override
    public void close() {
        channel.shutdownNow();
    }
}

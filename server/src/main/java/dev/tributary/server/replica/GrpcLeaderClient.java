package dev.tributary.server.replica;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import dev.tributary.rpc.PeerChannels;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.ReplicaServiceGrpc;
import io.grpc.ManagedChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

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
        return call(
                stub().fetchReplica(ReplicaFetchCodec.toProto(request)),
                ReplicaFetchCodec::fromProto);
    }

    @Override
    public CompletableFuture<KvSnapshotFetch.Answer> fetchKvSnapshot(KvSnapshotFetch.Request r) {
        return call(
                stub().fetchKvSnapshot(KvSnapshotFetchCodec.toProto(r)),
                answer -> KvSnapshotFetchCodec.fromProto(answer, r.isManifest()));
    }

    private ReplicaServiceGrpc.ReplicaServiceFutureStub stub() {
        return stub.withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** The call's answer decoded; a failure or an answer that does not decode fails it, typed. */
    private static <P, T> CompletableFuture<T> call(
            ListenableFuture<P> sent, Function<P, T> decode) {
        CompletableFuture<T> out = new CompletableFuture<>();
        Futures.addCallback(
                sent,
                new FutureCallback<P>() {
                    @Override
                    public void onSuccess(P answer) {
                        try {
                            out.complete(decode.apply(answer));
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

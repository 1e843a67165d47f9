package dev.tributary.server.replica;

import dev.tributary.common.exception.RetriableException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * One gRPC channel per leader server, shared by every bucket this server follows there; a leader is
 * looked up by id at each fetch, so a restart on another address is followed.
 */
final class LeaderClients implements AutoCloseable {
    private final IntFunction<Optional<String>> addresses;
    private final String token;
    private final int maxAnswerBytes;
    private final long timeoutMillis;
    private final Map<String, GrpcLeaderClient> byAddress = new HashMap<>();
    private boolean closed;

    LeaderClients(
            IntFunction<Optional<String>> addresses,
            String token,
            int maxAnswerBytes,
            long timeoutMillis) {
        this.addresses = addresses;
        this.token = token;
        this.maxAnswerBytes = maxAnswerBytes;
        this.timeoutMillis = timeoutMillis;
    }

    /** Fetches from server {@code leaderId}, wherever it is registered at the time. */
    ReplicaFetcher.LeaderClient to(int leaderId) {
        return new ReplicaFetcher.LeaderClient() {
            @Override
            public CompletableFuture<ReplicaFetch.Answer> fetch(ReplicaFetch.Request request) {
                return call(leaderId, c -> c.fetch(request));
            }

            @Override
            public CompletableFuture<KvSnapshotFetch.Answer> fetchKvSnapshot(
                    KvSnapshotFetch.Request request) {
                return call(leaderId, c -> c.fetchKvSnapshot(request));
            }
        };
    }

    private <T> CompletableFuture<T> call(
            int leaderId, Function<GrpcLeaderClient, CompletableFuture<T>> call) {
        Optional<String> address = addresses.apply(leaderId);
        if (address.isEmpty()) {
            return CompletableFuture.failedFuture(
                    new RetriableException("server " + leaderId + " is not registered yet"));
        }
        GrpcLeaderClient client = client(address.get());
        return client == null
                ? CompletableFuture.failedFuture(new RetriableException("shutting down"))
                : call.apply(client);
    }

    private synchronized GrpcLeaderClient client(String address) {
        if (closed) {
            return null;
        }
        return byAddress.computeIfAbsent(
                address, a -> new GrpcLeaderClient(a, token, maxAnswerBytes, timeoutMillis));
    }

    @Override
    public synchronized void close() {
        closed = true;
        byAddress.values().forEach(GrpcLeaderClient::close);
        byAddress.clear();
    }
}

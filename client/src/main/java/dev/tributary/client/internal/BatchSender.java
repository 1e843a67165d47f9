package dev.tributary.client.internal;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.WriteRequest;
import dev.tributary.rpc.proto.WriteResponse;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Sends one write request and re-sends it after a {@link RetriableException} with exponential
 * backoff, up to a retry budget. The bytes are re-sent unchanged.
 *
 * <p>A retry after an ambiguous failure (the server may have applied the batch before the
 * connection broke) is safe when the batch carries a writer id and sequence (T42): the server
 * answers a batch it already appended with its first offsets. Without them a retry may append the
 * batch twice.
 */
final class BatchSender {
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    private final RpcClient rpc;
    private final boolean upsert;
    private final int retries;
    private final Duration backoff;
    private final ScheduledExecutorService scheduler;

    BatchSender(
            RpcClient rpc,
            boolean upsert,
            int retries,
            Duration backoff,
            ScheduledExecutorService scheduler) {
        this.rpc = rpc;
        this.upsert = upsert;
        this.retries = retries;
        this.backoff = backoff;
        this.scheduler = scheduler;
    }

    CompletableFuture<WriteResponse> send(WriteRequest request) {
        CompletableFuture<WriteResponse> result = new CompletableFuture<>();
        attempt(request, 0, result);
        return result;
    }

    private void attempt(
            WriteRequest request, int attempt, CompletableFuture<WriteResponse> result) {
        StreamObserver<WriteResponse> observer =
                new StreamObserver<>() {
                    @Override
                    public void onNext(WriteResponse value) {
                        result.complete(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        TributaryException e = GrpcErrors.fromThrowable(t);
                        if (e instanceof RetriableException && attempt < retries) {
                            long delay =
                                    Math.min(
                                            MAX_BACKOFF_MILLIS,
                                            backoff.toMillis() << Math.min(attempt, 20));
                            scheduler.schedule(
                                    () -> attempt(request, attempt + 1, result),
                                    delay,
                                    TimeUnit.MILLISECONDS);
                        } else {
                            result.completeExceptionally(e);
                        }
                    }

                    @Override
                    public void onCompleted() {}
                };
        try {
            if (upsert) {
                rpc.write().put(request, observer);
            } else {
                rpc.write().append(request, observer);
            }
        } catch (RuntimeException e) {
            observer.onError(e);
        }
    }
}

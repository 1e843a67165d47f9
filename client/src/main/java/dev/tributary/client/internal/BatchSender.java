package dev.tributary.client.internal;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.WriteRequest;
import dev.tributary.rpc.proto.WriteResponse;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Sends one write request to its bucket's server ({@link BucketLeaders}) and re-sends it after a
 * {@link RetriableException} with exponential backoff, up to a retry budget. The bytes are re-sent
 * unchanged. A {@code NOT_LEADER_FOR_BUCKET} answer is retriable too: the table's (partition's)
 * holders are forgotten, so the retry asks for them again and goes to the bucket's current server.
 *
 * <p>A retry after an ambiguous failure (the server may have applied the batch before the
 * connection broke) is safe when the batch carries a writer id and sequence (T42): the server
 * answers a batch it already appended with its first offsets. Without them a retry may append the
 * batch twice.
 */
final class BatchSender {
    private final BucketLeaders leaders;
    private final boolean upsert;
    private final int retries;
    private final Duration backoff;
    private final long maxBackoffMillis;
    private final ScheduledExecutorService scheduler;

    BatchSender(
            BucketLeaders leaders,
            boolean upsert,
            int retries,
            Duration backoff,
            Duration maxBackoff,
            ScheduledExecutorService scheduler) {
        this.leaders = leaders;
        this.upsert = upsert;
        this.retries = retries;
        this.backoff = backoff;
        this.maxBackoffMillis = maxBackoff.toMillis();
        this.scheduler = scheduler;
    }

    CompletableFuture<WriteResponse> send(WriteRequest request) {
        CompletableFuture<WriteResponse> result = new CompletableFuture<>();
        attempt(request, 0, result);
        return result;
    }

    private void attempt(
            WriteRequest request, int attempt, CompletableFuture<WriteResponse> result) {
        BucketLeaders.Key key =
                BucketLeaders.Key.partitionNamed(
                        request.getTableId(),
                        request.hasPartition() ? request.getPartition() : null);
        StreamObserver<WriteResponse> observer =
                new StreamObserver<>() {
                    @Override
                    public void onNext(WriteResponse value) {
                        result.complete(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        TributaryException e = GrpcErrors.fromThrowable(t);
                        leaders.onFailure(key, e);
                        if (e instanceof RetriableException && attempt < retries) {
                            long delay =
                                    Math.min(
                                            maxBackoffMillis,
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
        // cached holders complete at once; a fetch completes on a gRPC thread, never blocking the
        // writer's thread, which may hold the writer's lock here
        leaders.clientForAsync(key, request.getBucket())
                .whenComplete(
                        (rpc, error) -> {
                            if (error != null) {
                                observer.onError(
                                        error instanceof CompletionException
                                                        && error.getCause() != null
                                                ? error.getCause()
                                                : error);
                                return;
                            }
                            try {
                                if (upsert) {
                                    rpc.write().put(request, observer);
                                } else {
                                    rpc.write().append(request, observer);
                                }
                            } catch (RuntimeException e) {
                                observer.onError(e);
                            }
                        });
    }
}

package dev.tributary.client.internal;

import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.rpc.error.GrpcErrors;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The channel of a connection's coordinator calls (admin, tiering), following {@code
 * NOT_COORDINATOR} answers (issue 22 step 3): a call refused with a {@link NotCoordinatorException}
 * that names the leader's RPC address is sent once more, to that address (through the {@link
 * ChannelPool}), and later coordinator calls keep that channel until it fails with a retriable
 * error or another {@code NOT_COORDINATOR}, after which they start again from the bootstrap
 * channel. A refusal without an address propagates (the caller retries once a leader is elected).
 *
 * <p>When the connection was given several addresses, a channel failure moves later calls to the
 * next listed server in turn instead of back to the bootstrap channel: the bootstrap channel stays
 * with the server it connected to for as long as its TCP connection lives, and a server that hangs
 * (SIGSTOP, a long GC pause, a black-holed network) keeps that connection open while every call to
 * it times out. Any live server of the list answers or names the coordinator. At most one redirect
 * per call, so two servers naming each other cannot make a call loop. Thread safe.
 */
public final class CoordinatorRoute {
    private final ChannelPool pool;
    private final List<String> listed;
    private final AtomicInteger nextListed = new AtomicInteger();
    private volatile RpcClient current;

    /** A route for a connection given one address. */
    public CoordinatorRoute(ChannelPool pool) {
        this(pool, List.of());
    }

    /**
     * @param listed the addresses the connection was given, in order; with more than one, a channel
     *     failure moves to the next of them
     */
    public CoordinatorRoute(ChannelPool pool, List<String> listed) {
        this.pool = pool;
        this.listed = List.copyOf(listed);
        this.current = pool.bootstrap();
    }

    /** The channel coordinator calls use now. */
    public RpcClient current() {
        return current;
    }

    /**
     * Runs a blocking coordinator call on the current channel, redirecting once on {@code
     * NOT_COORDINATOR} with a known leader address, and going on once at the channel it moved to
     * when the server could not be reached (a followed coordinator that died: the bootstrap server
     * answers or names the new one, and the caller does not see the dead one's failure).
     *
     * @throws TributaryException the call's typed failure
     */
    public <T> T call(Function<RpcClient, T> call) {
        RpcClient used = current;
        Retries retries = new Retries();
        while (true) {
            RpcClient attempt = used;
            try {
                T result = RpcClient.call(() -> call.apply(attempt));
                current = attempt;
                return result;
            } catch (TributaryException e) {
                used = next(attempt, e, retries);
                if (used == null) {
                    throw e;
                }
            }
        }
    }

    /** Like {@link #call} for an asynchronous call; the next attempt starts on the failure. */
    public <T> CompletableFuture<T> callAsync(Function<RpcClient, CompletableFuture<T>> call) {
        return callAsync(call, current, new Retries());
    }

    private <T> CompletableFuture<T> callAsync(
            Function<RpcClient, CompletableFuture<T>> call, RpcClient used, Retries retries) {
        return start(call, used)
                .handle(
                        (value, error) -> {
                            if (error == null) {
                                current = used;
                                return CompletableFuture.completedFuture(value);
                            }
                            TributaryException e = GrpcErrors.fromThrowable(unwrap(error));
                            RpcClient next = next(used, e, retries);
                            return next == null
                                    ? CompletableFuture.<T>failedFuture(e)
                                    : callAsync(call, next, retries);
                        })
                .thenCompose(f -> f);
    }

    /** What one call has spent of its extra attempts: one redirect, one move past a dead server. */
    private static final class Retries {
        boolean redirected;
        boolean moved;
    }

    /** The channel of a call's next attempt after {@code e} on {@code used}, or null: give up. */
    private RpcClient next(RpcClient used, TributaryException e, Retries retries) {
        RpcClient leader = afterFailure(used, e);
        if (leader != null) {
            if (retries.redirected) {
                return null;
            }
            retries.redirected = true;
            return leader;
        }
        RpcClient moved = current;
        if (!retries.moved && moved != used && unreachable(e)) {
            retries.moved = true;
            return moved;
        }
        return null;
    }

    /**
     * Whether the transport could not reach the server (connection refused or lost), as opposed to
     * a server's answer or a deadline, after which the call may have run.
     */
    static boolean unreachable(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 10; depth++, t = t.getCause()) {
            if (t instanceof StatusRuntimeException || t instanceof StatusException) {
                return Status.fromThrowable(t).getCode() == Status.Code.UNAVAILABLE
                        && !GrpcErrors.answeredByServer(t);
            }
        }
        return false;
    }

    private static <T> CompletableFuture<T> start(
            Function<RpcClient, CompletableFuture<T>> call, RpcClient rpc) {
        try {
            return call.apply(rpc);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(GrpcErrors.fromThrowable(e));
        }
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    /**
     * After a failed call on {@code used}: drops a followed channel that failed as a channel (a
     * retriable error, not coordinator any more), and returns the leader's channel to retry on, or
     * null when the failure is the answer.
     */
    private RpcClient afterFailure(RpcClient used, TributaryException e) {
        if (listed.size() > 1 && e instanceof RetriableException) {
            // the channel failed (or its server cannot answer now): try the next listed server
            current = listedChannel();
        } else if (used != pool.bootstrap()
                && (e instanceof RetriableException || e instanceof NotCoordinatorException)) {
            current = pool.bootstrap();
        }
        Optional<String> target = redirectTarget(e);
        if (target.isEmpty()) {
            return null;
        }
        try {
            return pool.forAddress(target.get());
        } catch (TributaryException malformed) {
            e.addSuppressed(malformed);
            return null;
        }
    }

    private RpcClient listedChannel() {
        // from the second: the bootstrap channel prefers the first
        int i = Math.floorMod(nextListed.incrementAndGet(), listed.size());
        try {
            return pool.forAddress(listed.get(i));
        } catch (RuntimeException e) {
            return pool.bootstrap();
        }
    }

    /**
     * Where a failed coordinator call goes next: the leader's address named by a {@code
     * NOT_COORDINATOR} answer; empty for every other failure, and when no address is known.
     */
    static Optional<String> redirectTarget(Throwable failure) {
        if (failure instanceof NotCoordinatorException nce) {
            return nce.leaderAddress().filter(a -> !a.isBlank());
        }
        return Optional.empty();
    }
}

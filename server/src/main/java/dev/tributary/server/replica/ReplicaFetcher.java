package dev.tributary.server.replica;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one {@link FollowerReplica} fetching from its leader (T50): the next fetch follows at once
 * when the last one changed the log or was held by the leader (a long poll, {@code maxWaitMillis}
 * above 0), after {@code backoffMillis} when it failed or, without long polls, found nothing new.
 * Fetches and their answers run one at a time on the given executor, which may serve many fetchers.
 * A throttle may delay the next fetch by the bytes the last one brought (a replica moving here).
 */
public final class ReplicaFetcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaFetcher.class);

    /** How a follower reaches its bucket's leader. */
    public interface LeaderClient {
        CompletableFuture<ReplicaFetch.Answer> fetch(ReplicaFetch.Request request);

        /** One call of a KV snapshot copy ({@link KvSnapshotCopy}). */
        CompletableFuture<KvSnapshotFetch.Answer> fetchKvSnapshot(KvSnapshotFetch.Request request);
    }

    private final FollowerReplica follower;
    private final int leaderEpoch;
    private final LeaderClient leader;
    private final ScheduledExecutorService executor;
    private final long backoffMillis;
    private final int maxWaitMillis;
    private final int maxBytes;
    private final LongUnaryOperator throttle;
    private volatile boolean closed;
    private volatile int failuresInARow;

    /**
     * @param leaderEpoch the epoch of the leader fetched from, as the metadata says
     * @param throttle the milliseconds to wait before the next fetch, given the bytes the last one
     *     brought
     */
    public ReplicaFetcher(
            FollowerReplica follower,
            int leaderEpoch,
            LeaderClient leader,
            ScheduledExecutorService executor,
            long backoffMillis,
            int maxWaitMillis,
            int maxBytes,
            LongUnaryOperator throttle) {
        this.follower = follower;
        this.leaderEpoch = leaderEpoch;
        this.leader = leader;
        this.executor = executor;
        this.backoffMillis = backoffMillis;
        this.maxWaitMillis = maxWaitMillis;
        this.maxBytes = maxBytes;
        this.throttle = throttle;
    }

    public void start() {
        schedule(0);
    }

    private void schedule(long delayMillis) {
        if (closed) {
            return;
        }
        try {
            executor.schedule(this::fetchOnce, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            closed = true; // the server is stopping
        }
    }

    private void fetchOnce() {
        if (closed) {
            return;
        }
        CompletableFuture<ReplicaFetch.Answer> answer;
        try {
            answer = leader.fetch(follower.nextFetch(leaderEpoch, maxBytes, maxWaitMillis));
        } catch (RuntimeException e) {
            failed(e);
            return;
        }
        answer.whenCompleteAsync(
                (a, error) -> {
                    if (closed) {
                        return;
                    }
                    if (error != null) {
                        failed(error);
                        return;
                    }
                    try {
                        if (follower.needsSnapshot(a)) {
                            copySnapshot();
                            return;
                        }
                        boolean changed = follower.apply(a);
                        failuresInARow = 0;
                        long wait = throttle.applyAsLong(a.records().length);
                        schedule(Math.max(wait, changed || maxWaitMillis > 0 ? 0 : backoffMillis));
                    } catch (RuntimeException e) {
                        failed(e);
                    }
                },
                executor);
    }

    /** Copies the leader's KV snapshot, then fetches from its offset (T53). */
    private void copySnapshot() {
        new KvSnapshotCopy(
                        follower, leaderEpoch, leader, executor, maxBytes, () -> closed, throttle)
                .run()
                .whenCompleteAsync(
                        (offset, error) -> {
                            if (closed) {
                                return;
                            }
                            if (error != null) {
                                failed(error);
                            } else {
                                failuresInARow = 0;
                                schedule(0);
                            }
                        },
                        executor);
    }

    private void failed(Throwable error) {
        int n = ++failuresInARow;
        // a leader change or restart fails fetches for a while: say so once, not every backoff
        if (n == 1 || n % 100 == 0) {
            Throwable cause =
                    error instanceof CompletionException && error.getCause() != null
                            ? error.getCause()
                            : error;
            LOG.warn(
                    "bucket {}: fetch from the leader failed ({} in a row): {}",
                    follower.bucket(),
                    n,
                    cause.toString());
        }
        schedule(backoffMillis);
    }

    /** Stops fetching; a fetch in flight is ignored when it returns. */
    @Override
    public void close() {
        closed = true;
    }
}

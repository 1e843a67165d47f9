package dev.tributary.storage.log;

import dev.tributary.common.exception.StorageException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Group commit without a thread of its own (leader/follower). An appender that finds no fsync in
 * progress becomes the leader: it fsyncs everything written so far, completes every waiter that the
 * fsync covered, and repeats while waiters remain. Appenders that arrive during an fsync just
 * register and return; the leader's next round covers them, so N concurrent appends cost about two
 * fsyncs instead of N. Optionally the rounds run on a caller-supplied executor instead.
 *
 * <p>The durable offset only grows and is the log's high watermark. A failed fsync is final: what
 * reached the disk is unknown, so every later append fails until the bucket is reopened (and
 * recovered from what the file really holds).
 */
final class GroupCommitter {
    /** The log being made durable. */
    interface Target {
        /** Offset after the last record written to the file (maybe not yet durable). */
        long writtenEndOffset();

        /** fsyncs everything written so far. */
        void sync() throws IOException;
    }

    private record Waiter(long endOffset, CompletableFuture<Void> future) {}

    private final Target target;
    private final FlushPolicy policy;
    private final Executor flushExecutor;
    private final Object lock = new Object();
    private final List<Waiter> waiters = new ArrayList<>();
    private boolean leaderActive;
    // bumped by each truncate: an fsync round that began before one must not advance past the cut
    private long truncations;
    private volatile long durableOffset;
    private volatile StorageException failure;

    GroupCommitter(Target target, FlushPolicy policy, long durableOffset) {
        this(target, policy, durableOffset, null);
    }

    /**
     * @param flushExecutor where the leader's fsync rounds run; {@code null} runs them on the
     *     appending thread that became leader. With an executor an appender never blocks on fsync,
     *     so one writer can keep several batches in flight and they share fsyncs too.
     */
    GroupCommitter(Target target, FlushPolicy policy, long durableOffset, Executor flushExecutor) {
        this.target = target;
        this.policy = policy;
        this.durableOffset = durableOffset;
        this.flushExecutor = flushExecutor;
    }

    long durableOffset() {
        return durableOffset;
    }

    /** Completes when every record below {@code endOffset} is durable. */
    CompletableFuture<Void> awaitDurable(long endOffset) {
        if (failure != null) {
            return CompletableFuture.failedFuture(failure);
        }
        if (policy == FlushPolicy.OS_CACHE) {
            long generation = generation();
            advanceTo(target.writtenEndOffset(), generation);
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> future = new CompletableFuture<>();
        synchronized (lock) {
            if (durableOffset >= endOffset) {
                return CompletableFuture.completedFuture(null);
            }
            waiters.add(new Waiter(endOffset, future));
            if (leaderActive) {
                return future; // the current leader's next round covers us
            }
            leaderActive = true;
        }
        if (flushExecutor == null) {
            lead();
        } else {
            try {
                flushExecutor.execute(this::lead);
            } catch (RejectedExecutionException e) {
                lead(); // the executor is shutting down: do the work here rather than hang
            }
        }
        return future;
    }

    private void lead() {
        while (true) {
            long generation = generation();
            long covered = target.writtenEndOffset();
            StorageException error = null;
            try {
                target.sync();
            } catch (IOException | RuntimeException e) {
                error = new StorageException("fsync of the log failed: " + e, e);
                failure = error;
            }
            List<Waiter> done = new ArrayList<>();
            boolean more;
            synchronized (lock) {
                if (error == null) {
                    advanceTo(covered, generation);
                }
                long durable = durableOffset;
                waiters.removeIf(
                        w -> {
                            if (failure != null || w.endOffset <= durable) {
                                done.add(w);
                                return true;
                            }
                            return false;
                        });
                more = !waiters.isEmpty();
                if (!more) {
                    leaderActive = false;
                }
            }
            // complete outside the lock: callbacks may append again
            for (Waiter w : done) {
                if (failure != null) {
                    w.future.completeExceptionally(failure);
                } else {
                    w.future.complete(null);
                }
            }
            if (!more) {
                return;
            }
        }
    }

    /** fsyncs now on the calling thread, whatever the policy (snapshots, close). */
    void syncNow() {
        if (failure != null) {
            throw failure;
        }
        long generation = generation();
        long covered = target.writtenEndOffset();
        try {
            target.sync();
        } catch (IOException e) {
            // after a failed fsync the file's durable state is unknown: refuse from now on
            failure = new StorageException("fsync of the log failed: " + e, e);
            throw failure;
        }
        advanceTo(covered, generation);
    }

    /**
     * The log was cut at {@code newEnd} (and the cut fsync'd): the durable offset falls to it if it
     * was past it, and appends waiting for records past it fail with {@code cause}.
     */
    void truncate(long newEnd, RuntimeException cause) {
        List<Waiter> cut = new ArrayList<>();
        synchronized (lock) {
            truncations++;
            durableOffset = Math.min(durableOffset, newEnd);
            waiters.removeIf(
                    w -> {
                        if (w.endOffset > newEnd) {
                            cut.add(w);
                            return true;
                        }
                        return false;
                    });
        }
        for (Waiter w : cut) {
            w.future.completeExceptionally(cause);
        }
    }

    /**
     * The log was emptied and restarted at {@code start}, durably: the durable offset is {@code
     * start}, and every waiting append fails with {@code cause} (its records are gone).
     */
    void restartAt(long start, RuntimeException cause) {
        List<Waiter> cut;
        synchronized (lock) {
            truncations++;
            durableOffset = start;
            cut = new ArrayList<>(waiters);
            waiters.clear();
        }
        for (Waiter w : cut) {
            w.future.completeExceptionally(cause);
        }
    }

    private long generation() {
        synchronized (lock) {
            return truncations;
        }
    }

    private void advanceTo(long offset, long generation) {
        synchronized (lock) {
            if (generation == truncations && offset > durableOffset) {
                durableOffset = offset;
            }
        }
    }
}

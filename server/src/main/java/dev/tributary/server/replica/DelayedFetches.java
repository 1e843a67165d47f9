package dev.tributary.server.replica;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Followers' fetches a leader holds because it had nothing new for them (a long poll, Kafka's
 * delayed fetch): each is answered once records past its offset are durable on the leader, or at
 * its deadline, or when the leader stops, whichever comes first, and exactly once. Without it a
 * follower polls, and an append waits for the follower's next poll before it can be acknowledged.
 *
 * <p>The number held is bounded (a full set answers new fetches at once); answers run on the given
 * executor, never on the thread that made the records durable, except when the leader stops.
 */
final class DelayedFetches {
    /** More than any bucket's followers (the replication factor is at most 7). */
    static final int MAX_HELD = 64;

    private final ScheduledExecutorService executor;
    private final Set<Held> held = ConcurrentHashMap.newKeySet();
    private volatile boolean stopped;

    DelayedFetches(ScheduledExecutorService executor) {
        this.executor = executor;
    }

    private final class Held {
        final long fetchOffset;
        final Runnable answer;
        final AtomicBoolean answered = new AtomicBoolean();
        volatile ScheduledFuture<?> deadline;

        Held(long fetchOffset, Runnable answer) {
            this.fetchOffset = fetchOffset;
            this.answer = answer;
        }

        void release() {
            release(false);
        }

        void release(boolean here) {
            if (!answered.compareAndSet(false, true)) {
                return;
            }
            held.remove(this);
            ScheduledFuture<?> d = deadline;
            if (d != null) {
                d.cancel(false);
            }
            if (here) {
                answer.run();
                return;
            }
            try {
                executor.execute(answer);
            } catch (RejectedExecutionException stopping) {
                answer.run();
            }
        }
    }

    /**
     * Holds a fetch at {@code fetchOffset} for at most {@code maxWaitMillis}; {@code answer} then
     * runs once on the executor.
     *
     * @param durableEnd where the leader's durable records end now: a fetch they already reach is
     *     answered at once (records may have become durable since the fetch found none)
     * @return false if no more fetches can be held (the caller answers this one now)
     */
    boolean hold(long fetchOffset, long maxWaitMillis, Runnable answer, long durableEnd) {
        if (held.size() >= MAX_HELD) {
            return false;
        }
        Held h = new Held(fetchOffset, answer);
        held.add(h);
        if (stopped) {
            // the leader stopped since the fetch found it: nothing would answer a held fetch (the
            // executor stops next and drops its deadline), and the server's shutdown would wait
            h.release(true);
            return true;
        }
        try {
            h.deadline =
                    executor.schedule((Runnable) h::release, maxWaitMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            held.remove(h);
            return false;
        }
        if (durableEnd > fetchOffset) {
            h.release();
        }
        return true;
    }

    /** Records below {@code durableEnd} are durable: answers the fetches they reach. */
    void onDurable(long durableEnd) {
        for (Held h : held) {
            if (durableEnd > h.fetchOffset) {
                h.release();
            }
        }
    }

    /**
     * Answers every held fetch on this thread, and from now on every fetch at once (the leader
     * stops: the executor may stop next, and a fetch it never answered would hold the server's
     * shutdown for {@code server.shutdown.timeout}).
     */
    void releaseAll() {
        // before the sweep: a fetch held after it sees the flag (it was added before its check)
        stopped = true;
        for (Held h : held) {
            h.release(true);
        }
    }

    /** Fetches held now. */
    int size() {
        return held.size();
    }
}

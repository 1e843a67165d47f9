package dev.tributary.coordinator.runtime;

import dev.tributary.common.time.Clock;
import java.util.PriorityQueue;

/**
 * A deadline-ordered queue of timers on {@link Clock#nanoTime()}. Not thread safe: owned by one
 * loop. Timers with equal deadlines run in scheduling order, which keeps simulations deterministic.
 */
public final class TimerQueue implements TimerService {
    private final Clock clock;

    /** Cancelled timers tolerated in the queue before it is swept, at least. */
    static final int SWEEP_MIN = 64;

    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private long seq;
    private int cancelledCount;

    public TimerQueue(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Timer schedule(long delayMillis, Runnable task) {
        long delayNanos = Math.max(0, delayMillis) * 1_000_000L;
        Entry e = new Entry(clock.nanoTime() + delayNanos, seq++, task);
        sweepIfMostlyCancelled();
        queue.add(e);
        return e;
    }

    /** Deadline of the earliest live timer, or {@code Long.MAX_VALUE} if none. */
    public long nextDeadlineNanos() {
        while (!queue.isEmpty() && queue.peek().cancelled) {
            queue.poll();
            cancelledCount--;
        }
        return queue.isEmpty() ? Long.MAX_VALUE : queue.peek().deadlineNanos;
    }

    /**
     * Runs every timer due at the clock's current time, including timers they schedule that are due
     * too.
     *
     * @return how many ran
     */
    public int runDue() {
        int ran = 0;
        while (nextDeadlineNanos() <= clock.nanoTime()) {
            Entry e = queue.poll();
            Runnable task = e.task;
            e.cancelled = true;
            e.task = null;
            task.run();
            ran++;
        }
        return ran;
    }

    /** Timers in the queue, cancelled ones not yet swept included. */
    public int size() {
        return queue.size();
    }

    /**
     * Drops the cancelled timers once they are more than half the queue. A cancelled timer would
     * otherwise stay until its deadline: a commit timeout or a long-poll wait cancelled at every
     * round keeps one per round for the whole delay, so the queue would grow with the round rate
     * times the longest delay rather than with the live timers.
     */
    private void sweepIfMostlyCancelled() {
        if (cancelledCount > SWEEP_MIN && cancelledCount > queue.size() / 2) {
            queue.removeIf(e -> e.cancelled);
            cancelledCount = 0;
        }
    }

    private final class Entry implements Timer, Comparable<Entry> {
        final long deadlineNanos;
        final long seq;
        // null once it ran or was cancelled: a dead timer holds nothing its task captured
        Runnable task;
        boolean cancelled;

        Entry(long deadlineNanos, long seq, Runnable task) {
            this.deadlineNanos = deadlineNanos;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public void cancel() {
            if (!cancelled) {
                cancelled = true;
                task = null;
                cancelledCount++;
            }
        }

        @Override
        public int compareTo(Entry o) {
            int c = Long.compare(deadlineNanos, o.deadlineNanos);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}

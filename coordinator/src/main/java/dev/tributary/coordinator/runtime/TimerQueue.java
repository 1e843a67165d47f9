package dev.tributary.coordinator.runtime;

import dev.tributary.common.time.Clock;
import java.util.PriorityQueue;

/**
 * A deadline-ordered queue of timers on {@link Clock#nanoTime()}. Not thread safe: owned by one
 * loop. Timers with equal deadlines run in scheduling order, which keeps simulations deterministic.
 */
public final class TimerQueue implements TimerService {
    private final Clock clock;
    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private long seq;

    public TimerQueue(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Timer schedule(long delayMillis, Runnable task) {
        long delayNanos = Math.max(0, delayMillis) * 1_000_000L;
        Entry e = new Entry(clock.nanoTime() + delayNanos, seq++, task);
        queue.add(e);
        return e;
    }

    /** Deadline of the earliest live timer, or {@code Long.MAX_VALUE} if none. */
    public long nextDeadlineNanos() {
        while (!queue.isEmpty() && queue.peek().cancelled) {
            queue.poll();
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
            e.cancelled = true;
            e.task.run();
            ran++;
        }
        return ran;
    }

    public int size() {
        return queue.size();
    }

    private static final class Entry implements Timer, Comparable<Entry> {
        final long deadlineNanos;
        final long seq;
        final Runnable task;
        boolean cancelled;

        Entry(long deadlineNanos, long seq, Runnable task) {
            this.deadlineNanos = deadlineNanos;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        @Override
        public int compareTo(Entry o) {
            int c = Long.compare(deadlineNanos, o.deadlineNanos);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}

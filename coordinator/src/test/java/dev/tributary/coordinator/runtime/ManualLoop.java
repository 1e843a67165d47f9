package dev.tributary.coordinator.runtime;

import dev.tributary.common.time.ManualClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * A single-threaded stand-in for {@link CoordinatorEventLoop} driven by a {@link ManualClock}: the
 * caller's thread is the loop. Used by tests and benchmarks to run the real coordinator logic under
 * virtual time, deterministically and without sleeps (the planner's {@code VirtualLoop} is the
 * product-code counterpart). As a {@link LakeIo} it queues lake I/O behind the loop's own tasks (an
 * instant lake).
 */
public final class ManualLoop implements Executor, TimerService, LakeIo {
    private final ManualClock clock;
    private final TimerQueue timers;
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    public ManualLoop(ManualClock clock) {
        this.clock = clock;
        this.timers = new TimerQueue(clock);
    }

    public ManualClock clock() {
        return clock;
    }

    /** Queues a task for the loop (like posting to the event loop from another thread). */
    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    @Override
    public Handle submit(Runnable task) {
        AbandonableTask t = new AbandonableTask(task, () -> {}, () -> {});
        tasks.add(t);
        return t;
    }

    @Override
    public Timer schedule(long delayMillis, Runnable task) {
        return timers.schedule(delayMillis, task);
    }

    /** Runs queued tasks and due timers until none is left at the current time. */
    public void runReady() {
        while (true) {
            Runnable t = tasks.poll();
            if (t != null) {
                t.run();
                continue;
            }
            if (timers.runDue() == 0) {
                return;
            }
        }
    }

    /**
     * Moves virtual time forward by {@code d}, stopping at each timer deadline on the way so every
     * timer runs at exactly its due time.
     */
    public void advance(Duration d) {
        runReady();
        long target = clock.nanoTime() + d.toNanos();
        while (true) {
            long next = timers.nextDeadlineNanos();
            if (next > target) {
                break;
            }
            long now = clock.nanoTime();
            if (next > now) {
                clock.advance(Duration.ofNanos(next - now));
            }
            runReady();
        }
        long now = clock.nanoTime();
        if (target > now) {
            clock.advance(Duration.ofNanos(target - now));
        }
        runReady();
    }

    public void advanceMillis(long millis) {
        advance(Duration.ofMillis(millis));
    }

    /** Nanos until the next timer, or {@code Long.MAX_VALUE}. */
    public long nanosToNextTimer() {
        long next = timers.nextDeadlineNanos();
        return next == Long.MAX_VALUE ? next : Math.max(0, next - clock.nanoTime());
    }

    public boolean hasQueuedTasks() {
        return !tasks.isEmpty();
    }
}

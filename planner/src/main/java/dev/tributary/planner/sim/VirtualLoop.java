package dev.tributary.planner.sim;

import dev.tributary.common.time.ManualClock;
import dev.tributary.coordinator.runtime.LakeIo;
import dev.tributary.coordinator.runtime.TimerQueue;
import dev.tributary.coordinator.runtime.TimerService;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * The coordinator's event loop in virtual time: the caller's thread is the loop, time moves only
 * when the simulation says so, and every timer runs at exactly its due time. It gives the
 * coordinator's logic what {@code CoordinatorEventLoop} gives it in production (an executor for
 * posted tasks, timers, and lake I/O that reports back through the loop), so the simulation runs
 * the same code. Lake I/O takes a modeled latency ({@link #withLakeLatency}): what the job's commit
 * costs in the lake, in virtual time.
 */
public final class VirtualLoop implements Executor, TimerService {
    private final ManualClock clock;
    private final TimerQueue timers;
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private final VirtualLakeIo lakeIo = new VirtualLakeIo();
    private long lakeLatencyMillis;

    public VirtualLoop(ManualClock clock) {
        this.clock = clock;
        this.timers = new TimerQueue(clock);
    }

    public ManualClock clock() {
        return clock;
    }

    public long nowMillis() {
        return clock.currentTimeMillis();
    }

    /** Where the coordinator's lake I/O runs: after the latency in force when it was submitted. */
    public LakeIo lakeIo() {
        return lakeIo;
    }

    /** Queues a task for the loop (as another thread posts to the event loop). */
    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    @Override
    public Timer schedule(long delayMillis, Runnable task) {
        return timers.schedule(delayMillis, task);
    }

    /**
     * Runs {@code action}; lake I/O it submits takes {@code latencyMillis} of virtual time. Scoped
     * so that reconciliation reads and deletions, which the modeled job does not pay for, stay
     * instant.
     */
    public void withLakeLatency(long latencyMillis, Runnable action) {
        long before = lakeLatencyMillis;
        lakeLatencyMillis = Math.max(0, latencyMillis);
        try {
            action.run();
        } finally {
            lakeLatencyMillis = before;
        }
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
     * Moves virtual time forward to {@code targetMillis}, stopping at each timer deadline on the
     * way so every timer runs at exactly its due time. Never moves backwards.
     */
    public void advanceTo(long targetMillis) {
        runReady();
        long target = clock.nanoTime() + Math.max(0, targetMillis - nowMillis()) * 1_000_000L;
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

    /** Virtual time of the next timer (rounded up to a millisecond), or {@code Long.MAX_VALUE}. */
    public long nextTimerMillis() {
        long next = timers.nextDeadlineNanos();
        if (next == Long.MAX_VALUE) {
            return next;
        }
        long nanos = Math.max(0, next - clock.nanoTime());
        return nowMillis() + (nanos + 999_999) / 1_000_000;
    }

    /** Lake I/O in virtual time: a submitted task runs once its latency has passed. */
    private final class VirtualLakeIo implements LakeIo {
        @Override
        public Handle submit(Runnable task) {
            Pending p = new Pending(task);
            p.timer = timers.schedule(lakeLatencyMillis, p::run);
            return p;
        }

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }
    }

    /** A lake task not yet run: abandoning it before it runs cancels it. */
    private static final class Pending implements LakeIo.Handle {
        private final Runnable task;
        private Timer timer;
        private boolean started;

        Pending(Runnable task) {
            this.task = task;
        }

        void run() {
            started = true;
            task.run();
        }

        @Override
        public boolean abandon() {
            if (started) {
                return false;
            }
            timer.cancel();
            return true;
        }
    }
}

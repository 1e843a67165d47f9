package dev.tributary.coordinator.runtime;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A task's life, NEW -> RUNNING -> DONE, or NEW -> CANCELLED (abandoned before it started), or
 * RUNNING -> ABANDONED -> DONE (abandoned while running: interrupted, and {@code onAbandonedEnd}
 * runs when it finally returns). Transitions are atomic, so an abandon racing the task's start or
 * end has exactly one outcome.
 */
public final class AbandonableTask implements Runnable, LakeIo.Handle {
    private static final int NEW = 0;
    private static final int RUNNING = 1;
    private static final int ABANDONED = 2;
    private static final int DONE = 3;
    private static final int CANCELLED = 4;

    private final Runnable task;
    private final Runnable onAbandonWhileRunning;
    private final Runnable onAbandonedEnd;
    private final AtomicInteger state = new AtomicInteger(NEW);
    private volatile Thread runner;

    /**
     * @param onAbandonWhileRunning runs when a running task is abandoned (the pool grows)
     * @param onAbandonedEnd runs when an abandoned task returns (the pool shrinks back)
     */
    public AbandonableTask(Runnable task, Runnable onAbandonWhileRunning, Runnable onAbandonedEnd) {
        this.task = task;
        this.onAbandonWhileRunning = onAbandonWhileRunning;
        this.onAbandonedEnd = onAbandonedEnd;
    }

    @Override
    public void run() {
        if (!state.compareAndSet(NEW, RUNNING)) {
            return;
        }
        runner = Thread.currentThread();
        try {
            task.run();
        } finally {
            boolean abandoned = state.getAndSet(DONE) == ABANDONED;
            runner = null;
            // an abandon that lost the race with the end must not leak into the next task
            Thread.interrupted();
            if (abandoned) {
                onAbandonedEnd.run();
            }
        }
    }

    @Override
    public boolean abandon() {
        if (state.compareAndSet(NEW, CANCELLED)) {
            return true;
        }
        if (state.compareAndSet(RUNNING, ABANDONED)) {
            onAbandonWhileRunning.run();
            Thread t = runner;
            if (t != null) {
                t.interrupt();
            }
        }
        return false;
    }
}

package dev.tributary.coordinator.runtime;

import dev.tributary.common.concurrent.DaemonThreads;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The production {@link LakeIo}: {@code threads} threads, plus one more for every abandoned task
 * that still runs (a lake call stuck in uninterruptible I/O keeps its thread, but no longer its
 * slot).
 */
public final class LakeIoPool implements LakeIo, AutoCloseable {
    private final int threads;
    private final ThreadPoolExecutor pool;
    private int abandonedRunning;

    public LakeIoPool(int threads, String name) {
        this.threads = threads;
        this.pool =
                new ThreadPoolExecutor(
                        threads,
                        threads,
                        60,
                        TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(),
                        DaemonThreads.named(name));
    }

    @Override
    public void execute(Runnable task) {
        pool.execute(task);
    }

    @Override
    public Handle submit(Runnable task) {
        AbandonableTask t = new AbandonableTask(task, this::grow, this::shrink);
        pool.execute(t);
        return t;
    }

    /** Threads the pool may run now (for tests and status). */
    public synchronized int maximumThreads() {
        return pool.getMaximumPoolSize();
    }

    private synchronized void grow() {
        abandonedRunning++;
        // raise the maximum before the core: the core may never exceed it
        pool.setMaximumPoolSize(threads + abandonedRunning);
        pool.setCorePoolSize(threads + abandonedRunning);
    }

    private synchronized void shrink() {
        abandonedRunning--;
        pool.setCorePoolSize(threads + abandonedRunning);
        pool.setMaximumPoolSize(threads + abandonedRunning);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}

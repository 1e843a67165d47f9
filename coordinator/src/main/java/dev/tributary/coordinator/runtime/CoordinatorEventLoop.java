package dev.tributary.coordinator.runtime;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.time.Clock;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that runs the coordinator's logic: tasks posted from RPC and commit threads, and
 * timers on the {@link Clock}'s monotonic time. Everything the logic does happens here, so the
 * logic needs no locks; blocking work (lake commits) runs elsewhere and posts its outcome back.
 */
public final class CoordinatorEventLoop implements Executor, TimerService, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorEventLoop.class);

    private final Clock clock;
    private final TimerQueue timers;
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean running = true;

    public CoordinatorEventLoop(Clock clock, String name) {
        this.clock = clock;
        this.timers = new TimerQueue(clock);
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Posts a task; it runs on the loop thread in posting order. */
    @Override
    public void execute(Runnable task) {
        if (!running) {
            throw new RetriableException("the coordinator is shutting down");
        }
        tasks.add(task);
    }

    /** Runs {@code call} on the loop; its result or exception completes the future. */
    public <T> CompletableFuture<T> submit(Callable<T> call) {
        CompletableFuture<T> f = new CompletableFuture<>();
        execute(
                () -> {
                    try {
                        f.complete(call.call());
                    } catch (Throwable t) {
                        f.completeExceptionally(t);
                    }
                });
        return f;
    }

    /** Only from the loop thread. */
    @Override
    public Timer schedule(long delayMillis, Runnable task) {
        if (!inLoop()) {
            throw new IllegalStateException("timers may only be scheduled on the event loop");
        }
        return timers.schedule(delayMillis, task);
    }

    private void run() {
        while (running) {
            try {
                long waitNanos = timers.nextDeadlineNanos();
                waitNanos =
                        waitNanos == Long.MAX_VALUE
                                ? TimeUnit.SECONDS.toNanos(1)
                                : Math.max(0, waitNanos - clock.nanoTime());
                Runnable t =
                        waitNanos == 0 ? tasks.poll() : tasks.poll(waitNanos, TimeUnit.NANOSECONDS);
                // Timers run between tasks, so a due timer is never overtaken by tasks
                // posted after it became due, and a busy loop cannot starve timers.
                timers.runDue();
                while (t != null) {
                    runSafely(t);
                    timers.runDue();
                    t = tasks.poll();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Throwable t) {
                LOG.error("coordinator event loop task failed", t);
            }
        }
    }

    private static void runSafely(Runnable t) {
        try {
            t.run();
        } catch (Throwable e) {
            LOG.error("coordinator event loop task failed", e);
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

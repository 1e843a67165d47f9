package dev.tributary.coordinator.runtime;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.time.Clock;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that runs the coordinator's logic: tasks posted from RPC and lake I/O threads, and
 * timers on the {@link Clock}'s monotonic time. Everything the logic does happens here, so the
 * logic needs no locks; blocking work (lake commits) runs elsewhere and posts its outcome back.
 *
 * <p>Faults stop the loop. A {@link TributaryException} thrown by a {@link #submit} call is the
 * caller's error (bad input, a stale attempt) and goes to the caller; anything else, from a call, a
 * posted task or a timer (an {@code Error}, an illegal state transition, any other bug), means the
 * coordinator's state can no longer be trusted: the loop stops, later calls fail, and the
 * fatal-error handler is told, instead of carrying on with half-applied state.
 */
public final class CoordinatorEventLoop implements Executor, TimerService, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorEventLoop.class);

    private final Clock clock;
    private final TimerQueue timers;
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final Consumer<Throwable> onFatal;
    private volatile boolean running = true;
    private volatile Throwable fatal;

    /**
     * @param onFatal told (on the loop thread, once) when a fault stopped the loop
     */
    public CoordinatorEventLoop(Clock clock, String name, Consumer<Throwable> onFatal) {
        this.clock = clock;
        this.timers = new TimerQueue(clock);
        this.onFatal = onFatal;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** The fault that stopped the loop, or {@code null}. */
    public Throwable fatalError() {
        return fatal;
    }

    /** Posts a task; it runs on the loop thread in posting order. */
    @Override
    public void execute(Runnable task) {
        if (!running) {
            throw stopped();
        }
        tasks.add(task);
    }

    /**
     * Runs {@code call} on the loop; its result or its {@link TributaryException} completes the
     * future. Any other failure stops the loop (see the class comment).
     */
    public <T> CompletableFuture<T> submit(Callable<T> call) {
        CompletableFuture<T> f = new CompletableFuture<>();
        execute(
                () -> {
                    T value;
                    try {
                        value = call.call();
                    } catch (TributaryException e) {
                        f.completeExceptionally(e);
                        return;
                    } catch (Throwable e) {
                        // halt first: whoever sees this call fail finds the loop stopped
                        halt(e);
                        f.completeExceptionally(stoppedBy(e));
                        return;
                    }
                    f.complete(value);
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
                while (t != null && running) {
                    t.run();
                    timers.runDue();
                    t = running ? tasks.poll() : null;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Throwable e) {
                halt(e);
            }
        }
    }

    private void halt(Throwable e) {
        if (fatal != null) {
            return;
        }
        fatal = e;
        running = false;
        tasks.clear();
        LOG.error("the coordinator stopped after an internal error; restart the server", e);
        try {
            onFatal.accept(e);
        } catch (Throwable handlerFailure) {
            LOG.error("the coordinator's fatal-error handler failed", handlerFailure);
        }
    }

    private RetriableException stopped() {
        Throwable f = fatal;
        return f == null
                ? new RetriableException("the coordinator is shutting down")
                : stoppedBy(f);
    }

    private static RetriableException stoppedBy(Throwable cause) {
        return new RetriableException(
                "the coordinator stopped after an internal error ("
                        + cause
                        + "); it resumes when the server restarts",
                cause);
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

package dev.tributary.coordinator.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the coordinator's blocking lake steps (a tiering commit, a maintenance pass, a compaction
 * commit) on a {@link LakeIo} pool with a timeout, and hands each step's outcome back to the event
 * loop: the logic never blocks on the lake and never touches its state from an I/O thread.
 *
 * <p>A step running past its timeout is abandoned ({@link LakeIo.Handle#abandon}: interrupted, its
 * pool slot handed to another thread) and reported failed at once; its caller hears {@link
 * Outcome#ended} only when the lake call has really returned, so it can keep the table's next step
 * from overlapping one that may still land. Steps given the same key run one at a time: a step
 * waits, in call order, until the I/O of the key's previous step has returned, including an
 * abandoned one. Its timeout counts from the call, so a step stuck behind a hung one fails too.
 *
 * <p>Not thread safe: call on the loop only; every {@link Outcome} method runs there.
 */
public final class LakeIoRunner {
    private static final Logger LOG = LoggerFactory.getLogger(LakeIoRunner.class);

    /** The blocking part of a step; runs on the I/O pool. */
    @FunctionalInterface
    public interface Work<T> {
        /**
         * @param abandoned true once the step timed out: work with an effect still to make (say, a
         *     durable record) checks it first, since nobody will hear of the effect
         * @return the value {@link Outcome#succeeded} gets
         */
        T call(BooleanSupplier abandoned) throws Exception;
    }

    /** What became of a step; every method runs on the loop, exactly one of the first two once. */
    public interface Outcome<T> {
        /** The work returned in time. */
        void succeeded(T value);

        /**
         * The work threw in time, or the step ran past its timeout.
         *
         * @param cause what the work threw, or a {@link TimeoutException}
         * @param outcomeUnknown false only for a step that timed out before its work started (it
         *     never will); a work that threw or was abandoned while running may have had effects
         */
        void failed(Throwable cause, boolean outcomeUnknown);

        /**
         * The step's I/O is over (it returned, or will never run): right before {@link #succeeded}
         * or {@link #failed}, or on its own, later, after a timeout of a running step.
         */
        default void ended() {}
    }

    /**
     * A step's life: WAITING (behind its key's previous step) -> RUNNING (handed to the pool) ->
     * DONE, or RUNNING -> ABANDONED (timed out while its work ran) -> DONE when the work returns,
     * or WAITING -> DONE (timed out before it was handed over).
     */
    enum StepState {
        WAITING,
        RUNNING,
        ABANDONED,
        DONE;

        private Set<StepState> next() {
            return switch (this) {
                case WAITING -> EnumSet.of(RUNNING, DONE);
                case RUNNING -> EnumSet.of(ABANDONED, DONE);
                case ABANDONED -> EnumSet.of(DONE);
                case DONE -> EnumSet.noneOf(StepState.class);
            };
        }

        StepState transitionTo(StepState target) {
            if (!next().contains(target)) {
                throw new IllegalStateException(
                        "illegal lake I/O step transition " + this + " -> " + target);
            }
            return target;
        }
    }

    private final Executor loop;
    private final LakeIo io;
    private final TimerService timers;

    /** Keys whose last step's I/O may still run, each with the steps waiting behind it. */
    private final Map<Object, ArrayDeque<Step<?>>> busy = new HashMap<>();

    /**
     * @param loop where outcomes are delivered (the event loop)
     * @param io where the work runs
     * @param timers the loop's timers, for the timeouts
     */
    public LakeIoRunner(Executor loop, LakeIo io, TimerService timers) {
        this.loop = loop;
        this.io = io;
        this.timers = timers;
    }

    /**
     * Runs {@code work} off the loop.
     *
     * @param key steps with an equal key run one at a time; {@code null}: no such constraint
     * @param timeout how long the step may take from this call on
     * @param timeoutMessage the message of the {@link TimeoutException} the step fails with then
     */
    public <T> void run(
            Object key, Duration timeout, String timeoutMessage, Work<T> work, Outcome<T> outcome) {
        Step<T> step = new Step<>(key, timeoutMessage, work, outcome);
        step.timer = timers.schedule(timeout.toMillis(), step::timedOut);
        if (key == null) {
            step.submit();
            return;
        }
        ArrayDeque<Step<?>> waiting = busy.get(key);
        if (waiting != null) {
            waiting.add(step);
            return;
        }
        busy.put(key, new ArrayDeque<>());
        step.submit();
    }

    /** Whether a step of {@code key} runs or waits (its I/O may still run after a timeout). */
    public boolean busy(Object key) {
        return busy.containsKey(key);
    }

    /** Steps of {@code key} waiting for the one that runs. */
    public int waiting(Object key) {
        ArrayDeque<Step<?>> q = busy.get(key);
        return q == null ? 0 : q.size();
    }

    /** The key's I/O is over: its next waiting step starts. */
    private void release(Object key) {
        if (key == null) {
            return;
        }
        ArrayDeque<Step<?>> waiting = busy.get(key);
        Step<?> next = waiting == null ? null : waiting.poll();
        if (next == null) {
            busy.remove(key);
        } else {
            next.submit();
        }
    }

    private final class Step<T> {
        private final Object key;
        private final String timeoutMessage;
        private final Work<T> work;
        private final Outcome<T> outcome;

        /** Loop only. */
        private StepState state = StepState.WAITING;

        /** Set on the loop at a timeout, read by the work on the I/O thread. */
        private volatile boolean abandoned;

        private TimerService.Timer timer;
        private LakeIo.Handle handle;

        Step(Object key, String timeoutMessage, Work<T> work, Outcome<T> outcome) {
            this.key = key;
            this.timeoutMessage = timeoutMessage;
            this.work = work;
            this.outcome = outcome;
        }

        private void transition(StepState next) {
            state = state.transitionTo(next);
        }

        /** On the loop. */
        void submit() {
            transition(StepState.RUNNING);
            handle = io.submit(this::runWork);
        }

        /** On the I/O pool. */
        private void runWork() {
            T value;
            try {
                value = work.call(() -> abandoned);
            } catch (Throwable e) {
                post(() -> returned(null, e));
                return;
            }
            post(() -> returned(value, null));
        }

        private void post(Runnable task) {
            try {
                loop.execute(task);
            } catch (RuntimeException stopped) {
                // the loop stopped (a fault, or shutdown): nobody is left to hear the outcome
                LOG.debug("dropping the outcome of a lake I/O step: {}", stopped.toString());
            }
        }

        /** On the loop: the work returned, with {@code value} or {@code failure}. */
        private void returned(T value, Throwable failure) {
            boolean inTime = state == StepState.RUNNING;
            transition(StepState.DONE);
            release(key);
            outcome.ended();
            if (!inTime) {
                if (failure != null) {
                    LOG.debug("an abandoned lake I/O step failed late: {}", failure.toString());
                }
                return;
            }
            timer.cancel();
            if (failure == null) {
                outcome.succeeded(value);
            } else {
                outcome.failed(failure, true);
            }
        }

        /** On the loop: the timeout fired before the work returned. */
        void timedOut() {
            if (state == StepState.DONE || state == StepState.ABANDONED) {
                return;
            }
            abandoned = true;
            TimeoutException cause = new TimeoutException(timeoutMessage);
            if (state == StepState.WAITING) {
                busy.get(key).remove(this);
                transition(StepState.DONE);
                outcome.ended();
                outcome.failed(cause, false);
                return;
            }
            if (handle == null || handle.abandon()) {
                // it never started and never will: the key is free now
                transition(StepState.DONE);
                release(key);
                outcome.ended();
                outcome.failed(cause, false);
            } else {
                transition(StepState.ABANDONED);
                outcome.failed(cause, true);
            }
        }
    }
}

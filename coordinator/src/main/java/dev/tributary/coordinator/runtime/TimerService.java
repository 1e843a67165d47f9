package dev.tributary.coordinator.runtime;

/**
 * Delayed tasks on the coordinator's event loop, measured on the {@code Clock}'s monotonic time so
 * that wall-clock jumps neither fire nor stall timers. Only called from, and runs tasks on, the
 * event-loop thread.
 */
public interface TimerService {

    /** Runs {@code task} on the loop once {@code delayMillis} (clamped at 0) have passed. */
    Timer schedule(long delayMillis, Runnable task);

    /** A scheduled task. */
    interface Timer {
        /** Prevents the task from running if it has not run yet; idempotent. */
        void cancel();
    }
}

package dev.tributary.common.time;

/**
 * The only way Tributary code reads time, so that every time-dependent decision can be driven by a
 * {@link ManualClock} in tests.
 */
public interface Clock {

    /** Wall-clock time in milliseconds since the epoch; may jump (NTP, manual changes). */
    long currentTimeMillis();

    /** Monotonic time in nanoseconds for measuring durations; never goes backwards. */
    long nanoTime();

    /** The process's real clock. */
    static Clock system() {
        return SystemClock.INSTANCE;
    }
}

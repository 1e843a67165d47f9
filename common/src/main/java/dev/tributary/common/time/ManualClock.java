package dev.tributary.common.time;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to. Wall time may be set backwards to simulate clock jumps;
 * monotonic time only moves forward.
 */
public final class ManualClock implements Clock {
    private final AtomicLong millis;
    private final AtomicLong nanos = new AtomicLong();

    public ManualClock() {
        this(0L);
    }

    public ManualClock(long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    @Override
    public long currentTimeMillis() {
        return millis.get();
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    /** Moves both clocks forward. */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException(
                    "cannot advance by a negative duration: " + duration);
        }
        millis.addAndGet(duration.toMillis());
        nanos.addAndGet(duration.toNanos());
    }

    public void advanceMillis(long deltaMillis) {
        advance(Duration.ofMillis(deltaMillis));
    }

    /** Sets wall time (possibly backwards, like an NTP step); monotonic time is unaffected. */
    public void setCurrentTimeMillis(long newMillis) {
        millis.set(newMillis);
    }
}

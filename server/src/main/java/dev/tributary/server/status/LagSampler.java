package dev.tributary.server.status;

import dev.tributary.common.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds the {@link LagHistory}: each {@link #run()} (called by the server's maintenance thread
 * every interval) takes a sample if the server's {@link Clock} says one is due. The decision is
 * made on the clock, not on the thread's timing, so tests drive it with a ManualClock and the
 * thread is only a metronome.
 */
public final class LagSampler implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(LagSampler.class);

    private final LagSource source;
    private final LagHistory history;
    private final Clock clock;
    private final long intervalMillis;
    private long lastSampleMillis = Long.MIN_VALUE;

    public LagSampler(LagSource source, LagHistory history, Clock clock, Duration interval) {
        this.source = source;
        this.history = history;
        this.clock = clock;
        this.intervalMillis = interval.toMillis();
    }

    /** Samples if due; a failure is logged and the next tick tries again. */
    @Override
    public void run() {
        try {
            sampleIfDue();
        } catch (RuntimeException e) {
            LOG.warn("lag history sample failed; retrying at the next tick", e);
        }
    }

    /**
     * Takes a sample unless the last one is less than half an interval old. Half, not a whole one:
     * a metronome tick that fires a few milliseconds early must not skip a whole period. A wall
     * clock that stepped back makes a sample due at once (the history drops the samples that now
     * lie in the future).
     *
     * @return whether a sample was taken
     */
    public boolean sampleIfDue() {
        long now = clock.currentTimeMillis();
        if (lastSampleMillis != Long.MIN_VALUE
                && now >= lastSampleMillis
                && now - lastSampleMillis < (intervalMillis + 1) / 2) {
            return false;
        }
        history.record(now, source.tables());
        lastSampleMillis = now;
        return true;
    }
}

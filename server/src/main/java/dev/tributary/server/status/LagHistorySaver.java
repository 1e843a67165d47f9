package dev.tributary.server.status;

import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.time.Clock;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the {@link LagHistory} across restarts: {@link #load()} once at start, then each {@link
 * #run()} (the maintenance thread's tick) rewrites the {@link LagHistoryFile} when the server's
 * {@link Clock} says a save is due and a sample was taken since the last save, and {@link #save()}
 * once more at shutdown. A crash loses at most one save interval of samples: a gap in the plot.
 */
public final class LagHistorySaver implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(LagHistorySaver.class);

    private final LagHistory history;
    private final LagHistoryFile file;
    private final Clock clock;
    private final long everyMillis;
    private long lastSaveMillis = Long.MIN_VALUE;
    private long savedSampleMillis = -1;

    public LagHistorySaver(LagHistory history, LagHistoryFile file, Clock clock, Duration every) {
        this.history = history;
        this.file = file;
        this.clock = clock;
        this.everyMillis = every.toMillis();
    }

    /**
     * Loads the saved history. A damaged or unreadable file is reported and left to be overwritten
     * by the next save: the history is a view of the past, never a reason not to start.
     *
     * @return the samples loaded
     */
    public int load() {
        try {
            int kept = history.restore(file.read(), clock.currentTimeMillis());
            savedSampleMillis = history.lastSampleMillis();
            lastSaveMillis = clock.currentTimeMillis();
            if (kept > 0) {
                LOG.info("lag history: {} samples loaded from {}", kept, file.path());
            }
            return kept;
        } catch (IOException | TributaryException e) {
            LOG.warn(
                    "lag history in {} cannot be read ({}); the plot starts empty and the file is"
                            + " rewritten at the next save",
                    file.path(),
                    e.getMessage());
            return 0;
        }
    }

    /** Saves if due; a failure is logged and the next tick tries again. */
    @Override
    public void run() {
        long now = clock.currentTimeMillis();
        if (lastSaveMillis != Long.MIN_VALUE
                && now >= lastSaveMillis
                && now - lastSaveMillis < everyMillis) {
            return;
        }
        save();
    }

    /**
     * Writes the history now unless nothing was sampled since the last save.
     *
     * @return whether the file was written
     */
    public synchronized boolean save() {
        long now = clock.currentTimeMillis();
        long newest = history.lastSampleMillis();
        lastSaveMillis = now;
        if (newest == savedSampleMillis) {
            return false;
        }
        try {
            file.write(now, history.view().tables());
            savedSampleMillis = newest;
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.warn("lag history cannot be saved to {}; retrying later", file.path(), e);
            return false;
        }
    }
}

package dev.tributary.cli.output;

import dev.tributary.common.time.Clock;
import java.io.PrintWriter;

/** A one-line progress indicator on stderr, redrawn at most every 200 ms. */
public final class Progress {
    private static final long REDRAW_NANOS = 200_000_000L;

    private final PrintWriter err;
    private final boolean quiet;
    private final Clock clock = Clock.system();
    private final long start = clock.nanoTime();
    private long lastDraw = start;
    private boolean drawn;

    public Progress(PrintWriter err, boolean quiet) {
        this.err = err;
        this.quiet = quiet;
    }

    public void update(long rows) {
        if (quiet || (rows & 1023) != 0) {
            return;
        }
        long now = clock.nanoTime();
        if (now - lastDraw < REDRAW_NANOS) {
            return;
        }
        lastDraw = now;
        draw(rows, now);
    }

    public void done(long rows) {
        if (!quiet && drawn) {
            draw(rows, clock.nanoTime());
            err.println();
            err.flush();
        }
    }

    private void draw(long rows, long now) {
        double secs = Math.max(1e-3, (now - start) / 1e9);
        int bar = (int) ((rows / 10_000) % 20);
        err.print(
                "\r["
                        + "=".repeat(bar)
                        + ">"
                        + " ".repeat(20 - bar)
                        + "] "
                        + rows
                        + " rows, "
                        + String.format("%.0f", rows / secs)
                        + " rows/s");
        err.flush();
        drawn = true;
    }
}

package dev.tributary.planner.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * A table's lake lag over a run, exactly: the lag at time t is {@code max(0, t - oldest)}, where
 * {@code oldest} is the write time of the oldest record not yet in the lake and changes only when a
 * round commits. The trace keeps one segment per such change, so percentiles and the peak need no
 * sampling interval (a sampled peak would miss the instant before a commit).
 */
final class LagTrace {
    private final List<long[]> segments = new ArrayList<>();
    private long since;
    private long oldest;

    /**
     * @param startMillis when tracing starts
     * @param oldest write time of the oldest untiered record then ({@code Long.MAX_VALUE}: none)
     */
    LagTrace(long startMillis, long oldest) {
        this.since = startMillis;
        this.oldest = oldest;
    }

    /** From {@code nowMillis} on, the oldest untiered record was written at {@code oldest}. */
    void change(long nowMillis, long newOldest) {
        if (nowMillis > since) {
            segments.add(new long[] {since, nowMillis, oldest});
            since = nowMillis;
        }
        oldest = newOldest;
    }

    /** Closes the trace at {@code endMillis}. */
    void end(long endMillis) {
        change(endMillis, oldest);
    }

    /** Figures over {@code [from, to)}. */
    Figures figures(long from, long to) {
        List<long[]> in = new ArrayList<>();
        double integral = 0;
        long peak = 0;
        for (long[] s : segments) {
            long a = Math.max(s[0], from);
            long b = Math.min(s[1], to);
            if (b <= a) {
                continue;
            }
            long o = s[2];
            in.add(new long[] {a, b, o});
            if (o < b) {
                long lo = Math.max(a, o);
                // the lag rises with slope 1 from lo - o to b - o
                integral += ((double) (lo - o) + (b - o)) / 2.0 * (b - lo);
                peak = Math.max(peak, b - o);
            }
        }
        long span = Math.max(1, to - from);
        return new Figures(integral / span, quantile(in, span, 0.99, peak), peak);
    }

    /** The lag exceeded by a fraction {@code 1 - q} of the time: a bisection on the value. */
    private static long quantile(List<long[]> segments, long span, double q, long peak) {
        double allowed = (1 - q) * span;
        long lo = 0;
        long hi = peak;
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            if (timeAbove(segments, mid) <= allowed) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** Time during which the lag was above {@code v}. */
    private static double timeAbove(List<long[]> segments, long v) {
        double t = 0;
        for (long[] s : segments) {
            if (s[2] == Long.MAX_VALUE) {
                continue;
            }
            long from = Math.max(s[0], s[2] + v);
            if (s[1] > from) {
                t += s[1] - from;
            }
        }
        return t;
    }

    /** Time-weighted mean, p99 and peak of the lag, in milliseconds. */
    record Figures(double avgMillis, long p99Millis, long peakMillis) {}
}

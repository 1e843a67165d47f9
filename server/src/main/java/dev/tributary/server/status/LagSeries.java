package dev.tributary.server.status;

import java.util.Arrays;

/**
 * One table's lag samples in time order, in a fixed-size ring: when full, a new sample overwrites
 * the oldest, so a table never holds more than {@code capacity} samples whatever the clock does.
 * Not thread-safe; {@link LagHistory} guards it.
 */
final class LagSeries {
    private final long[] times;
    private final long[] lagMillis;
    private final long[] lagRecords;
    private int start;
    private int size;

    LagSeries(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1: " + capacity);
        }
        times = new long[capacity];
        lagMillis = new long[capacity];
        lagRecords = new long[capacity];
    }

    int size() {
        return size;
    }

    /** Time of the newest sample; only when {@link #size()} > 0. */
    long lastTime() {
        return times[(start + size - 1) % times.length];
    }

    int capacity() {
        return times.length;
    }

    void add(long timeMillis, long lagMs, long lagRecs) {
        if (size == times.length) {
            start = (start + 1) % times.length;
            size--;
        }
        int i = (start + size) % times.length;
        times[i] = timeMillis;
        lagMillis[i] = lagMs;
        lagRecords[i] = lagRecs;
        size++;
    }

    /** Drops samples taken before {@code cutoffMillis} (retention). */
    void dropBefore(long cutoffMillis) {
        while (size > 0 && times[start] < cutoffMillis) {
            start = (start + 1) % times.length;
            size--;
        }
    }

    /**
     * Drops samples stamped after {@code timeMillis}: after the wall clock steps back they would
     * sit in the future and break the time order the plot relies on.
     */
    void dropAfter(long timeMillis) {
        while (size > 0 && times[(start + size - 1) % times.length] > timeMillis) {
            size--;
        }
    }

    long[] times() {
        return copy(times);
    }

    long[] lagMillis() {
        return copy(lagMillis);
    }

    long[] lagRecords() {
        return copy(lagRecords);
    }

    /**
     * The samples with {@code sinceExclusive < time <= untilInclusive}, as {@code {times,
     * lagMillis, lagRecords}}.
     */
    long[][] between(long sinceExclusive, long untilInclusive) {
        return between(sinceExclusive, untilInclusive, Integer.MAX_VALUE);
    }

    /**
     * As {@link #between(long, long)}, thinned to at most {@code maxPoints} samples: the samples
     * are cut into {@code maxPoints} runs of consecutive ones and each run gives its sample with
     * the highest lag, so the peaks of the sawtooth (what the freshness is judged by) stay visible.
     */
    long[][] between(long sinceExclusive, long untilInclusive, int maxPoints) {
        if (maxPoints < 1) {
            throw new IllegalArgumentException("maxPoints must be >= 1: " + maxPoints);
        }
        int from = 0;
        while (from < size && times[(start + from) % times.length] <= sinceExclusive) {
            from++;
        }
        int to = from;
        while (to < size && times[(start + to) % times.length] <= untilInclusive) {
            to++;
        }
        int n = to - from;
        int points = Math.min(n, maxPoints);
        long[][] out = new long[3][points];
        for (int p = 0; p < points; p++) {
            // run p holds the samples [from + p*n/points, from + (p+1)*n/points)
            int first = from + (int) ((long) p * n / points);
            int end = from + (int) ((long) (p + 1) * n / points);
            int best = (start + first) % times.length;
            for (int i = first + 1; i < end; i++) {
                int at = (start + i) % times.length;
                if (lagMillis[at] > lagMillis[best]) {
                    best = at;
                }
            }
            out[0][p] = times[best];
            out[1][p] = lagMillis[best];
            out[2][p] = lagRecords[best];
        }
        return out;
    }

    private long[] copy(long[] ring) {
        long[] out = new long[size];
        int first = Math.min(size, ring.length - start);
        System.arraycopy(ring, start, out, 0, first);
        System.arraycopy(ring, 0, out, first, size - first);
        return out;
    }

    @Override
    public String toString() {
        return "LagSeries" + Arrays.toString(times());
    }
}

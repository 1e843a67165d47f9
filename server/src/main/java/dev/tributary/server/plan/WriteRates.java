package dev.tributary.server.plan;

import dev.tributary.server.status.TableStatusView;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Each lake table's write rate per bucket, measured from the store's end offsets: the lag sampler
 * hands every status sample here too, and a table's rate is the growth of each bucket's end offset
 * over the samples of the last {@code window}. Thread safe.
 */
public final class WriteRates {
    private final long windowMillis;
    private final Map<Long, ArrayDeque<Sample>> byTable = new HashMap<>();

    private record Sample(long timeMillis, long[] endOffsets) {}

    /**
     * Per bucket records per second over {@code spanMillis}.
     *
     * @param samples how many samples the rate is taken from
     */
    public record Rate(double[] recordsPerSecond, long spanMillis, int samples) {
        public double total() {
            double s = 0;
            for (double r : recordsPerSecond) {
                s += r;
            }
            return s;
        }

        /** The busiest bucket over the mean bucket; 1 when nothing is written. */
        public double skew() {
            double total = total();
            if (total <= 0) {
                return 1;
            }
            double max = 0;
            for (double r : recordsPerSecond) {
                max = Math.max(max, r);
            }
            return Math.max(1, max / (total / recordsPerSecond.length));
        }
    }

    public WriteRates(long windowMillis) {
        this.windowMillis = windowMillis;
    }

    /** Records the end offsets of every table in {@code tables}; forgets tables not in it. */
    public synchronized void record(long nowMillis, List<TableStatusView> tables) {
        Set<Long> seen = new HashSet<>();
        for (TableStatusView t : tables) {
            seen.add(t.tableId());
            Map<Integer, Long> ends = t.endOffsets();
            if (ends == null || ends.isEmpty() || !t.lagKnown()) {
                continue;
            }
            long[] e = new long[ends.size()];
            for (int b = 0; b < e.length; b++) {
                e[b] = ends.getOrDefault(b, 0L);
            }
            ArrayDeque<Sample> q = byTable.computeIfAbsent(t.tableId(), id -> new ArrayDeque<>());
            Sample last = q.peekLast();
            if (last != null
                    && (nowMillis <= last.timeMillis || last.endOffsets.length != e.length)) {
                // a clock step back or a changed layout: start the series again
                q.clear();
            }
            q.addLast(new Sample(nowMillis, e));
            while (q.size() > 2 && q.peekFirst().timeMillis < nowMillis - windowMillis) {
                q.pollFirst();
            }
        }
        byTable.keySet().retainAll(seen);
    }

    /** The table's rate over the window, once two samples span at least a second. */
    public synchronized Optional<Rate> rate(long tableId) {
        ArrayDeque<Sample> q = byTable.get(tableId);
        if (q == null || q.size() < 2) {
            return Optional.empty();
        }
        Sample first = q.peekFirst();
        Sample last = q.peekLast();
        long span = last.timeMillis - first.timeMillis;
        if (span < 1000) {
            return Optional.empty();
        }
        double[] r = new double[last.endOffsets.length];
        for (int b = 0; b < r.length; b++) {
            r[b] = Math.max(0, last.endOffsets[b] - first.endOffsets[b]) * 1000.0 / span;
        }
        return Optional.of(new Rate(r, span, q.size()));
    }

    public long windowMillis() {
        return windowMillis;
    }
}

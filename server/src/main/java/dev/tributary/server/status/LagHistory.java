package dev.tributary.server.status;

import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.server.config.ServerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server-side lag history behind the lag plot (T28): per lake table, a bounded ring of (time,
 * lag in ms, lag in records) samples. Kept by the server rather than the browser so that a page
 * opened now shows the last hour, including the sawtooth of rounds nobody was watching.
 *
 * <p>Memory is bounded twice: samples older than the retention are dropped at every record, and
 * each table's ring holds at most {@code retention / interval + 2} samples however the samples are
 * spaced. A table missing from a sample (dropped, or its lake tiering disabled) loses its series.
 * Thread-safe: the sampler records while HTTP threads read.
 */
public final class LagHistory {
    /** Upper bound of one table's ring, so that a tiny interval cannot eat the heap. */
    public static final int MAX_SAMPLES_PER_TABLE = 100_000;

    private final long intervalMillis;
    private final long retentionMillis;
    private final int capacity;
    private final Map<Long, TableEntry> tables = new HashMap<>();
    private long lastSampleMillis = -1;

    /**
     * @throws InvalidConfigException if the retention is shorter than the interval or would keep
     *     more than {@link #MAX_SAMPLES_PER_TABLE} samples per table
     */
    public LagHistory(Duration interval, Duration retention) {
        this.capacity = capacityFor(interval, retention);
        this.intervalMillis = interval.toMillis();
        this.retentionMillis = retention.toMillis();
    }

    /**
     * The ring size for these settings: the samples one retention holds at one per interval, plus
     * slack for a sample that lands early.
     *
     * @throws InvalidConfigException for settings that keep no history or too much
     */
    public static int capacityFor(Duration interval, Duration retention) {
        String keys =
                ServerOptions.LAG_HISTORY_RETENTION.key()
                        + "="
                        + retention
                        + " and "
                        + ServerOptions.LAG_HISTORY_INTERVAL.key()
                        + "="
                        + interval;
        if (interval.toMillis() <= 0 || retention.compareTo(interval) < 0) {
            throw new InvalidConfigException(
                    keys + ": the retention must be at least one interval (and the interval > 0)");
        }
        long samples = retention.toMillis() / interval.toMillis() + 2;
        if (samples > MAX_SAMPLES_PER_TABLE) {
            throw new InvalidConfigException(
                    keys
                            + " would keep "
                            + samples
                            + " samples per table; at most "
                            + MAX_SAMPLES_PER_TABLE
                            + " are allowed: lengthen the interval or shorten the retention");
        }
        return (int) samples;
    }

    /** Samples one table can hold at most. */
    public int capacity() {
        return capacity;
    }

    /**
     * Records one sample of every table in {@code status} at {@code nowMillis}, drops samples past
     * the retention and the series of tables that are no longer in {@code status}.
     */
    public synchronized void record(long nowMillis, List<TableStatusView> status) {
        Set<Long> seen = new HashSet<>();
        for (TableStatusView t : status) {
            if (!seen.add(t.tableId())) {
                continue;
            }
            TableEntry e = tables.computeIfAbsent(t.tableId(), id -> new TableEntry(capacity));
            e.table = t.table();
            e.freshnessMillis = t.freshnessMillis();
            e.state = t.state();
            e.series.dropAfter(nowMillis);
            if (t.lagKnown()) {
                // an unmeasured sample is left out: the plot shows a gap, not a false 0
                e.series.add(nowMillis, t.lagMillis(), t.lagRecords());
            }
        }
        tables.keySet().retainAll(seen);
        long cutoff = nowMillis - retentionMillis;
        for (TableEntry e : tables.values()) {
            e.series.dropBefore(cutoff);
        }
        lastSampleMillis = nowMillis;
    }

    /** Every table's series, ordered by table name. */
    public synchronized LagHistoryView view() {
        List<LagHistoryView.Series> out = new ArrayList<>();
        for (Map.Entry<Long, TableEntry> e : tables.entrySet()) {
            out.add(e.getValue().toSeries(e.getKey()));
        }
        out.sort(
                Comparator.comparing(LagHistoryView.Series::table)
                        .thenComparingLong(LagHistoryView.Series::tableId));
        return new LagHistoryView(intervalMillis, retentionMillis, lastSampleMillis, out);
    }

    /**
     * One table's series.
     *
     * @param table {@code database.table}
     * @throws NotFoundException if the history has no such table
     */
    public synchronized LagHistoryView view(String table) {
        for (Map.Entry<Long, TableEntry> e : tables.entrySet()) {
            if (e.getValue().table.equals(table)) {
                return new LagHistoryView(
                        intervalMillis,
                        retentionMillis,
                        lastSampleMillis,
                        List.of(e.getValue().toSeries(e.getKey())));
            }
        }
        throw new NotFoundException(
                "no lag history for table '"
                        + table
                        + "': it does not exist, is not a lake table (table.datalake.enabled),"
                        + " or has not been sampled yet; GET /api/tiering lists the lake tables");
    }

    /**
     * The samples of the tables {@code tableIds} after {@code sinceExclusive} and at or before
     * {@code untilInclusive}, at most {@code maxPoints} per table (thinned as {@link
     * LagSeries#between(long, long, int)} says), ordered by table name: what one page of the
     * console shows, bounded by the page's tables whatever the retention.
     */
    public synchronized List<LagHistoryView.Series> between(
            long sinceExclusive, long untilInclusive, Set<Long> tableIds, int maxPoints) {
        List<LagHistoryView.Series> out = new ArrayList<>();
        for (long id : tableIds) {
            TableEntry t = tables.get(id);
            if (t == null) {
                continue;
            }
            long[][] cols = t.series.between(sinceExclusive, untilInclusive, maxPoints);
            out.add(
                    new LagHistoryView.Series(
                            id, t.table, t.freshnessMillis, t.state, cols[0], cols[1], cols[2]));
        }
        out.sort(
                Comparator.comparing(LagHistoryView.Series::table)
                        .thenComparingLong(LagHistoryView.Series::tableId));
        return out;
    }

    /**
     * Loads series saved by an earlier run (see {@link LagHistoryFile}), keeping the samples within
     * the retention before {@code nowMillis} and none after it. Tables that no longer exist leave
     * at the first sample, as a dropped table always does.
     *
     * @return the samples kept
     */
    public synchronized int restore(List<LagHistoryView.Series> saved, long nowMillis) {
        long cutoff = nowMillis - retentionMillis;
        int kept = 0;
        for (LagHistoryView.Series s : saved) {
            TableEntry e = tables.computeIfAbsent(s.tableId(), id -> new TableEntry(capacity));
            e.table = s.table();
            e.freshnessMillis = s.freshnessMillis();
            e.state = s.state();
            for (int i = 0; i < s.timeMillis().length; i++) {
                long t = s.timeMillis()[i];
                if (t >= cutoff
                        && t <= nowMillis
                        && (e.series.size() == 0 || t > e.series.lastTime())) {
                    e.series.add(t, s.lagMillis()[i], s.lagRecords()[i]);
                    lastSampleMillis = Math.max(lastSampleMillis, t);
                    kept++;
                }
            }
        }
        return kept;
    }

    public long intervalMillis() {
        return intervalMillis;
    }

    public long retentionMillis() {
        return retentionMillis;
    }

    /** Server time of the newest sample; -1 before the first. */
    public synchronized long lastSampleMillis() {
        return lastSampleMillis;
    }

    /** Tables with a series. */
    public synchronized int tableCount() {
        return tables.size();
    }

    private static final class TableEntry {
        final LagSeries series;
        String table;
        long freshnessMillis;
        String state;

        TableEntry(int capacity) {
            this.series = new LagSeries(capacity);
        }

        LagHistoryView.Series toSeries(long tableId) {
            return new LagHistoryView.Series(
                    tableId,
                    table,
                    freshnessMillis,
                    state,
                    series.times(),
                    series.lagMillis(),
                    series.lagRecords());
        }
    }
}

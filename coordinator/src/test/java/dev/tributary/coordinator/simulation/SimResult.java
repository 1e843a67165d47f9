package dev.tributary.coordinator.simulation;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What a simulation run measured.
 *
 * @param tables per-table figures, in input order
 * @param events the timeline (times relative to the job's start)
 */
public record SimResult(List<TableStats> tables, List<Event> events) {

    /**
     * Figures of one table over the measured window.
     *
     * @param name table name
     * @param freshness its freshness
     * @param rounds committed rounds
     * @param forceFinished rounds cut by the ceiling
     * @param avgLagMillis time-average lake lag (age of the oldest record not in the lake)
     * @param peakLagMillis largest lake lag seen
     * @param avgQueueWaitMillis average wait between Pending and assignment
     * @param maxQueueWaitMillis largest such wait
     */
    public record TableStats(
            String name,
            Duration freshness,
            long rounds,
            long forceFinished,
            double avgLagMillis,
            long peakLagMillis,
            double avgQueueWaitMillis,
            long maxQueueWaitMillis) {}

    /** One thing that happened to a table. */
    public record Event(long atMillis, String table, Kind kind) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "T=%ds %s %s", atMillis / 1000, table, kind);
        }
    }

    /** Event kinds. */
    public enum Kind {
        PENDING,
        ASSIGNED,
        COMMITTED
    }

    public List<Event> eventsOf(String table, Kind kind) {
        return events.stream().filter(e -> e.table.equals(table) && e.kind == kind).toList();
    }

    /** A fixed-width table: one row per table. */
    public String formatTable() {
        StringBuilder sb = new StringBuilder();
        sb.append(
                String.format(
                        Locale.ROOT,
                        "%-12s %9s %6s %5s %10s %10s %10s %10s%n",
                        "table",
                        "freshness",
                        "rounds",
                        "ff",
                        "avg lag s",
                        "peak lag s",
                        "avg wait s",
                        "max wait s"));
        for (TableStats t : tables) {
            sb.append(
                    String.format(
                            Locale.ROOT,
                            "%-12s %9s %6d %5d %10.1f %10.1f %10.1f %10.1f%n",
                            t.name,
                            t.freshness.toSeconds() + "s",
                            t.rounds,
                            t.forceFinished,
                            t.avgLagMillis / 1000.0,
                            t.peakLagMillis / 1000.0,
                            t.avgQueueWaitMillis / 1000.0,
                            t.maxQueueWaitMillis / 1000.0));
        }
        return sb.toString();
    }
}

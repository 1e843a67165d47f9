package dev.tributary.planner.sim;

import java.time.Duration;
import java.util.List;

/**
 * What a simulation run measured.
 *
 * @param horizonMillis how long the jobs ran
 * @param windowStartMillis the figures cover {@code [windowStartMillis, horizonMillis)} (after the
 *     warm-up); times are relative to time 0, when the jobs started
 * @param tables per table, in workload order
 * @param jobs per job, in workload order
 * @param events everything that happened to a table, in time order
 */
public record SimulationResult(
        long horizonMillis,
        long windowStartMillis,
        List<TableOutcome> tables,
        List<JobOutcome> jobs,
        List<Event> events) {

    public SimulationResult {
        tables = List.copyOf(tables);
        jobs = List.copyOf(jobs);
        events = List.copyOf(events);
    }

    public TableOutcome table(String name) {
        return tables.stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no table " + name));
    }

    public List<Event> eventsOf(String table, EventKind kind) {
        return events.stream().filter(e -> e.table().equals(table) && e.kind() == kind).toList();
    }

    /**
     * One table's figures over the measured window.
     *
     * @param rounds rounds that ended (committed or with nothing to commit) in the window
     * @param forceFinished those of them cut at the freshness ceiling (T13)
     * @param firstRoundMillis duration of the table's first round (its KV snapshot read for a
     *     primary-key table), -1 if it never ended
     * @param roundAvgMillis mean round duration (granted to committed), -1 without rounds
     * @param roundMaxMillis longest round
     * @param queueWaitAvgMillis mean wait between pending and granted
     * @param queueWaitMaxMillis longest such wait
     * @param lagAvgMillis time-weighted mean lake lag (age of the oldest record not in the lake)
     * @param lagP99Millis lag exceeded 1% of the time
     * @param lagPeakMillis largest lag
     * @param readersBusy readers busy on this table's splits, averaged over the window
     * @param dataShare of the rounds' durations, the share its slowest split spent moving data
     *     (rather than split overhead, waiting for a reader or committing): near 1 means read-bound
     */
    public record TableOutcome(
            String name,
            String group,
            Duration freshness,
            Duration lagTarget,
            long rounds,
            long forceFinished,
            long firstRoundMillis,
            long roundAvgMillis,
            long roundMaxMillis,
            long queueWaitAvgMillis,
            long queueWaitMaxMillis,
            long lagAvgMillis,
            long lagP99Millis,
            long lagPeakMillis,
            double readersBusy,
            double dataShare) {

        /**
         * Whether the p99 lag stays within the lag target (a table nobody writes to has no lag; one
         * whose rounds never end has a lag that only grows).
         */
        public boolean met() {
            return lagP99Millis <= lagTarget.toMillis();
        }

        /** How far the p99 lag is above the target (0 when met). */
        public long missedByMillis() {
            return Math.max(0, lagP99Millis - lagTarget.toMillis());
        }
    }

    /**
     * One job's figures over the window.
     *
     * @param utilization busy reader time over {@code parallelism x window}
     */
    public record JobOutcome(String id, String group, int parallelism, double utilization) {}

    /** Kinds of events. */
    public enum EventKind {
        /** The table entered the pending queue. */
        PENDING,
        /** A job got the table's round. */
        GRANTED,
        /** The round's freshness ceiling cut it (T13). */
        FORCE_FINISHED,
        /** The round's lake commit was recorded. */
        COMMITTED,
        /** The round ended with nothing to commit (T27). */
        NOTHING_TO_COMMIT
    }

    /**
     * One thing that happened to a table.
     *
     * @param atMillis time since the jobs started
     * @param round the table's round number (1 = first)
     * @param splits GRANTED: the round's splits
     * @param idleReaders GRANTED: the job's readers idle at that moment (the rest still read
     *     earlier tables)
     * @param waitedMillis GRANTED: time since it became pending
     * @param durationMillis COMMITTED, NOTHING_TO_COMMIT: time since it was granted
     * @param forceFinished COMMITTED, NOTHING_TO_COMMIT: the round was cut
     * @param sinceCommitMillis PENDING: time since its previous commit, -1 for the first
     */
    public record Event(
            long atMillis,
            String table,
            String job,
            EventKind kind,
            int round,
            int splits,
            int idleReaders,
            long waitedMillis,
            long durationMillis,
            boolean forceFinished,
            long sinceCommitMillis) {}
}

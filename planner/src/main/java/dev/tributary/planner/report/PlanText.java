package dev.tributary.planner.report;

import dev.tributary.planner.PlanReport;
import dev.tributary.planner.advice.Recommendation;
import dev.tributary.planner.sim.SimulationResult;
import dev.tributary.planner.sim.SimulationResult.Event;
import dev.tributary.planner.sim.SimulationResult.TableOutcome;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.planner.workload.ReaderModel;
import dev.tributary.planner.workload.Workload;
import dev.tributary.planner.yaml.Quantities;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A plan as text for a terminal: the jobs, one line per table, the recommendations, a timeline. */
public final class PlanText {
    private PlanText() {}

    /** The whole report; {@code timelineMillis > 0} adds the first part of the timeline. */
    public static String format(PlanReport r, long timelineMillis) {
        StringBuilder sb = new StringBuilder();
        Workload w = r.workload();
        SimulationResult p = r.prediction();
        sb.append(
                String.format(
                        Locale.ROOT,
                        "Simulated %s of the coordinator's own scheduling (policy %s, commit order"
                                + " %s) on %d table%s and %d job%s; figures after a %s warm-up.%n",
                        duration(p.horizonMillis()),
                        lower(w.queuePolicy()),
                        lower(w.commitOrder()),
                        w.tables().size(),
                        w.tables().size() == 1 ? "" : "s",
                        w.jobs().size(),
                        w.jobs().size() == 1 ? "" : "s",
                        duration(p.windowStartMillis())));
        for (String n : w.notes()) {
            sb.append("  ").append(n).append(System.lineSeparator());
        }
        sb.append(System.lineSeparator());
        sb.append(jobs(w, p));
        sb.append(System.lineSeparator());
        sb.append(tables(p));
        long met = p.tables().stream().filter(TableOutcome::met).count();
        sb.append(
                String.format(
                        Locale.ROOT,
                        "%n%d of %d tables meet their lag target at p99 (the target is"
                                + " table.datalake.lag-target, by default twice the freshness).%n",
                        met,
                        p.tables().size()));
        sb.append(recommendations(r));
        if (timelineMillis > 0) {
            sb.append(System.lineSeparator());
            sb.append(timeline(p, timelineMillis));
        }
        return sb.toString();
    }

    public static String jobs(Workload w, SimulationResult p) {
        Grid g =
                new Grid(
                        "JOB",
                        "GROUP",
                        "READERS",
                        "LOG/READER",
                        "SNAPSHOT/READER",
                        "PER SPLIT",
                        "COMMIT",
                        "JITTER",
                        "BUSY");
        for (int i = 0; i < w.jobs().size(); i++) {
            JobLoad j = w.jobs().get(i);
            ReaderModel m = j.reader();
            g.row(
                    j.id(),
                    j.group(),
                    Integer.toString(j.parallelism()),
                    Quantities.shortBytesPerSecond(m.logBytesPerSecond()),
                    Quantities.shortBytesPerSecond(m.snapshotBytesPerSecond()),
                    duration(m.splitOverhead().toMillis()),
                    duration(m.commitTime().toMillis()),
                    String.format(Locale.ROOT, "%.2f", m.jitter()),
                    Math.round(p.jobs().get(i).utilization() * 100) + "%");
        }
        return g.toString();
    }

    public static String tables(SimulationResult p) {
        Grid g =
                new Grid(
                        "TABLE",
                        "FRESHNESS",
                        "ROUND avg/max",
                        "FIRST ROUND",
                        "QUEUE WAIT avg/max",
                        "LAG p99/peak",
                        "TARGET",
                        "FORCE-FINISHED",
                        "VERDICT");
        for (TableOutcome t : p.tables()) {
            g.row(
                    t.name(),
                    duration(t.freshness().toMillis()),
                    t.rounds() == 0
                            ? "-"
                            : duration(t.roundAvgMillis()) + " / " + duration(t.roundMaxMillis()),
                    t.firstRoundMillis() < 0 ? "-" : duration(t.firstRoundMillis()),
                    duration(t.queueWaitAvgMillis()) + " / " + duration(t.queueWaitMaxMillis()),
                    duration(t.lagP99Millis()) + " / " + duration(t.lagPeakMillis()),
                    duration(t.lagTarget().toMillis()),
                    t.forceFinished() + " of " + t.rounds(),
                    verdict(t));
        }
        return g.toString();
    }

    /** "met at p99" or "missed by 34s at p99". */
    public static String verdict(TableOutcome t) {
        if (t.met()) {
            return "met at p99";
        }
        return "missed by "
                + duration(t.missedByMillis())
                + " at p99"
                + (t.rounds() == 0 ? " (no round ends)" : "");
    }

    static String recommendations(PlanReport r) {
        StringBuilder sb = new StringBuilder();
        if (r.allMet()) {
            return "";
        }
        sb.append(System.lineSeparator());
        if (r.recommendations().isEmpty()) {
            sb.append(
                            "No single change among those tried (deadline policy, looser freshness, up to"
                                    + " 8x the readers, a separate group, more buckets) makes a missing"
                                    + " table meet its target without another one missing.")
                    .append(System.lineSeparator());
            return sb.toString();
        }
        sb.append("Recommendations, each simulated on the same workload:")
                .append(System.lineSeparator());
        int i = 1;
        for (Recommendation rec : r.recommendations()) {
            sb.append(String.format(Locale.ROOT, "%2d. %s%n", i++, rec.change()));
            sb.append("    how: ").append(rec.how()).append(System.lineSeparator());
            sb.append("    effect: ")
                    .append(effect(r.prediction(), rec))
                    .append(System.lineSeparator());
        }
        return sb.toString();
    }

    /** Which tables change verdict, with their p99 before and after. */
    static String effect(SimulationResult before, Recommendation rec) {
        List<String> parts = new ArrayList<>();
        for (String t : rec.nowMet()) {
            parts.add(
                    t
                            + " meets its target (p99 "
                            + duration(before.table(t).lagP99Millis())
                            + " -> "
                            + duration(rec.result().table(t).lagP99Millis())
                            + ")");
        }
        for (String t : rec.stillMissed()) {
            parts.add(
                    t
                            + " still misses (p99 "
                            + duration(before.table(t).lagP99Millis())
                            + " -> "
                            + duration(rec.result().table(t).lagP99Millis())
                            + ")");
        }
        for (String t : rec.nowMissed()) {
            parts.add(t + " misses now");
        }
        long met = rec.result().tables().stream().filter(TableOutcome::met).count();
        return String.join("; ", parts)
                + " - "
                + met
                + " of "
                + rec.result().tables().size()
                + " tables meet their targets";
    }

    /** The run's first {@code untilMillis} as the seed's walkthrough tells it: who commits when. */
    public static String timeline(SimulationResult p, long untilMillis) {
        StringBuilder sb = new StringBuilder();
        sb.append(
                "Timeline of the first "
                        + duration(untilMillis)
                        + " (T=0: the jobs start; times of the simulated run):"
                        + System.lineSeparator());
        int width = 5;
        for (TableOutcome t : p.tables()) {
            width = Math.max(width, t.name().length());
        }
        for (Event e : p.events()) {
            if (e.atMillis() > untilMillis) {
                break;
            }
            sb.append(
                    String.format(
                            Locale.ROOT,
                            "T=%-8s %-" + width + "s  %s%n",
                            seconds(e.atMillis()),
                            e.table(),
                            describe(e)));
        }
        return sb.toString();
    }

    private static String describe(Event e) {
        return switch (e.kind()) {
            case PENDING ->
                    e.sinceCommitMillis() < 0
                            ? "pending: first round due (one freshness after it was created)"
                            : "pending: round "
                                    + e.round()
                                    + " due, "
                                    + duration(e.sinceCommitMillis())
                                    + " after its last commit";
            case GRANTED ->
                    "round "
                            + e.round()
                            + " to "
                            + e.job()
                            + (e.waitedMillis() > 0
                                    ? " after " + duration(e.waitedMillis()) + " in the queue"
                                    : "")
                            + ": "
                            + e.splits()
                            + (e.splits() == 1 ? " split, " : " splits, ")
                            + e.idleReaders()
                            + (e.idleReaders() == 1 ? " reader" : " readers")
                            + " free"
                            + (e.idleReaders() < e.splits()
                                    ? " (the rest wait for readers still on earlier tables)"
                                    : "");
            case FORCE_FINISHED ->
                    "round "
                            + e.round()
                            + " reaches its freshness ceiling after "
                            + duration(e.durationMillis())
                            + ": force-finished";
            case COMMITTED ->
                    "round "
                            + e.round()
                            + " committed after "
                            + duration(e.durationMillis())
                            + (e.forceFinished() ? " (partial: force-finished)" : "");
            case NOTHING_TO_COMMIT ->
                    "round "
                            + e.round()
                            + " ended with nothing to commit after "
                            + duration(e.durationMillis());
        };
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0
                ? millis / 1000 + "s"
                : String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
    }

    /** A short human duration: 850ms, 34s, 2m34s, 1h02m. */
    public static String duration(long millis) {
        if (millis < 0) {
            return "-";
        }
        if (millis < 1000) {
            return millis + "ms";
        }
        if (millis < 10_000) {
            return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
        }
        long s = Math.round(millis / 1000.0);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s % 60 == 0
                    ? s / 60 + "min"
                    : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    /** Left-aligned columns sized to their content. */
    private static final class Grid {
        private final List<String[]> rows = new ArrayList<>();

        Grid(String... header) {
            rows.add(header);
        }

        void row(String... cells) {
            rows.add(cells);
        }

        @Override
        public String toString() {
            int[] w = new int[rows.get(0).length];
            for (String[] r : rows) {
                for (int i = 0; i < r.length; i++) {
                    w[i] = Math.max(w[i], r[i].length());
                }
            }
            StringBuilder sb = new StringBuilder();
            for (String[] r : rows) {
                StringBuilder line = new StringBuilder();
                for (int i = 0; i < r.length; i++) {
                    line.append(r[i]);
                    if (i < r.length - 1) {
                        line.append(" ".repeat(w[i] - r[i].length() + 2));
                    }
                }
                sb.append(line.toString().stripTrailing()).append(System.lineSeparator());
            }
            return sb.toString();
        }
    }
}

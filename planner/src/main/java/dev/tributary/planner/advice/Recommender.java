package dev.tributary.planner.advice;

import dev.tributary.coordinator.tiering.QueuePolicy;
import dev.tributary.planner.sim.SimulationResult;
import dev.tributary.planner.sim.SimulationResult.TableOutcome;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.planner.workload.Workload;
import dev.tributary.planner.yaml.Quantities;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Finds changes that make tables meet their lag targets, each one simulated before it is suggested:
 * the deadline policy when fifo is set; a looser freshness for a table that cannot meet its own;
 * more readers for a job (the fewest that meet every table of its group); a separate group and job
 * for a table that takes a large share of its job's readers; more buckets for a table whose rounds
 * are read-bound (a re-create). A change is suggested only if it makes at least one missing table
 * meet its target and no meeting table miss it.
 */
public final class Recommender {
    /** At most this many times a job's readers are tried. */
    static final int MAX_PARALLELISM_FACTOR = 8;

    /** Freshness multiples tried for a table that misses. */
    private static final double[] FRESHNESS_FACTORS = {1.5, 2, 3, 4, 6, 8};

    /** Bucket multiples tried for a read-bound table. */
    private static final int[] BUCKET_FACTORS = {2, 4, 8};

    /** A round whose slowest split spends at least this share moving data is read-bound. */
    static final double READ_BOUND = 0.5;

    /** A table using at least this share of its group's busy readers may be moved out. */
    static final double HEAVY_SHARE = 0.25;

    /** A change not aimed at one table is worth it if it cuts the total excess by this much. */
    static final double SIGNIFICANT_GAIN = 0.25;

    private final Workload base;
    private final SimulationResult baseline;
    private final Function<Workload, SimulationResult> simulate;
    private final Set<String> missing = new HashSet<>();
    private final List<Recommendation> out = new ArrayList<>();

    public Recommender(
            Workload base,
            SimulationResult baseline,
            Function<Workload, SimulationResult> simulate) {
        this.base = base;
        this.baseline = baseline;
        this.simulate = simulate;
        for (TableOutcome t : baseline.tables()) {
            if (!t.met()) {
                missing.add(t.name());
            }
        }
    }

    /** The changes worth making, cheapest kind first; empty when every table meets its target. */
    public List<Recommendation> recommend() {
        if (missing.isEmpty()) {
            return List.of();
        }
        policy();
        freshness();
        parallelism();
        groups();
        buckets();
        out.sort(Comparator.comparing(Recommendation::kind));
        return List.copyOf(out);
    }

    private void policy() {
        if (base.queuePolicy() != QueuePolicy.FIFO) {
            return;
        }
        considerGain(
                Recommendation.Kind.POLICY,
                "queue policy: fifo -> deadline",
                "set tiering.queue.policy: deadline in the server's configuration and restart it",
                base.withQueuePolicy(QueuePolicy.DEADLINE));
    }

    private void freshness() {
        for (TableOutcome t : baseline.tables()) {
            if (t.met()) {
                continue;
            }
            TableLoad load = base.table(t.name());
            for (double f : FRESHNESS_FACTORS) {
                Duration fresh = Duration.ofMillis(Math.round(load.freshness().toMillis() * f));
                Workload v = base.withTable(t.name(), x -> x.withFreshness(fresh));
                String target =
                        load.lagTarget() == null
                                ? " (its default lag target becomes "
                                        + Quantities.formatDuration(fresh.multipliedBy(2))
                                        + ")"
                                : "";
                if (consider(
                        Recommendation.Kind.FRESHNESS,
                        "freshness of "
                                + t.name()
                                + ": "
                                + Quantities.formatDuration(load.freshness())
                                + " -> "
                                + Quantities.formatDuration(fresh)
                                + target,
                        "tributary table alter "
                                + t.name()
                                + " --set table.datalake.freshness="
                                // the form table options parse: whole units, e.g. 1500ms
                                + dev.tributary.common.config.Durations.format(fresh),
                        false,
                        v,
                        t.name())) {
                    break;
                }
            }
        }
    }

    private void parallelism() {
        for (JobLoad job : base.jobs()) {
            List<String> group = base.tablesOf(job.group()).stream().map(TableLoad::name).toList();
            if (group.stream().noneMatch(missing::contains)) {
                continue;
            }
            int p = job.parallelism();
            if (p >= JobLoad.MAX_PARALLELISM) {
                continue; // no more readers to recommend
            }
            int cap =
                    Math.min(JobLoad.MAX_PARALLELISM, Math.max(p + 1, p * MAX_PARALLELISM_FACTOR));
            int lo = p;
            int hi = -1;
            SimulationResult hiResult = null;
            for (int q = Math.min(cap, Math.max(p + 1, p * 2)); ; q = Math.min(cap, q * 2)) {
                int n = q;
                SimulationResult r =
                        simulate.apply(base.withJob(job.id(), j -> j.withParallelism(n)));
                if (allMet(r, group)) {
                    hi = q;
                    hiResult = r;
                    break;
                }
                lo = q;
                if (q == cap) {
                    break;
                }
            }
            if (hi < 0) {
                continue;
            }
            while (hi - lo > 1) {
                int mid = (lo + hi) >>> 1;
                SimulationResult r =
                        simulate.apply(base.withJob(job.id(), j -> j.withParallelism(mid)));
                if (allMet(r, group)) {
                    hi = mid;
                    hiResult = r;
                } else {
                    lo = mid;
                }
            }
            int best = hi;
            add(
                    Recommendation.Kind.PARALLELISM,
                    "parallelism of job " + job.id() + ": " + p + " -> " + best + " readers",
                    "run the tiering job with parallelism "
                            + best
                            + " (embedded: tiering.embedded.parallelism="
                            + best
                            + "; on a Flink cluster: flink run -p "
                            + best
                            + ")",
                    false,
                    base.withJob(job.id(), j -> j.withParallelism(best)),
                    hiResult);
        }
    }

    private void groups() {
        for (JobLoad job : base.jobs()) {
            List<TableOutcome> inGroup =
                    baseline.tables().stream().filter(t -> t.group().equals(job.group())).toList();
            double busy = inGroup.stream().mapToDouble(TableOutcome::readersBusy).sum();
            if (inGroup.size() < 2 || busy <= 0 || inGroup.stream().allMatch(TableOutcome::met)) {
                continue;
            }
            List<TableOutcome> heavy =
                    inGroup.stream()
                            .filter(t -> t.readersBusy() / busy >= HEAVY_SHARE)
                            .sorted(
                                    Comparator.comparingDouble(TableOutcome::readersBusy)
                                            .reversed())
                            .limit(2)
                            .toList();
            for (TableOutcome h : heavy) {
                TableLoad load = base.table(h.name());
                String group = groupName(h.name());
                int readers = Math.max(1, Math.min(job.parallelism(), load.buckets()));
                Workload v =
                        base.withTable(h.name(), t -> t.withGroup(group))
                                .plusJob(new JobLoad(group + "-job", group, readers, job.reader()));
                considerGain(
                        Recommendation.Kind.GROUP,
                        "move "
                                + h.name()
                                + " ("
                                + percent(h.readersBusy() / busy)
                                + " of job "
                                + job.id()
                                + "'s busy readers) to its own group '"
                                + group
                                + "' served by a second job of "
                                + readers
                                + " readers",
                        "tributary table alter "
                                + h.name()
                                + " --set table.datalake.tiering.group="
                                + group
                                + ", and start a job for the group: tributary tiering-job"
                                + " --coordinator HOST:PORT --set tiering.job.group="
                                + group
                                + " (more readers in all)",
                        v);
            }
        }
    }

    private void buckets() {
        for (TableOutcome t : baseline.tables()) {
            TableLoad load = base.table(t.name());
            if (t.met() || load.fixedDurations() || t.dataShare() < READ_BOUND) {
                continue;
            }
            for (int f : BUCKET_FACTORS) {
                int n = load.buckets() * f;
                if (n > 1024) {
                    break;
                }
                if (consider(
                        Recommendation.Kind.BUCKETS,
                        "buckets of "
                                + t.name()
                                + ": "
                                + load.buckets()
                                + " -> "
                                + n
                                + " (its rounds are read-bound: the slowest split spends "
                                + percent(t.dataShare())
                                + " of a round moving data)",
                        "a re-create: the bucket count is fixed at creation, so create a new table"
                                + " with --buckets "
                                + n
                                + " and move the data and writers to it (assumes the keys spread"
                                + " over the new buckets as over the old; one hot key would not)",
                        true,
                        base.withTable(t.name(), x -> x.withBuckets(n)),
                        t.name())) {
                    break;
                }
            }
        }
    }

    /**
     * Simulates {@code variant} and keeps it if it fixes a missing table (or the one named) and
     * breaks none.
     *
     * @return whether it was kept
     */
    private boolean consider(
            Recommendation.Kind kind,
            String change,
            String how,
            boolean recreate,
            Workload variant,
            String... mustFix) {
        SimulationResult r = simulate.apply(variant);
        Diff d = diff(r);
        if (d.nowMet.isEmpty() || !d.nowMissed.isEmpty()) {
            return false;
        }
        for (String t : mustFix) {
            if (!d.nowMet.contains(t)) {
                return false;
            }
        }
        out.add(
                new Recommendation(
                        kind,
                        change,
                        how,
                        recreate,
                        variant,
                        r,
                        d.nowMet,
                        d.nowMissed,
                        d.stillMissed));
        return true;
    }

    /** Like {@link #consider}, but a large enough cut of the total excess also counts. */
    private void considerGain(
            Recommendation.Kind kind, String change, String how, Workload variant) {
        SimulationResult r = simulate.apply(variant);
        Diff d = diff(r);
        if (!d.nowMissed.isEmpty()) {
            return;
        }
        long before = excess(baseline);
        long after = excess(r);
        if (d.nowMet.isEmpty() && after > before * (1 - SIGNIFICANT_GAIN)) {
            return;
        }
        out.add(
                new Recommendation(
                        kind,
                        change,
                        how,
                        false,
                        variant,
                        r,
                        d.nowMet,
                        d.nowMissed,
                        d.stillMissed));
    }

    /** Total p99 excess over their targets of the tables that miss in the baseline. */
    private long excess(SimulationResult r) {
        long sum = 0;
        for (TableOutcome t : r.tables()) {
            if (missing.contains(t.name())) {
                sum += t.missedByMillis();
            }
        }
        return sum;
    }

    private void add(
            Recommendation.Kind kind,
            String change,
            String how,
            boolean recreate,
            Workload variant,
            SimulationResult r) {
        Diff d = diff(r);
        out.add(
                new Recommendation(
                        kind,
                        change,
                        how,
                        recreate,
                        variant,
                        r,
                        d.nowMet,
                        d.nowMissed,
                        d.stillMissed));
    }

    private record Diff(List<String> nowMet, List<String> nowMissed, List<String> stillMissed) {}

    private Diff diff(SimulationResult r) {
        List<String> nowMet = new ArrayList<>();
        List<String> nowMissed = new ArrayList<>();
        List<String> still = new ArrayList<>();
        for (TableOutcome t : r.tables()) {
            boolean before = !missing.contains(t.name());
            if (t.met() && !before) {
                nowMet.add(t.name());
            } else if (!t.met() && before) {
                nowMissed.add(t.name());
            } else if (!t.met()) {
                still.add(t.name());
            }
        }
        return new Diff(nowMet, nowMissed, still);
    }

    private static boolean allMet(SimulationResult r, List<String> tables) {
        for (String t : tables) {
            if (!r.table(t).met()) {
                return false;
            }
        }
        return true;
    }

    /** A group name for a table moved out: its name with '.' as '-'. */
    static String groupName(String table) {
        return table.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]", "-");
    }

    private static String percent(double share) {
        return Math.round(share * 100) + "%";
    }
}

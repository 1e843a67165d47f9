package dev.tributary.bench.coordinator;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.tiering.QueuePolicy;
import dev.tributary.planner.sim.SimulationResult;
import dev.tributary.planner.sim.SimulationSettings;
import dev.tributary.planner.sim.TieringSimulator;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.planner.workload.ReaderModel;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.planner.workload.Workload;
import dev.tributary.tiering.api.CommitOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Compares the {@code fifo} and {@code deadline} queue policies with the planner's {@link
 * TieringSimulator} (the real tiering manager under virtual time against a modeled job): (a) the
 * blog walkthrough, (b) 500 log tables with freshness between 1 and 30 minutes on one job of 16
 * readers.
 *
 * <p>Usage: {@code TieringPolicyBench [seed] [hours]} (defaults 7 and 2).
 */
public final class TieringPolicyBench {
    private TieringPolicyBench() {}

    public static void main(String[] args) {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 7;
        int hours = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        System.out.println("seed=" + seed + " hours=" + hours);
        walkthrough();
        mixed(seed, hours, 20, 200, 200);
        mixed(seed, hours, 50, 500, 200);
        // Overload: per-split overhead alone needs more than 16 readers.
        mixed(seed, hours, 50, 500, 1000);
    }

    static void walkthrough() {
        List<TableLoad> tables =
                List.of(
                        TableLoad.fixed("clicks", 16, Duration.ofMinutes(1), false, null, secs(30)),
                        TableLoad.fixed("orders", 8, Duration.ofMinutes(2), false, null, secs(90)),
                        TableLoad.fixed(
                                "customers", 12, Duration.ofMinutes(5), true, secs(100), secs(20)));
        ReaderModel instant = new ReaderModel(1e9, 1e9, Duration.ZERO, Duration.ZERO, 1_000_000);
        for (QueuePolicy p : QueuePolicy.values()) {
            Workload w =
                    new Workload(
                            p,
                            CommitOrder.COMPLETION,
                            Duration.ofMinutes(5),
                            List.of(new JobLoad("job", null, 16, instant)),
                            tables);
            SimulationResult r =
                    new TieringSimulator(
                                    w,
                                    new SimulationSettings(
                                            Duration.ofHours(1), Duration.ofMinutes(10), 1))
                            .run();
            System.out.println(
                    "\n(a) blog walkthrough, policy="
                            + p.name().toLowerCase(Locale.ROOT)
                            + ", 1 h, first 10 min excluded");
            System.out.print(formatTable(r));
        }
    }

    private static Duration secs(long s) {
        return Duration.ofSeconds(s);
    }

    static String formatTable(SimulationResult r) {
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
        for (SimulationResult.TableOutcome t : r.tables()) {
            sb.append(
                    String.format(
                            Locale.ROOT,
                            "%-12s %9s %6d %5d %10.1f %10.1f %10.1f %10.1f%n",
                            t.name(),
                            t.freshness().toSeconds() + "s",
                            t.rounds(),
                            t.forceFinished(),
                            t.lagAvgMillis() / 1000.0,
                            t.lagPeakMillis() / 1000.0,
                            t.queueWaitAvgMillis() / 1000.0,
                            t.queueWaitMaxMillis() / 1000.0));
        }
        return sb.toString();
    }

    /** 500 tables: freshness 1..30 min, 1-16 buckets, minRate-maxRate records/s per bucket. */
    static List<TableLoad> mixedTables(long seed, int minRate, int maxRate) {
        Random rnd = new Random(seed);
        int[] minutes = {1, 2, 3, 5, 10, 15, 20, 30};
        List<TableLoad> out = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            int buckets = 1 + rnd.nextInt(16);
            Duration freshness = Duration.ofMinutes(minutes[rnd.nextInt(minutes.length)]);
            int perBucket = minRate + rnd.nextInt(maxRate - minRate + 1);
            out.add(
                    TableLoad.log(
                            String.format(Locale.ROOT, "t%03d", i),
                            buckets,
                            freshness,
                            (double) perBucket * buckets,
                            RECORD_BYTES));
        }
        return out;
    }

    /** Rows of 100 bytes, so 100,000 records/s per reader are 10 MB/s. */
    private static final double RECORD_BYTES = 100;

    static void mixed(long seed, int hours, int minRate, int maxRate, long overheadMillis) {
        List<TableLoad> tables = mixedTables(seed, minRate, maxRate);
        double writes = tables.stream().mapToDouble(TableLoad::writeRecordsPerSecond).sum();
        System.out.println(
                String.format(
                        Locale.ROOT,
                        "%n(b) 500 tables, freshness 1-30 min, %d-%d records/s per bucket (%.0f records/s in"
                                + " all = %.0f%% of 16 readers x 100,000 records/s), %d ms per-split"
                                + " overhead, %d h, first 30 min excluded",
                        minRate,
                        maxRate,
                        writes,
                        100 * writes / 1_600_000,
                        overheadMillis,
                        hours));
        System.out.println(
                String.format(
                        Locale.ROOT,
                        "%-8s %-9s %6s %7s %12s %12s %13s %13s %12s %11s",
                        "policy",
                        "freshness",
                        "tables",
                        "rounds",
                        "avg lag/fr",
                        "peak lag/fr",
                        "avg wait s",
                        "max wait s",
                        "lag>2fr tbl",
                        "ff rounds"));
        for (QueuePolicy p : QueuePolicy.values()) {
            ReaderModel reader =
                    new ReaderModel(
                            100_000 * RECORD_BYTES,
                            100_000 * RECORD_BYTES,
                            Duration.ofMillis(overheadMillis),
                            Duration.ZERO,
                            Long.MAX_VALUE);
            Workload w =
                    new Workload(
                            p,
                            CommitOrder.COMPLETION,
                            Duration.ZERO,
                            List.of(new JobLoad("job", null, 16, reader)),
                            tables);
            long t0 = Clock.system().currentTimeMillis();
            SimulationResult r =
                    new TieringSimulator(
                                    w,
                                    new SimulationSettings(
                                            Duration.ofHours(hours), Duration.ofMinutes(30), seed))
                            .run();
            long took = Clock.system().currentTimeMillis() - t0;
            int[][] classes = {{1, 1}, {2, 3}, {5, 10}, {15, 30}, {1, 30}};
            for (int[] cl : classes) {
                List<SimulationResult.TableOutcome> in = new ArrayList<>();
                for (SimulationResult.TableOutcome t : r.tables()) {
                    long m = t.freshness().toMinutes();
                    if (m >= cl[0] && m <= cl[1]) {
                        in.add(t);
                    }
                }
                double avgLagRatio =
                        in.stream()
                                .mapToDouble(
                                        t -> (double) t.lagAvgMillis() / t.freshness().toMillis())
                                .average()
                                .orElse(0);
                double peakLagRatio =
                        in.stream()
                                .mapToDouble(
                                        t -> (double) t.lagPeakMillis() / t.freshness().toMillis())
                                .max()
                                .orElse(0);
                double avgWait =
                        in.stream()
                                        .mapToDouble(
                                                SimulationResult.TableOutcome::queueWaitAvgMillis)
                                        .average()
                                        .orElse(0)
                                / 1000;
                double maxWait =
                        in.stream()
                                        .mapToLong(
                                                SimulationResult.TableOutcome::queueWaitMaxMillis)
                                        .max()
                                        .orElse(0)
                                / 1000.0;
                long rounds = in.stream().mapToLong(SimulationResult.TableOutcome::rounds).sum();
                long ff = in.stream().mapToLong(SimulationResult.TableOutcome::forceFinished).sum();
                long late =
                        in.stream()
                                .filter(t -> t.lagPeakMillis() > 2 * t.freshness().toMillis())
                                .count();
                System.out.println(
                        String.format(
                                Locale.ROOT,
                                "%-8s %-9s %6d %7d %12.2f %12.2f %13.1f %13.1f %12d %11d",
                                p.name().toLowerCase(Locale.ROOT),
                                cl[0] == cl[1] ? cl[0] + "min" : cl[0] + "-" + cl[1] + "min",
                                in.size(),
                                rounds,
                                avgLagRatio,
                                peakLagRatio,
                                avgWait,
                                maxWait,
                                late,
                                ff));
            }
            System.out.println("  (simulated in " + took + " ms of real time)");
        }
    }
}

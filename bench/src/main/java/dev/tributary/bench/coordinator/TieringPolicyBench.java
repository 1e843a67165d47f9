package dev.tributary.bench.coordinator;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.simulation.SimConfig;
import dev.tributary.coordinator.simulation.SimResult;
import dev.tributary.coordinator.simulation.SimTable;
import dev.tributary.coordinator.simulation.TieringSimulator;
import dev.tributary.coordinator.tiering.QueuePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Compares the {@code fifo} and {@code deadline} queue policies with the {@link TieringSimulator}
 * (the real tiering manager under virtual time): (a) the blog walkthrough, (b) 500 log tables with
 * freshness between 1 and 30 minutes on one job of 16 readers.
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
        List<SimTable> tables = SimTable.blogWalkthrough();
        for (QueuePolicy p : QueuePolicy.values()) {
            SimConfig c =
                    new SimConfig(
                            p,
                            16,
                            1,
                            Duration.ZERO,
                            Duration.ofMinutes(5),
                            Duration.ofHours(1),
                            Duration.ofMinutes(10),
                            1);
            SimResult r = new TieringSimulator(c, tables).run();
            System.out.println(
                    "\n(a) blog walkthrough, policy="
                            + p.name().toLowerCase(Locale.ROOT)
                            + ", 1 h, first 10 min excluded");
            System.out.print(r.formatTable());
        }
    }

    /** 500 tables: freshness 1..30 min, 1-16 buckets, minRate-maxRate records/s per bucket. */
    static List<SimTable> mixedTables(long seed, int minRate, int maxRate) {
        Random rnd = new Random(seed);
        int[] minutes = {1, 2, 3, 5, 10, 15, 20, 30};
        List<SimTable> out = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            out.add(
                    SimTable.rated(
                            String.format(Locale.ROOT, "t%03d", i),
                            1 + rnd.nextInt(16),
                            Duration.ofMinutes(minutes[rnd.nextInt(minutes.length)]),
                            minRate + rnd.nextInt(maxRate - minRate + 1)));
        }
        return out;
    }

    static void mixed(long seed, int hours, int minRate, int maxRate, long overheadMillis) {
        List<SimTable> tables = mixedTables(seed, minRate, maxRate);
        double writes =
                tables.stream().mapToDouble(t -> t.buckets() * t.recordsPerSecondPerBucket()).sum();
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
            SimConfig c =
                    new SimConfig(
                            p,
                            16,
                            100_000,
                            Duration.ofMillis(overheadMillis),
                            Duration.ZERO,
                            Duration.ofHours(hours),
                            Duration.ofMinutes(30),
                            seed);
            long t0 = Clock.system().currentTimeMillis();
            SimResult r = new TieringSimulator(c, tables).run();
            long took = Clock.system().currentTimeMillis() - t0;
            int[][] classes = {{1, 1}, {2, 3}, {5, 10}, {15, 30}, {1, 30}};
            for (int[] cl : classes) {
                List<SimResult.TableStats> in = new ArrayList<>();
                for (SimResult.TableStats t : r.tables()) {
                    long m = t.freshness().toMinutes();
                    if (m >= cl[0] && m <= cl[1]) {
                        in.add(t);
                    }
                }
                double avgLagRatio =
                        in.stream()
                                .mapToDouble(t -> t.avgLagMillis() / t.freshness().toMillis())
                                .average()
                                .orElse(0);
                double peakLagRatio =
                        in.stream()
                                .mapToDouble(
                                        t -> (double) t.peakLagMillis() / t.freshness().toMillis())
                                .max()
                                .orElse(0);
                double avgWait =
                        in.stream()
                                        .mapToDouble(SimResult.TableStats::avgQueueWaitMillis)
                                        .average()
                                        .orElse(0)
                                / 1000;
                double maxWait =
                        in.stream()
                                        .mapToLong(SimResult.TableStats::maxQueueWaitMillis)
                                        .max()
                                        .orElse(0)
                                / 1000.0;
                long rounds = in.stream().mapToLong(SimResult.TableStats::rounds).sum();
                long ff = in.stream().mapToLong(SimResult.TableStats::forceFinished).sum();
                long late =
                        in.stream()
                                .filter(t -> t.peakLagMillis() > 2 * t.freshness().toMillis())
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

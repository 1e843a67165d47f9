package dev.tributary.bench.soak;

import dev.tributary.tiering.soak.FaultKind;
import dev.tributary.tiering.soak.FaultSoak;
import dev.tributary.tiering.soak.SoakOptions;
import dev.tributary.tiering.soak.SoakResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The long fault soak (issue 14): runs {@link FaultSoak} over both lake formats with standalone
 * tiering job processes, then (with {@code --flink-faults}) with the job jar on a Flink session
 * cluster, and prints each run's log and final line, then one line over all runs: faults by kind,
 * rows written, duplicates and losses found, recovery time per kind of fault (p50/p99).
 *
 * <pre>
 * java -cp ... dev.tributary.bench.soak.FaultSoakBench --faults 1000 [--formats paimon,iceberg]
 *     [--seed S] [--dir DIR] [--runs-per-format 1] [--kinds SERVER_KILL,NETWORK_RESET,...]
 *     [--flink-faults 0 --job-jar tiering/dist/target/...jar] [--quick]
 *     [--server-option key=value ...] [--servers 3] [--voters 3]
 * </pre>
 *
 * <p>{@code --servers 3} runs each soak on a cluster of three server processes (T49) and adds the
 * coordinator kinds; its final lines carry the coordinator failovers: kill -9 to another server
 * coordinating and to the next round in the lake, p50/p99/max. {@code --voters 3} with more servers
 * makes the others observers of the metadata quorum (servers added to a running cluster).
 *
 * <p>{@code --quick} uses the CI soak's pacing ({@link SoakOptions#quick()}): pauses between faults
 * of at most 1 s and faults half as long; the kinds, their weights and the checks stay.
 */
public final class FaultSoakBench {
    private FaultSoakBench() {}

    public static void main(String[] args) throws Exception {
        int faults = 1_000;
        int flinkFaults = 0;
        int runsPerFormat = 1;
        List<String> formats = List.of("paimon", "iceberg");
        long seed = System.nanoTime();
        Path dir = Files.createTempDirectory("fault-soak");
        Path jar = null;
        EnumSet<FaultKind> kinds = EnumSet.allOf(FaultKind.class);
        boolean quick = false;
        int servers = 1;
        int voters = 0;
        Map<String, String> serverOptions = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--faults" -> faults = Integer.parseInt(args[++i]);
                case "--flink-faults" -> flinkFaults = Integer.parseInt(args[++i]);
                case "--runs-per-format" -> runsPerFormat = Integer.parseInt(args[++i]);
                case "--formats" -> formats = List.of(args[++i].split(","));
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--job-jar" -> jar = Path.of(args[++i]);
                case "--quick" -> quick = true;
                case "--servers" -> servers = Integer.parseInt(args[++i]);
                case "--voters" -> voters = Integer.parseInt(args[++i]);
                case "--server-option" -> {
                    String kv = args[++i];
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException(
                                "--server-option takes key=value, not " + kv);
                    }
                    serverOptions.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
                case "--kinds" -> {
                    kinds = EnumSet.noneOf(FaultKind.class);
                    for (String k : args[++i].split(",")) {
                        kinds.add(FaultKind.valueOf(k));
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        System.out.println(
                "fault soak bench: seed "
                        + seed
                        + ", "
                        + faults
                        + " faults over "
                        + formats
                        + " in "
                        + runsPerFormat
                        + " run(s) each, "
                        + flinkFaults
                        + " on a Flink session cluster"
                        + (quick ? ", quick pacing" : "")
                        + (servers > 1 ? ", a cluster of " + servers + " servers" : "")
                        + (serverOptions.isEmpty() ? "" : ", server options " + serverOptions)
                        + "; work dir "
                        + dir);
        List<SoakResult> results = new ArrayList<>();
        int runs = formats.size() * runsPerFormat;
        int run = 0;
        for (int r = 0; r < runsPerFormat; r++) {
            for (String format : formats) {
                int n = faults / runs + (run < faults % runs ? 1 : 0);
                SoakOptions o =
                        SoakOptions.of(
                                        seed + run,
                                        n,
                                        format,
                                        dir.resolve("run-" + run + "-" + format))
                                .withKinds(kinds)
                                .withServerOptions(serverOptions)
                                .onServers(servers)
                                .withVoters(voters);
                results.add(soak(quick ? o.quick() : o));
                run++;
            }
        }
        if (flinkFaults > 0) {
            SoakOptions o =
                    SoakOptions.of(
                                    seed + run,
                                    flinkFaults,
                                    formats.get(0),
                                    dir.resolve("run-" + run + "-flink"))
                            .withKinds(kinds)
                            .withServerOptions(serverOptions)
                            .onServers(servers)
                            .withVoters(voters)
                            .onFlinkCluster(jar);
            results.add(soak(quick ? o.quick() : o));
        }
        System.out.println(total(results));
    }

    private static SoakResult soak(SoakOptions o) throws Exception {
        try (FaultSoak s = new FaultSoak(o)) {
            return s.run();
        }
    }

    /** One line over every run. */
    static String total(List<SoakResult> results) {
        Map<FaultKind, Integer> counts = new EnumMap<>(FaultKind.class);
        Map<FaultKind, List<Long>> recoveries = new EnumMap<>(FaultKind.class);
        long faults = 0;
        long rows = 0;
        long acked = 0;
        long inDoubt = 0;
        long duplicates = 0;
        long losses = 0;
        long lakeRows = 0;
        long problems = 0;
        Duration took = Duration.ZERO;
        boolean passed = true;
        List<Long> toCoordinator = new ArrayList<>();
        List<Long> toRound = new ArrayList<>();
        for (SoakResult r : results) {
            r.faultsByKind().forEach((k, n) -> counts.merge(k, n, Integer::sum));
            r.recoveryMillis()
                    .forEach(
                            (k, v) -> {
                                List<Long> l =
                                        recoveries.computeIfAbsent(k, x -> new ArrayList<>());
                                for (long x : v) {
                                    l.add(x);
                                }
                            });
            faults += r.faults();
            rows += r.rowsWritten();
            acked += r.store().acked();
            inDoubt += r.store().inDoubt();
            duplicates += r.store().duplicates();
            losses += r.store().losses();
            lakeRows += r.lakeRowsChecked();
            problems += r.problems().size() + r.store().problems().size();
            took = took.plus(r.took());
            passed &= r.clean();
            Arrays.stream(r.failoverToCoordinatorMillis()).forEach(toCoordinator::add);
            Arrays.stream(r.failoverToRoundMillis()).forEach(toRound::add);
        }
        StringBuilder kinds = new StringBuilder();
        StringBuilder rec = new StringBuilder();
        counts.forEach(
                (k, n) -> {
                    kinds.append(kinds.length() == 0 ? "" : ", ").append(k).append('=').append(n);
                    long[] v = sorted(recoveries.getOrDefault(k, List.of()));
                    rec.append(rec.length() == 0 ? "" : ", ")
                            .append(k)
                            .append('=')
                            .append(pct(v, 50))
                            .append('/')
                            .append(pct(v, 99));
                });
        return String.format(
                "SOAK TOTAL %s runs=%d faults=%d [%s] rows written=%d acknowledged=%d in doubt=%d"
                        + " duplicates=%d losses=%d lake rows checked=%d problems=%d recovery ms"
                        + " p50/p99 [%s]%s took %s",
                passed ? "PASSED" : "FAILED",
                results.size(),
                faults,
                kinds,
                rows,
                acked,
                inDoubt,
                duplicates,
                losses,
                lakeRows,
                problems,
                rec,
                SoakResult.failoverSummary(sorted(toCoordinator), sorted(toRound)),
                took.withNanos(0));
    }

    private static long[] sorted(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private static long pct(long[] sorted, int p) {
        if (sorted.length == 0) {
            return -1;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}

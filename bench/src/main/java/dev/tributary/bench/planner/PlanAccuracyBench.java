package dev.tributary.bench.planner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.cli.demo.DemoLakeFormat;
import dev.tributary.cli.demo.DemoTables;
import dev.tributary.cli.demo.DemoWorkload;
import dev.tributary.cli.embedded.EmbeddedTieringExtension;
import dev.tributary.client.Connection;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.time.Clock;
import dev.tributary.planner.PlanReport;
import dev.tributary.planner.TieringPlanner;
import dev.tributary.planner.advice.Recommendation;
import dev.tributary.planner.report.PlanText;
import dev.tributary.planner.sim.SimulationResult;
import dev.tributary.planner.yaml.WorkloadFile;
import dev.tributary.server.TributaryServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Checks {@code tributary plan}'s predictions against reality (T44). A real server with the
 * embedded tiering job runs the demo's three tables (clicks, orders, customers with freshness 10,
 * 20 and 30 s) under the demo's write load. After a calibration phase the bench takes the workload
 * the server measured ({@code /api/tiering/workload}, what the CLI plans in live mode) and plans
 * it; then it keeps the same load running for a measurement phase and compares, per table, the
 * predicted round duration, p99 and peak lake lag with the rounds and lag samples of that phase
 * alone (a forward prediction: nothing measured in it was used). A peak is the maximum over a
 * window, and a longer window holds rarer slow rounds, so the predicted peak compared is the mean,
 * over {@link #WINDOW_SEEDS} seeds, of the peak of a simulated window as long as the measurement
 * phase (after a one-minute warm-up); the plan's own peak covers its whole horizon. Then it applies
 * the first recommendation it can apply to a fresh run (parallelism, freshness, buckets or the
 * queue policy), runs the same load again and compares with the figures the recommendation
 * predicted.
 *
 * <p>Usage: {@code PlanAccuracyBench [--rate 20000] [--parallelism 2] [--freshness
 * shop.clicks=2s,shop.orders=4s] [--buckets shop.clicks=4] [--calibrate 2min] [--measure 3min]
 * [--apply none|auto|parallelism|freshness|buckets|policy] [--seed 7] [--dir DIR]}
 */
public final class PlanAccuracyBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TICK_MILLIS = 100;
    static final int WINDOW_SEEDS = 20;

    private PlanAccuracyBench() {}

    /** What one run changes from the demo. */
    record Setup(
            int parallelism,
            Map<String, Duration> freshness,
            Map<String, Integer> buckets,
            String policy) {
        Setup with(Recommendation r) {
            Map<String, Duration> f = new HashMap<>(freshness);
            Map<String, Integer> b = new HashMap<>(buckets);
            int p = parallelism;
            String pol = policy;
            switch (r.kind()) {
                case PARALLELISM -> p = r.variant().jobs().get(0).parallelism();
                case FRESHNESS, BUCKETS -> {
                    for (var t : r.variant().tables()) {
                        f.put(t.name(), t.freshness());
                        b.put(t.name(), t.buckets());
                    }
                }
                case POLICY -> pol = r.variant().queuePolicy().name().toLowerCase(Locale.ROOT);
                default -> throw new IllegalArgumentException("cannot apply " + r.kind());
            }
            return new Setup(p, f, b, pol);
        }
    }

    /** Per table: measured figures of a phase. */
    record Measured(
            long rounds,
            double roundAvgMillis,
            double waitAvgMillis,
            long lagP99Millis,
            long lagPeakMillis) {}

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        int rate = Integer.parseInt(a.getOrDefault("rate", "20000"));
        int parallelism = Integer.parseInt(a.getOrDefault("parallelism", "2"));
        Duration calibrate =
                dev.tributary.planner.yaml.Quantities.duration(
                        a.getOrDefault("calibrate", "2min"), "calibrate");
        Duration measure =
                dev.tributary.planner.yaml.Quantities.duration(
                        a.getOrDefault("measure", "3min"), "measure");
        long seed = Long.parseLong(a.getOrDefault("seed", "7"));
        Path dir =
                Path.of(
                        a.getOrDefault(
                                "dir", Files.createTempDirectory("plan-accuracy-").toString()));
        String applyKind = a.getOrDefault("apply", "auto").toUpperCase(Locale.ROOT);
        boolean apply = !"NONE".equals(applyKind);
        System.out.printf(
                Locale.ROOT,
                "PlanAccuracyBench: demo tables (fast), %d rows/s, parallelism %d, calibrate %s, measure %s, seed %d, dir %s%n",
                rate,
                parallelism,
                calibrate,
                measure,
                seed,
                dir);

        Map<String, Duration> freshness = new HashMap<>();
        for (String kv : a.getOrDefault("freshness", "").split(",")) {
            if (!kv.isBlank()) {
                String[] p = kv.split("=");
                freshness.put(
                        p[0].trim(),
                        dev.tributary.planner.yaml.Quantities.duration(p[1], "--freshness"));
            }
        }
        Map<String, Integer> buckets = new HashMap<>();
        for (String kv : a.getOrDefault("buckets", "").split(",")) {
            if (!kv.isBlank()) {
                String[] p = kv.split("=");
                buckets.put(p[0].trim(), Integer.parseInt(p[1].trim()));
            }
        }
        Setup base = new Setup(parallelism, freshness, buckets, null);
        Run first = run(dir.resolve("run1"), base, rate, calibrate, measure, seed);
        PlanReport plan = first.plan;
        System.out.println("\n== run 1: prediction from the calibration phase");
        System.out.print(PlanText.format(plan, 0));
        System.out.println("\n== run 1: predicted vs measured (measurement phase only)");
        compare(plan.prediction(), windowPeaks(plan.workload(), measure), first.measured);
        if (!apply) {
            return;
        }
        Recommendation rec =
                plan.recommendations().stream()
                        .filter(r -> r.kind() != Recommendation.Kind.GROUP)
                        .filter(r -> "AUTO".equals(applyKind) || r.kind().name().equals(applyKind))
                        .findFirst()
                        .orElse(null);
        if (rec == null) {
            System.out.println(
                    "\nno applicable recommendation (every table meets its target, or only a group move was found)");
            return;
        }
        System.out.println("\n== run 2: applying \"" + rec.change() + "\" to the same workload");
        Run second = run(dir.resolve("run2"), base.with(rec), rate, calibrate, measure, seed);
        System.out.println("\n== run 2: the recommendation's predicted figures vs measured");
        compare(rec.result(), windowPeaks(rec.variant(), measure), second.measured);
        System.out.println("\n== run 2: re-planned from its own calibration phase");
        compare(
                second.plan.prediction(),
                windowPeaks(second.plan.workload(), measure),
                second.measured);
    }

    record Run(PlanReport plan, Map<String, Measured> measured) {}

    static Run run(Path dir, Setup setup, int rate, Duration calibrate, Duration measure, long seed)
            throws Exception {
        Files.createDirectories(dir);
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("data").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("datalake.format", "paimon");
        conf.setString("tiering.embedded.parallelism", Integer.toString(setup.parallelism()));
        conf.setString("server.http.lag-history.interval", "250ms");
        conf.setString("server.plan.rate-window", (calibrate.toSeconds() / 2) + "s");
        if (setup.policy() != null) {
            conf.setString("tiering.queue.policy", setup.policy());
        }
        try (TributaryServer server =
                        TributaryServer.start(
                                conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
                Connection conn = Connection.open(server.rpcTarget())) {
            String http = "127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            conn.admin().createDatabase(DemoTables.DATABASE, true);
            for (DemoTables.Spec s : DemoTables.specs(true)) {
                String name = s.path().toString();
                DemoTables.Spec spec =
                        new DemoTables.Spec(
                                s.path(),
                                s.schema(),
                                setup.buckets().getOrDefault(name, s.buckets()),
                                setup.freshness().getOrDefault(name, s.freshness()),
                                s.partitionKey());
                conn.admin().createTable(s.path(), spec.descriptor(DemoLakeFormat.PAIMON), false);
                System.out.printf(
                        "  %s: %d buckets, freshness %s%n", name, spec.buckets(), spec.freshness());
            }
            ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
            try (DemoWorkload load =
                    new DemoWorkload(
                            conn, Clock.system(), seed, (int) (rate * TICK_MILLIS / 1000))) {
                timer.scheduleAtFixedRate(load::tick, 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
                Thread.sleep(calibrate.toMillis());
                String workload = get(http, "/api/tiering/workload");
                Files.writeString(dir.resolve("workload.json"), workload);
                WorkloadFile.Parsed parsed = WorkloadFile.parse(workload, "the server's workload");
                for (String n : parsed.workload().notes()) {
                    System.out.println("  " + n);
                }
                PlanReport plan = TieringPlanner.plan(parsed.workload(), parsed.settings(), true);
                long from = System.currentTimeMillis();
                Thread.sleep(measure.toMillis());
                long to = System.currentTimeMillis();
                Map<String, Measured> measured = measure(http, from, to);
                // the raw figures, to look at afterwards
                Files.writeString(dir.resolve("tiering.json"), get(http, "/api/tiering"));
                Files.writeString(dir.resolve("history.json"), get(http, "/api/tiering/history"));
                Files.writeString(dir.resolve("phase.txt"), from + " " + to + "\n");
                timer.shutdown();
                timer.awaitTermination(10, TimeUnit.SECONDS);
                return new Run(plan, measured);
            } finally {
                timer.shutdownNow();
            }
        }
    }

    /** Rounds that started in the phase, and the lag samples taken in it. */
    static Map<String, Measured> measure(String http, long from, long to) throws Exception {
        JsonNode tiering = JSON.readTree(get(http, "/api/tiering"));
        JsonNode history = JSON.readTree(get(http, "/api/tiering/history"));
        Map<String, Measured> out = new LinkedHashMap<>();
        for (JsonNode t : tiering.get("tables")) {
            long n = 0;
            double dur = 0;
            double wait = 0;
            for (JsonNode r : t.get("rounds")) {
                long start = r.get("startedAtMillis").asLong();
                if (start < from || start > to || !r.get("outcome").asText().equals("COMMITTED")) {
                    continue;
                }
                n++;
                dur += r.get("durationMillis").asLong();
                wait += Math.max(0, r.get("queueWaitMillis").asLong());
            }
            List<Long> lags = new ArrayList<>();
            for (JsonNode s : history.get("tables")) {
                if (!s.get("table").asText().equals(t.get("table").asText())) {
                    continue;
                }
                for (int i = 0; i < s.get("timeMillis").size(); i++) {
                    long at = s.get("timeMillis").get(i).asLong();
                    if (at >= from && at <= to) {
                        lags.add(s.get("lagMillis").get(i).asLong());
                    }
                }
            }
            lags.sort(Long::compare);
            long p99 =
                    lags.isEmpty()
                            ? -1
                            : lags.get(
                                    (int)
                                            Math.min(
                                                    lags.size() - 1,
                                                    Math.floor(lags.size() * 0.99)));
            long peak = lags.isEmpty() ? -1 : lags.get(lags.size() - 1);
            out.put(
                    t.get("table").asText(),
                    new Measured(n, n == 0 ? -1 : dur / n, n == 0 ? -1 : wait / n, p99, peak));
        }
        return out;
    }

    /** Per table, the mean over seeds of the peak lag in a window of {@code window}. */
    static Map<String, Double> windowPeaks(
            dev.tributary.planner.workload.Workload w, Duration window) {
        Map<String, Double> sum = new LinkedHashMap<>();
        for (int seed = 1; seed <= WINDOW_SEEDS; seed++) {
            SimulationResult r =
                    TieringPlanner.predict(
                            w,
                            new dev.tributary.planner.sim.SimulationSettings(
                                    window.plusMinutes(1), Duration.ofMinutes(1), seed));
            for (SimulationResult.TableOutcome t : r.tables()) {
                sum.merge(t.name(), (double) t.lagPeakMillis() / WINDOW_SEEDS, Double::sum);
            }
        }
        return sum;
    }

    static void compare(
            SimulationResult predicted,
            Map<String, Double> windowPeaks,
            Map<String, Measured> measured) {
        System.out.printf(
                Locale.ROOT,
                "%-15s %6s | %10s %10s %7s | %10s %10s %7s | %10s %10s %7s | %9s | %9s %9s%n",
                "table",
                "rounds",
                "round pred",
                "round meas",
                "error",
                "p99 pred",
                "p99 meas",
                "error",
                "peak pred",
                "peak meas",
                "error",
                "peak 1h",
                "wait pred",
                "wait meas");
        for (SimulationResult.TableOutcome t : predicted.tables()) {
            Measured m = measured.get(t.name());
            if (m == null) {
                continue;
            }
            double peak = windowPeaks.get(t.name());
            System.out.printf(
                    Locale.ROOT,
                    "%-15s %6d | %9.2fs %9.2fs %6.0f%% | %9.2fs %9.2fs %6.0f%% | %9.2fs %9.2fs"
                            + " %6.0f%% | %8.2fs | %8.2fs %8.2fs%n",
                    t.name(),
                    m.rounds(),
                    t.roundAvgMillis() / 1000.0,
                    m.roundAvgMillis() / 1000.0,
                    err(t.roundAvgMillis(), m.roundAvgMillis()),
                    t.lagP99Millis() / 1000.0,
                    m.lagP99Millis() / 1000.0,
                    err(t.lagP99Millis(), m.lagP99Millis()),
                    peak / 1000.0,
                    m.lagPeakMillis() / 1000.0,
                    err(peak, m.lagPeakMillis()),
                    t.lagPeakMillis() / 1000.0,
                    t.queueWaitAvgMillis() / 1000.0,
                    m.waitAvgMillis() / 1000.0);
        }
    }

    private static double err(double predicted, double measured) {
        return measured <= 0 ? Double.NaN : 100.0 * (predicted - measured) / measured;
    }

    private static String get(String http, String path) throws Exception {
        HttpResponse<String> r =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create("http://" + http + path)).build(),
                                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }
}

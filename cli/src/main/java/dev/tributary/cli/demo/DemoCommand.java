package dev.tributary.cli.demo;

import dev.tributary.cli.output.LogDirectory;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.Durations;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.server.TributaryServer;
import dev.tributary.server.config.ServerConfigLoader;
import dev.tributary.server.status.LakeLocation;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The end-to-end demo: a server with embedded tiering (or an existing one), the blog's three lake
 * tables, a steady write load, and one line per tiering round as the coordinator reports it.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the shop demo: starts a server with embedded tiering (or uses --server), creates"
                    + " shop.clicks, shop.orders and shop.customers with the lake enabled, writes"
                    + " to them steadily and prints each tiering round as it commits.",
            "Stops writing after --duration or on Ctrl-C, waits (bounded: twice the longest"
                    + " freshness and 30s) until the last round of each table has committed what"
                    + " was written, then prints the counts and a summary."
        })
public final class DemoCommand implements Callable<Integer> {
    private static final long TICK_MILLIS = 100;

    /** How long Ctrl-C waits beyond the final-round bound for the closing lines. */
    private static final Duration HOOK_SLACK = Duration.ofSeconds(60);

    @Option(
            names = "--server",
            paramLabel = "HOST:PORT",
            description = "Use this running server instead of starting one in this process.")
    String server;

    @Option(
            names = "--token",
            defaultValue = "${env:TRIBUTARY_TOKEN}",
            description = "Bearer token of --server (env TRIBUTARY_TOKEN).")
    String token;

    @Option(
            names = "--data-dir",
            description =
                    "Data directory of the in-process server (default: a new temporary directory,"
                            + " kept afterwards so the lake can be inspected).")
    Path dataDir;

    @Option(
            names = "--lake-format",
            paramLabel = "FORMAT",
            defaultValue = "paimon",
            converter = DemoLakeFormat.Converter.class,
            completionCandidates = DemoLakeFormat.Candidates.class,
            description =
                    "Lake format the tables are tiered into: ${COMPLETION-CANDIDATES} (default:"
                            + " ${DEFAULT-VALUE}). The in-process server keeps the warehouse in"
                            + " <data-dir>/lake (Iceberg: a Hadoop catalog there); with --server"
                            + " it must match the server's datalake.format.")
    DemoLakeFormat lakeFormat;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description =
                    "A setting of the in-process server (repeatable), as in conf/server.yaml; e.g."
                            + " a lake on S3 behind a catalog: --set"
                            + " datalake.iceberg.warehouse=s3://bucket/lake --set"
                            + " datalake.iceberg.type=rest ... (README: a lake on object storage).")
    List<String> set = new ArrayList<>();

    @Option(names = "--fast", description = "Freshness 10s/20s/30s instead of 1min/2min/5min.")
    boolean fast;

    @Option(
            names = "--duration",
            defaultValue = "6m",
            description =
                    "How long to write before stopping, e.g. 90s, 2m (default: ${DEFAULT-VALUE}: long"
                            + " enough for a round of every table at the blog's freshness).")
    String duration;

    @Option(
            names = "--rate",
            defaultValue = "1000",
            description =
                    "Rows written per second over the three tables (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(
            names = "--parallelism",
            description =
                    "Readers of the in-process server's tiering job (default: number of cores).")
    Integer parallelism;

    @Option(
            names = "--seed",
            description = "Seed of the generated data (default: random, printed).")
    Long seed;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Duration runFor = parseDuration();
        if (rate < 1) {
            throw new InvalidInputException("--rate must be at least 1 row per second");
        }
        Clock clock = Clock.system();
        long dataSeed = seed != null ? seed : clock.nanoTime();
        TributaryServer local = server == null ? startServer(out) : null;
        String address = local != null ? local.rpcTarget() : server;
        Duration finalWait = FinalRounds.bound(DemoTables.specs(fast));
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread hook =
                new Thread(
                        () -> {
                            stop.countDown();
                            // Ctrl-C: the closing lines wait (bounded) for the last rounds
                            awaitQuietly(done, finalWait.plus(HOOK_SLACK).toSeconds());
                        },
                        "tributary-demo-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        ScheduledExecutorService timers = Executors.newScheduledThreadPool(2);
        RoundFeed feed = new RoundFeed();
        try (Connection conn = Connection.builder().address(address).token(token).build()) {
            createTables(conn, out);
            try (DemoWorkload load =
                    new DemoWorkload(
                            conn, clock, dataSeed, (int) Math.max(1, rate * TICK_MILLIS / 1000))) {
                out.printf(
                        "writing ~%d rows/s for %s (seed %d); each line is a tiering round that"
                                + " ended, committed or failed (Ctrl-C stops)%n",
                        rate, Durations.format(runFor), dataSeed);
                if (!fast) {
                    out.println(
                            "the first rounds commit after each table's freshness (1, 2 and 5"
                                    + " minutes); --fast shortens it to 10, 20 and 30 seconds");
                }
                out.println(RoundFeed.HEADER);
                out.flush();
                timers.scheduleAtFixedRate(
                        guarded(load::tick, out), 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
                timers.scheduleWithFixedDelay(
                        guarded(() -> poll(conn, feed, clock, out), out), 1, 1, TimeUnit.SECONDS);
                stop.await(runFor.toMillis(), TimeUnit.MILLISECONDS);
                timers.shutdown();
                timers.awaitTermination(10, TimeUnit.SECONDS);
                // every write acknowledged: the store's end offsets are final
                load.close();
                awaitFinalRounds(conn, feed, clock, out, finalWait);
                summary(load, feed, out);
                UnionCounts.print(
                        conn,
                        DemoTables.specs(false).stream().map(DemoTables.Spec::path).toList(),
                        out);
            }
        } finally {
            timers.shutdownNow();
            if (local != null) {
                local.close();
            }
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for done
            }
        }
        return 0;
    }

    private Duration parseDuration() {
        try {
            Duration d = Durations.parse(duration);
            if (d.isZero() || d.isNegative()) {
                throw new IllegalArgumentException("must be positive");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(
                    "--duration '" + duration + "': " + e.getMessage() + "; use e.g. 90s or 2m");
        }
    }

    private TributaryServer startServer(PrintWriter out) throws Exception {
        Path dir = dataDir != null ? dataDir : Files.createTempDirectory("tributary-demo-");
        List<String> settings = new ArrayList<>();
        settings.add("data.dir=" + dir.toAbsolutePath());
        settings.add("server.rpc.port=0");
        settings.add("server.http.port=0");
        settings.add("datalake.format=" + lakeFormat.identifier());
        // the console's plot shows each 10-30 s tooth of the sawtooth with more than a few points
        settings.add("server.http.lag-history.interval=1s");
        String warehouseKey = "datalake." + lakeFormat.identifier() + ".warehouse=";
        if (set.stream().noneMatch(s -> s.startsWith(warehouseKey))) {
            // the extension's default, spelt out
            settings.add(warehouseKey + dir.toAbsolutePath().resolve("lake").toUri());
        }
        if (parallelism != null) {
            settings.add("tiering.embedded.parallelism=" + parallelism);
        }
        settings.addAll(set);
        Configuration conf = ServerConfigLoader.load(null, settings);
        // before the server starts: Flink's and Hadoop's start-up warnings go to the file
        Path log = LogDirectory.underDataDir(dir);
        TributaryServer s = TributaryServer.start(conf);
        out.println(
                "server: rpc="
                        + s.rpcTarget()
                        + s.httpAddress()
                                .map(a -> " http=http://" + a.getHostString() + ":" + a.getPort())
                                .orElse("")
                        + " data="
                        + s.dataDir()
                        + " lake: "
                        + LakeLocation.of(s.lakeConfiguration()).describe()
                        + " (embedded tiering)");
        s.httpAddress()
                .ifPresent(
                        a ->
                                out.println(
                                        "console: http://"
                                                + a.getHostString()
                                                + ":"
                                                + a.getPort()
                                                + "/ (tables, lag plots, rounds, failures)"));
        out.println("log: " + log + " (Flink, Hadoop and lake library messages go there)");
        out.flush();
        return s;
    }

    private void createTables(Connection conn, PrintWriter out) {
        conn.admin().createDatabase(DemoTables.DATABASE, true);
        for (DemoTables.Spec t : DemoTables.specs(fast)) {
            TableInfo info = conn.admin().createTable(t.path(), t.descriptor(lakeFormat), true);
            checkFormat(info);
            out.printf(
                    "table %-16s %-11s %2d buckets, freshness %s%s%n",
                    t.path(),
                    t.kind(),
                    t.buckets(),
                    Durations.format(t.freshness()),
                    t.partitionKey() == null
                            ? ""
                            : ", partitioned by day ("
                                    + t.partitionKey()
                                    + "), partitions "
                                    + partitionNames(conn, t.path()));
        }
        out.flush();
    }

    private static String partitionNames(Connection conn, TablePath path) {
        return conn.admin().listPartitions(path).stream()
                .map(dev.tributary.client.admin.PartitionInfo::name)
                .toList()
                .toString();
    }

    /**
     * A table that already existed (a reused data directory or server) keeps its format; writing to
     * it would tier somewhere other than the user asked for.
     */
    private void checkFormat(TableInfo existing) {
        String format =
                existing.descriptor()
                        .properties()
                        .getOrDefault(
                                DemoTables.FORMAT_PROPERTY, DemoLakeFormat.PAIMON.identifier());
        if (!format.equals(lakeFormat.identifier())) {
            throw new InvalidInputException(
                    "table "
                            + existing.path()
                            + " already exists and is tiered into "
                            + format
                            + "; run the demo with --lake-format "
                            + format
                            + ", or with another --data-dir (or server) for "
                            + lakeFormat.identifier());
        }
    }

    private static void poll(Connection conn, RoundFeed feed, Clock clock, PrintWriter out) {
        print(feed.update(conn.admin().tieringStatus().tables(), clock.currentTimeMillis()), out);
    }

    /**
     * Polls the server's tiering status until the lake holds everything the demo wrote (every demo
     * table's tiered offsets have reached its end offsets), printing the rounds that end meanwhile,
     * or until {@code bound}; the closing counts and summary then include the last rounds.
     */
    private static void awaitFinalRounds(
            Connection conn, RoundFeed feed, Clock clock, PrintWriter out, Duration bound)
            throws InterruptedException {
        List<TablePath> tables =
                DemoTables.specs(false).stream().map(DemoTables.Spec::path).toList();
        out.printf(
                "stopped writing; waiting up to %s for each table's last round to commit what was"
                        + " written%n",
                Durations.format(bound));
        out.flush();
        long start = clock.nanoTime();
        while (true) {
            Map<TablePath, String> behind;
            try {
                List<TableTieringStatus> statuses = conn.admin().tieringStatus().tables();
                print(feed.update(statuses, clock.currentTimeMillis()), out);
                behind = FinalRounds.behind(statuses, tables);
            } catch (TributaryException e) {
                behind = new LinkedHashMap<>();
                for (TablePath t : tables) {
                    behind.put(t, "no tiering status (" + e.getMessage() + ")");
                }
            }
            if (behind.isEmpty()) {
                out.println(
                        "the lake holds every row written: each table's tiered offsets reached"
                                + " its end offsets");
                out.flush();
                return;
            }
            if (clock.nanoTime() - start >= bound.toNanos()) {
                out.println(
                        "demo: gave up waiting for the last rounds after "
                                + Durations.format(bound)
                                + ": "
                                + FinalRounds.describe(behind)
                                + "; the counts below miss those rows");
                out.flush();
                return;
            }
            TimeUnit.SECONDS.sleep(1);
        }
    }

    private static void print(List<String> lines, PrintWriter out) {
        synchronized (out) {
            lines.forEach(out::println);
            out.flush();
        }
    }

    private static void summary(DemoWorkload load, RoundFeed feed, PrintWriter out) {
        out.printf(
                "written: clicks %d, orders %d, customers %d upserts + %d deletes, %d failed%n",
                load.clicksWritten(),
                load.ordersWritten(),
                load.customerUpserts(),
                load.customerDeletes(),
                load.failedWrites());
        if (load.firstFailure() != null) {
            out.println("first write failure: " + load.firstFailure());
        }
        Map<TablePath, RoundFeed.Totals> totals = feed.totals();
        for (DemoTables.Spec t : DemoTables.specs(false)) {
            RoundFeed.Totals tt = totals.getOrDefault(t.path(), new RoundFeed.Totals(0, 0));
            out.printf(
                    "tiered: %-16s %d rounds, %d rows%s%n",
                    t.path(),
                    tt.rounds(),
                    tt.rows(),
                    tt.failed() == 0 ? "" : ", " + tt.failed() + " failed rounds");
        }
        out.flush();
    }

    /** A failing tick must not cancel the schedule silently; it is reported once per kind. */
    private static Runnable guarded(Runnable r, PrintWriter out) {
        java.util.Set<String> reported = java.util.concurrent.ConcurrentHashMap.newKeySet();
        return () -> {
            try {
                r.run();
            } catch (RuntimeException e) {
                String what = e.getClass().getSimpleName() + ": " + e.getMessage();
                if (reported.add(what)) {
                    synchronized (out) {
                        out.println("demo: " + what);
                        out.flush();
                    }
                }
            }
        };
    }

    private static void awaitQuietly(CountDownLatch latch, long seconds) {
        try {
            latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.tributary.bench.tiering;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.job.TieringOptions;
import dev.tributary.tiering.service.GatewayTieringService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * T3: how long a table that becomes pending waits before an idle job has it (the coordinator's
 * {@code queueWaitMillis} of each round: assignment time minus pending time), against a real server
 * and a real tiering job on a MiniCluster. One small table, freshness 200 ms, a trickle of writes
 * so every round has data, one reader (always idle when the table becomes due). Two runs in the
 * same process: the job as shipped (its table request waits at the coordinator and is answered when
 * a table becomes pending: push) and, as the baseline, the same job with {@code
 * tiering.request.max-wait=0} (each request answered at once, so the job polls every {@code
 * tiering.request.min-interval}, 200 ms, as the old adapter did).
 *
 * <p>{@code java ... PushLatencyBench [--rounds N]} (default 150 rounds per run).
 */
public final class PushLatencyBench {
    private static final Schema SCHEMA =
            Schema.newBuilder().column("id", DataTypes.BIGINT()).build();

    private PushLatencyBench() {}

    public static void main(String[] args) throws Exception {
        int rounds = 150;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--rounds")) {
                rounds = Integer.parseInt(args[++i]);
            }
        }
        long[] push = run("push", rounds, Duration.ofSeconds(5));
        long[] poll = run("poll", rounds, Duration.ZERO);
        System.out.printf("%nT3 pending-to-assigned latency, ms (rounds per run: %d)%n", rounds);
        System.out.printf("%-32s %6s %6s %6s %6s %6s%n", "job", "p50", "p90", "p99", "max", "mean");
        print("long poll (shipped)", push);
        print("poll every 200 ms (baseline)", poll);
        System.out.printf(
                "p99 ratio push/poll: %.3f; target: push p99 <= 50 ms: %s%n",
                (double) pct(push, 99) / Math.max(1, pct(poll, 99)),
                pct(push, 99) <= 50 ? "met" : "NOT met");
    }

    private static long[] run(String name, int rounds, Duration maxWait) throws Exception {
        Path dir = Files.createTempDirectory("push-bench-" + name);
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("data").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        try (TributaryServer server = TributaryServer.start(conf, Clock.system(), List.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            Configuration job = server.lakeConfiguration();
            job.set(TieringOptions.EMBEDDED_PARALLELISM, 1);
            job.set(TieringOptions.REQUEST_MAX_WAIT, maxWait);
            conn.admin().createDatabase("bench", true);
            TableInfo t =
                    conn.admin()
                            .createTable(
                                    TablePath.of("bench", "events"),
                                    TableDescriptor.builder(SCHEMA)
                                            .bucketCount(1)
                                            .property("table.datalake.enabled", "true")
                                            .property("table.datalake.freshness", "200ms")
                                            .build(),
                                    false);
            Map<Long, Long> waits = new LinkedHashMap<>();
            try (EmbeddedTiering tiering =
                            EmbeddedTiering.start(
                                    GatewayTieringService.factory(
                                            server.rpcTarget(), null, Map.of()),
                                    job);
                    AppendWriter w = conn.appendWriter(t.path())) {
                long id = 0;
                // the first rounds warm the job up (class loading, first files): not counted
                long skip = 5;
                while (waits.size() < rounds + skip) {
                    w.append(Row.of(id++));
                    w.flush();
                    for (TableTieringStatus.Round r :
                            conn.admin().tieringStatus(t.path()).recentRounds()) {
                        if (r.queueWaitMillis() >= 0) {
                            waits.putIfAbsent(r.roundId(), r.queueWaitMillis());
                        }
                    }
                    Thread.sleep(50);
                }
                List<Long> counted = new ArrayList<>(waits.values());
                return counted.subList((int) skip, counted.size()).stream()
                        .mapToLong(Long::longValue)
                        .toArray();
            }
        }
    }

    private static void print(String name, long[] values) {
        System.out.printf(
                "%-32s %6d %6d %6d %6d %6.1f%n",
                name,
                pct(values, 50),
                pct(values, 90),
                pct(values, 99),
                pct(values, 100),
                Arrays.stream(values).average().orElse(0));
    }

    private static long pct(long[] values, int p) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}

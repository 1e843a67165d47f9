package dev.tributary.bench.lake;

import dev.tributary.cli.embedded.EmbeddedTieringExtension;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.io.ObjectStoreCounts;
import dev.tributary.lake.api.testing.IcebergRestCatalogServer;
import dev.tributary.lake.api.testing.S3FaultProxy;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.server.TributaryServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * T47: object-store requests and bytes per tiering round, and the round's duration, for a 16-bucket
 * log table and a 12-bucket PK table tiered into Iceberg: on the local disk, on S3 (s3proxy behind
 * Iceberg's REST catalog), and on S3 with 30 ms added to every request by {@link S3FaultProxy}. The
 * real server with the embedded tiering job; each round carries one batch.
 *
 * <p>{@code ObjectStoreCostBench [--rounds 6] [--rows-per-bucket 200] [--seed S] [--dir DIR]}
 */
public final class ObjectStoreCostBench {
    private static final Clock CLOCK = Clock.system();
    private static final Schema LOG =
            Schema.of(
                    List.of(
                            new Column("id", DataTypes.BIGINT(), null),
                            new Column("payload", DataTypes.STRING(), null)),
                    List.of());
    private static final Schema PK =
            Schema.of(
                    List.of(
                            new Column("id", DataTypes.BIGINT(), null),
                            new Column("payload", DataTypes.STRING(), null)),
                    List.of("id"));

    private ObjectStoreCostBench() {}

    public static void main(String[] args) throws Exception {
        int rounds = 6;
        int rowsPerBucket = 200;
        long seed = 47;
        Path dir = null;
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--rows-per-bucket" -> rowsPerBucket = Integer.parseInt(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--dir" -> dir = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("objectstore-bench");
        }
        System.out.printf(
                "rounds %d, %d rows per bucket a round, seed %d, dir %s%n",
                rounds, rowsPerBucket, seed, dir);
        System.out.println(
                "| lake | table | rounds | requests/round | PUT | GET | HEAD | LIST | other | KB up/round"
                        + " | KB down/round | round ms (median) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (String lake : List.of("local", "s3", "s3+30ms")) {
            run(lake, dir.resolve(lake.replace("+", "-")), rounds, rowsPerBucket, seed);
        }
    }

    private static void run(String lake, Path dir, int rounds, int rowsPerBucket, long seed)
            throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("server").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("datalake.format", "iceberg");
        S3Server s3 = null;
        IcebergRestCatalogServer rest = null;
        S3FaultProxy proxy = null;
        try {
            if (!lake.equals("local")) {
                s3 = S3Server.start(dir.resolve("s3"), "lake");
                rest = IcebergRestCatalogServer.startOnS3(dir.resolve("rest"), "s3://lake/wh", s3);
                String endpoint = s3.endpoint();
                if (lake.endsWith("30ms")) {
                    proxy = S3FaultProxy.start(s3).rule(r -> S3FaultProxy.Fault.delay(30));
                    endpoint = proxy.endpoint();
                }
                Map.of(
                                "type",
                                "rest",
                                "uri",
                                rest.uri(),
                                "warehouse",
                                "s3://lake/wh",
                                "io-impl",
                                "org.apache.iceberg.aws.s3.S3FileIO",
                                "s3.endpoint",
                                endpoint,
                                "s3.path-style-access",
                                "true",
                                "s3.access-key-id",
                                S3Server.ACCESS_KEY,
                                "s3.secret-access-key",
                                S3Server.SECRET_KEY,
                                "client.region",
                                S3Server.REGION)
                        .forEach((k, v) -> conf.setString("datalake.iceberg." + k, v));
            }
            try (TributaryServer server =
                            TributaryServer.start(
                                    conf, CLOCK, List.of(new EmbeddedTieringExtension()));
                    Connection conn = Connection.open(server.rpcTarget())) {
                conn.admin().createDatabase("bench", true);
                Random random = new Random(seed);
                measure(
                        lake,
                        server,
                        conn,
                        TablePath.of("bench", "log16"),
                        LOG,
                        16,
                        rounds,
                        rowsPerBucket,
                        random);
                measure(
                        lake,
                        server,
                        conn,
                        TablePath.of("bench", "pk12"),
                        PK,
                        12,
                        rounds,
                        rowsPerBucket,
                        random);
            }
        } finally {
            if (proxy != null) {
                proxy.close();
            }
            if (rest != null) {
                rest.close();
            }
            if (s3 != null) {
                s3.close();
            }
        }
    }

    private static void measure(
            String lake,
            TributaryServer server,
            Connection conn,
            TablePath path,
            Schema schema,
            int buckets,
            int rounds,
            int rowsPerBucket,
            Random random)
            throws Exception {
        conn.admin()
                .createTable(
                        path,
                        TableDescriptor.builder(schema)
                                .bucketCount(buckets)
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", "3s")
                                .property("table.datalake.auto-compaction", "false")
                                .property("table.datalake.compaction.interval", "1h")
                                .build(),
                        false);
        List<ObjectStoreCounts> costs = new ArrayList<>();
        List<Long> millis = new ArrayList<>();
        long key = 0;
        long lastRoundId = 0;
        // round 1 creates what later rounds reuse: it is run but not reported
        for (int round = 0; round <= rounds; round++) {
            long before = server.objectStoreCosts().roundCount(path);
            List<CompletableFuture<?>> acks = new ArrayList<>();
            if (schema.primaryKey().isEmpty()) {
                try (AppendWriter w = conn.appendWriter(path)) {
                    for (int i = 0; i < buckets * rowsPerBucket; i++) {
                        acks.add(w.append(Row.of(random.nextLong(), payload(random))));
                    }
                    w.flush();
                    CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                }
            } else {
                try (UpsertWriter w = conn.upsertWriter(path)) {
                    for (int i = 0; i < buckets * rowsPerBucket; i++) {
                        // half new keys, half updates of earlier ones
                        long k = i % 2 == 0 || key == 0 ? key++ : random.nextLong(key);
                        acks.add(w.upsert(Row.of(k, payload(random))));
                    }
                    w.flush();
                    CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                }
            }
            long deadline = CLOCK.currentTimeMillis() + 300_000;
            while (lag(conn, path) != 0) {
                if (CLOCK.currentTimeMillis() > deadline) {
                    throw new IllegalStateException(path + " did not catch up in 5 minutes");
                }
                LockSupport.parkNanos(50_000_000L);
            }
            int n = (int) (server.objectStoreCosts().roundCount(path) - before);
            if (round > 0) {
                List<ObjectStoreCounts> recent = server.objectStoreCosts().recentRounds(path);
                costs.addAll(recent.subList(Math.max(0, recent.size() - n), recent.size()));
                for (TableTieringStatus.Round r : conn.admin().tieringStatus(path).recentRounds()) {
                    if (r.outcome().equals("COMMITTED") && r.roundId() > lastRoundId) {
                        millis.add(r.durationMillis());
                    }
                }
            }
            lastRoundId =
                    conn.admin().tieringStatus(path).lastRound().map(r -> r.roundId()).orElse(0L);
        }
        if (costs.isEmpty() || millis.isEmpty()) {
            System.out.printf("| %s | %s | no round measured |%n", lake, path);
            return;
        }
        double k = costs.size();
        ObjectStoreCounts sum = ObjectStoreCounts.ZERO;
        for (ObjectStoreCounts c : costs) {
            sum = sum.plus(c);
        }
        long put = 0;
        long get = 0;
        long head = 0;
        long list = 0;
        for (var kind : dev.tributary.lake.api.io.ObjectStoreRequest.values()) {
            long r = sum.requests(kind);
            switch (kind) {
                case PUT -> put = r;
                case GET -> get = r;
                case HEAD -> head = r;
                case LIST -> list = r;
                default -> {}
            }
        }
        long other = sum.totalRequests() - put - get - head - list;
        millis.sort(null);
        System.out.printf(
                "| %s | %s (%d buckets) | %d rounds / %d batches | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %d"
                        + " |%n",
                lake,
                path.table(),
                buckets,
                costs.size(),
                rounds,
                sum.totalRequests() / k,
                put / k,
                get / k,
                head / k,
                list / k,
                other / k,
                sum.bytesUp() / k / 1024,
                sum.bytesDown() / k / 1024,
                millis.get(millis.size() / 2));
    }

    private static long lag(Connection conn, TablePath path) {
        TableTieringStatus s = conn.admin().tieringStatus(path);
        return s.lagRecords().isPresent() ? s.lagRecords().getAsLong() : -1;
    }

    private static String payload(Random random) {
        char[] c = new char[64];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(c);
    }
}

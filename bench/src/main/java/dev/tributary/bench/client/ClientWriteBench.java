package dev.tributary.bench.client;

import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.TributaryServer;
import dev.tributary.storage.BucketStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * Write throughput through the Java client and a server over loopback, as a ratio of the embedded
 * bucket store's throughput measured in the same run with the same rows and batch size.
 *
 * <p>Rows are ~100 bytes encoded (BIGINT id, BIGINT ts, 80-char STRING). Scenarios: log appends and
 * primary-key upserts (new keys), with 1 and 4 writers, on 4-bucket tables, fsync with group commit
 * (the default flush policy). Embedded: each writer thread builds batches of the client's batch
 * size and waits for each append's ack. Client: each writer thread has its own writer on one shared
 * connection and appends as fast as the writer's back-pressure allows; the figure counts rows
 * acknowledged by the final flush.
 *
 * <p>Usage: {@code ClientWriteBench [--seconds N] [--dir PATH] [--seed S] [--only log|pk]
 * [--writers 1|4]}. The client and the server run in this one JVM, sharing its cores with the bench
 * itself.
 */
public final class ClientWriteBench {
    private static final int BUCKETS = 4;
    private static final int BATCH_BYTES = 512 * 1024;
    private static final Schema LOG =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("ts", DataTypes.BIGINT())
                    .column("payload", DataTypes.STRING())
                    .build();
    private static final Schema PK =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("ts", DataTypes.BIGINT())
                    .column("payload", DataTypes.STRING())
                    .primaryKey("id")
                    .build();

    private final int seconds;
    private final String[] payloads;
    private final Clock clock = Clock.system();

    private ClientWriteBench(int seconds, long seed) {
        this.seconds = seconds;
        Random random = new Random(seed);
        payloads = new String[1024];
        for (int i = 0; i < payloads.length; i++) {
            StringBuilder sb = new StringBuilder(80);
            for (int c = 0; c < 80; c++) {
                sb.append((char) ('a' + random.nextInt(26)));
            }
            payloads[i] = sb.toString();
        }
    }

    /** One measured scenario. */
    record Result(String name, long rows, long bytes, long nanos) {
        double rowsPerSec() {
            return rows / (nanos / 1e9);
        }

        double mbPerSec() {
            return bytes / (nanos / 1e9) / (1 << 20);
        }
    }

    public static void main(String[] args) throws Exception {
        int seconds = 5;
        Path dir = null;
        long seed = 42;
        String only = "all";
        int onlyWriters = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--only" -> only = args[++i];
                case "--writers" -> onlyWriters = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path root = dir != null ? dir : Files.createTempDirectory("tributary-client-bench");
        ClientWriteBench bench = new ClientWriteBench(seconds, seed);
        System.out.printf(
                Locale.ROOT,
                "ClientWriteBench: %d s per scenario, ~%d-byte rows, %d buckets, %d KB batches,"
                        + " fsync + group commit, seed %d, %d cores%n",
                seconds,
                bench.rowBytes(),
                BUCKETS,
                BATCH_BYTES / 1024,
                seed,
                Runtime.getRuntime().availableProcessors());
        try {
            List<String[]> table = new ArrayList<>();
            for (boolean pk : new boolean[] {false, true}) {
                if (!only.equals("all") && only.equals("pk") != pk) {
                    continue;
                }
                for (int writers : new int[] {1, 4}) {
                    if (onlyWriters != 0 && writers != onlyWriters) {
                        continue;
                    }
                    String kind = pk ? "pk upsert" : "log append";
                    Result embedded =
                            bench.embedded(
                                    root.resolve("e-" + kind.charAt(0) + writers), pk, writers);
                    Result client =
                            bench.client(
                                    root.resolve("c-" + kind.charAt(0) + writers), pk, writers);
                    table.add(
                            new String[] {
                                kind,
                                Integer.toString(writers),
                                fmt(embedded.rowsPerSec()),
                                fmt1(embedded.mbPerSec()),
                                fmt(client.rowsPerSec()),
                                fmt1(client.mbPerSec()),
                                String.format(
                                        Locale.ROOT,
                                        "%.0f%%",
                                        100 * client.rowsPerSec() / embedded.rowsPerSec())
                            });
                }
            }
            System.out.println();
            System.out.printf(
                    Locale.ROOT,
                    "| %-10s | %7s | %14s | %11s | %14s | %11s | %15s |%n",
                    "scenario",
                    "writers",
                    "embedded rows/s",
                    "embedded MB/s",
                    "client rows/s",
                    "client MB/s",
                    "client/embedded");
            for (String[] r : table) {
                System.out.printf(
                        Locale.ROOT,
                        "| %-10s | %7s | %14s | %11s | %14s | %11s | %15s |%n",
                        (Object[]) r);
            }
        } finally {
            if (dir == null) {
                deleteTree(root);
            }
        }
    }

    private int rowBytes() {
        WriteBatchBuilder b = WriteBatch.builder(1, 0, 1, LOG);
        int before = b.sizeInBytes();
        b.append(row(1));
        return b.sizeInBytes() - before;
    }

    private Row row(long id) {
        return Row.of(id, id * 31, payloads[(int) (id & 1023)]);
    }

    /** The store alone: writer w appends batches to bucket w % BUCKETS and waits for each ack. */
    private Result embedded(Path dir, boolean pk, int writers) throws Exception {
        Files.createDirectories(dir);
        try (BucketStore store = BucketStore.open(dir, new Configuration(), clock)) {
            Schema schema = pk ? PK : LOG;
            TableDescriptor d = TableDescriptor.builder(schema).bucketCount(BUCKETS).build();
            store.createTable(1, d, 1, schema);
            long rowsPerBatch = BATCH_BYTES / rowBytes();
            // warm-up
            runEmbedded(store, schema, writers, rowsPerBatch, 1, 1_000_000_000L);
            Result r =
                    runEmbedded(store, schema, writers, rowsPerBatch, 2, seconds * 1_000_000_000L);
            print("embedded", pk, writers, r);
            return r;
        }
    }

    private Result runEmbedded(
            BucketStore store,
            Schema schema,
            int writers,
            long rowsPerBatch,
            int generation,
            long durationNanos)
            throws Exception {
        boolean pk = schema.hasPrimaryKey();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Callable<long[]>> tasks = new ArrayList<>();
        long start = clock.nanoTime();
        long deadline = start + durationNanos;
        for (int w = 0; w < writers; w++) {
            int writer = w;
            tasks.add(
                    () -> {
                        long rows = 0;
                        long bytes = 0;
                        long id = ((long) generation << 40) | ((long) writer << 32);
                        while (clock.nanoTime() < deadline) {
                            int bucket = writer % BUCKETS;
                            WriteBatchBuilder b = WriteBatch.builder(1, bucket, 1, schema);
                            for (int i = 0; i < rowsPerBatch; i++) {
                                Row r;
                                // PK rows must hash to this bucket; probe ids until one does
                                if (pk) {
                                    do {
                                        r = row(id++);
                                    } while (PkBuckets.bucketOf(r) != bucket);
                                    b.upsert(r);
                                } else {
                                    b.append(row(id++));
                                }
                            }
                            WriteBatch batch = b.build();
                            store.append(batch).join();
                            rows += batch.recordCount();
                            bytes += batch.sizeInBytes();
                        }
                        return new long[] {rows, bytes};
                    });
        }
        long rows = 0;
        long bytes = 0;
        for (Future<long[]> f : pool.invokeAll(tasks)) {
            rows += f.get()[0];
            bytes += f.get()[1];
        }
        long nanos = clock.nanoTime() - start;
        pool.shutdown();
        return new Result("embedded", rows, bytes, nanos);
    }

    /** A server on loopback and writers on one shared connection. */
    private Result client(Path dir, boolean pk, int writers) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        try (TributaryServer server = TributaryServer.start(conf, clock, List.of());
                Connection conn =
                        Connection.builder()
                                .address(server.rpcTarget())
                                .option("client.writer.batch-size", BATCH_BYTES / 1024 + "kb")
                                .build()) {
            TablePath path = TablePath.of("bench", pk ? "pk" : "log");
            conn.admin().createDatabase("bench", true);
            conn.admin()
                    .createTable(
                            path,
                            TableDescriptor.builder(pk ? PK : LOG).bucketCount(BUCKETS).build(),
                            false);
            runClient(conn, path, pk, writers, 1, 1_000_000_000L);
            Result r = runClient(conn, path, pk, writers, 2, seconds * 1_000_000_000L);
            print("client", pk, writers, r);
            return r;
        }
    }

    private Result runClient(
            Connection conn,
            TablePath path,
            boolean pk,
            int writers,
            int generation,
            long durationNanos)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Callable<long[]>> tasks = new ArrayList<>();
        int rowBytes = rowBytes();
        long start = clock.nanoTime();
        long deadline = start + durationNanos;
        for (int w = 0; w < writers; w++) {
            int writer = w;
            tasks.add(
                    () -> {
                        long rows = 0;
                        long id = ((long) generation << 40) | ((long) writer << 32);
                        if (pk) {
                            try (UpsertWriter uw = conn.upsertWriter(path)) {
                                while ((rows & 255) != 0 || clock.nanoTime() < deadline) {
                                    uw.upsert(row(id++));
                                    rows++;
                                }
                                uw.flush();
                            }
                        } else {
                            try (AppendWriter aw = conn.appendWriter(path)) {
                                while ((rows & 255) != 0 || clock.nanoTime() < deadline) {
                                    aw.append(row(id++));
                                    rows++;
                                }
                                aw.flush();
                            }
                        }
                        return new long[] {rows, rows * rowBytes};
                    });
        }
        long rows = 0;
        long bytes = 0;
        for (Future<long[]> f : pool.invokeAll(tasks)) {
            rows += f.get()[0];
            bytes += f.get()[1];
        }
        long nanos = clock.nanoTime() - start;
        pool.shutdown();
        return new Result("client", rows, bytes, nanos);
    }

    private static void print(String mode, boolean pk, int writers, Result r) {
        System.out.printf(
                Locale.ROOT,
                "%-8s %-10s writers=%d: %,d rows in %.1f s = %s rows/s, %s MB/s%n",
                mode,
                pk ? "pk upsert" : "log append",
                writers,
                r.rows(),
                r.nanos() / 1e9,
                fmt(r.rowsPerSec()),
                fmt1(r.mbPerSec()));
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String fmt1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static void deleteTree(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** The bucket of a PK row of a 4-bucket table, as the client computes it. */
    private static final class PkBuckets {
        private static final dev.tributary.common.row.BucketFunction FN =
                dev.tributary.common.row.BucketFunction.of(
                        TableDescriptor.builder(PK).bucketCount(BUCKETS).build());

        static int bucketOf(Row r) {
            return FN.bucketOf(r);
        }
    }
}

package dev.tributary.bench.storage;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.AppendResult;
import dev.tributary.storage.BucketStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteOptions;

/**
 * Throughput of the bucket store with ~100-byte rows and batches of 1,000 rows, fsync with group
 * commit (the default flush policy): log appends with 1 and 4 concurrent writers, and primary-key
 * upserts with a mix of new and existing keys. Each writer waits for its ack before sending the
 * next batch, like a client with one batch in flight.
 *
 * <p>Usage: {@code StorageBench [--seconds N] [--dir PATH]}; prints one line per scenario.
 */
public final class StorageBench {
    private static final int BATCH_ROWS = 1000;

    private static final Schema LOG_SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("ts", DataTypes.BIGINT())
                    .column("name", DataTypes.STRING())
                    .column("payload", DataTypes.BYTES())
                    .build();

    private static final Schema PK_SCHEMA =
            Schema.newBuilder()
                    .column("k", DataTypes.BIGINT())
                    .column("ts", DataTypes.BIGINT())
                    .column("name", DataTypes.STRING())
                    .column("payload", DataTypes.BYTES())
                    .primaryKey("k")
                    .build();

    private StorageBench() {}

    public static void main(String[] args) throws Exception {
        int seconds = 8;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path root = dir != null ? dir : Files.createTempDirectory("tributary-storage-bench");
        System.out.printf(
                Locale.ROOT,
                "StorageBench: %d-row batches, %.0f-byte rows (RowCodec), fsync + group commit,"
                        + " %ds per scenario, data in %s, %d cores%n",
                BATCH_ROWS,
                rowBytes(),
                seconds,
                root,
                Runtime.getRuntime().availableProcessors());
        try {
            double disk = fsyncBaseline(root.resolve("baseline"), seconds);
            System.out.printf(
                    Locale.ROOT,
                    "baseline     raw FileChannel write+fsync of 100 KB chunks, 1 thread: %.1f MB/s%n",
                    disk / 1e6);
            double[] log = {
                logScenario(root.resolve("log-1w"), 1, 1, 1, false, seconds),
                logScenario(root.resolve("log-1w-pipe"), 1, 1, 4, true, seconds),
                logScenario(root.resolve("log-4w"), 4, 1, 1, false, seconds),
                logScenario(root.resolve("log-4w-4b"), 4, 4, 1, false, seconds)
            };
            System.out.printf(
                    Locale.ROOT,
                    "ratios vs raw fsync baseline: 1w %.2f, 1w pipelined %.2f, 4w %.2f, 4w/4b %.2f%n",
                    log[0] / disk,
                    log[1] / disk,
                    log[2] / disk,
                    log[3] / disk);
            double rocks = rocksBaseline(root.resolve("rocks"), seconds);
            double pk1 = pkScenario(root.resolve("pk-1w"), 1, 1, false, seconds);
            double pk1p = pkScenario(root.resolve("pk-1w-pipe"), 1, 4, true, seconds);
            double pk2 = pkScenario(root.resolve("pk-2w-2b"), 2, 1, false, seconds);
            System.out.printf(
                    Locale.ROOT,
                    "ratios vs raw RocksDB baseline: pk 1w %.2f, pk 1w pipelined %.2f, pk 2w/2b"
                            + " %.2f%n",
                    pk1 / rocks,
                    pk1p / rocks,
                    pk2 / rocks);
        } finally {
            if (dir == null) {
                deleteRecursively(root);
            }
        }
    }

    private static double rowBytes() {
        RowCodec codec = RowCodec.of(LOG_SCHEMA);
        Random r = new Random(1);
        long total = 0;
        for (int i = 0; i < 1000; i++) {
            total += codec.encode(logRow(r, i)).length;
        }
        return total / 1000.0;
    }

    private static Row logRow(Random r, long id) {
        byte[] payload = new byte[60];
        r.nextBytes(payload);
        return Row.of(
                id, 1_700_000_000_000L + id, "customer-" + (10_000 + r.nextInt(90_000)), payload);
    }

    /**
     * Appends to a log table: {@code writers} threads over {@code buckets} buckets, each with up to
     * {@code inFlight} unacknowledged batches; fsyncs on the appending threads or, with {@code
     * flushThread}, on one caller-owned flush thread.
     *
     * @return bytes per second
     */
    private static double logScenario(
            Path dir, int writers, int buckets, int inFlight, boolean flushThread, int seconds)
            throws Exception {
        long tableId = 1;
        ExecutorService flusher = flushThread ? Executors.newSingleThreadExecutor() : null;
        try (BucketStore store =
                BucketStore.open(dir, new Configuration(), Clock.system(), flusher)) {
            store.createTable(
                    tableId,
                    TableDescriptor.builder(LOG_SCHEMA).bucketCount(buckets).build(),
                    0,
                    LOG_SCHEMA);
            // batches are encoded up front: this measures the store, not the client's encoder
            List<List<WriteBatch>> perWriter = new ArrayList<>();
            Random random = new Random(42);
            for (int w = 0; w < writers; w++) {
                List<WriteBatch> batches = new ArrayList<>();
                for (int b = 0; b < 8; b++) {
                    WriteBatchBuilder builder =
                            WriteBatch.builder(tableId, w % buckets, 0, LOG_SCHEMA);
                    for (int i = 0; i < BATCH_ROWS; i++) {
                        builder.append(logRow(random, (long) b * BATCH_ROWS + i));
                    }
                    batches.add(builder.build());
                }
                perWriter.add(batches);
            }
            List<ArrayDeque<CompletableFuture<AppendResult>>> windows = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                windows.add(new ArrayDeque<>());
            }
            Result r =
                    run(
                            writers,
                            seconds,
                            (w, i) -> {
                                WriteBatch b = perWriter.get(w).get(i % 8);
                                ArrayDeque<CompletableFuture<AppendResult>> window = windows.get(w);
                                window.add(store.append(b));
                                if (window.size() < inFlight) {
                                    return 0;
                                }
                                // a batch counts once acknowledged (batches are all ~equal size)
                                window.poll().join();
                                return b.sizeInBytes();
                            });
            for (ArrayDeque<CompletableFuture<AppendResult>> window : windows) {
                window.forEach(CompletableFuture::join);
            }
            long records = 0;
            for (int b = 0; b < buckets; b++) {
                records += store.endOffset(new TableBucket(tableId, b));
            }
            System.out.printf(
                    Locale.ROOT,
                    "log append   writers=%d buckets=%d in-flight=%d fsync-on=%-9s: %7.1f MB/s"
                            + " %,11.0f rows/s %,11.0f rows/CPU-s (%,d rows stored)%n",
                    writers,
                    buckets,
                    inFlight,
                    flushThread ? "flusher" : "appenders",
                    r.bytesPerSecond() / 1e6,
                    r.rowsPerSecond(),
                    r.rowsPerCpuSecond(),
                    records);
            return r.bytesPerSecond();
        } finally {
            if (flusher != null) {
                flusher.shutdown();
            }
        }
    }

    /**
     * Writes 100 KB chunks with an fsync after each: what the disk gives one synchronous writer.
     */
    private static double fsyncBaseline(Path dir, int seconds) throws IOException {
        Files.createDirectories(dir);
        byte[] chunk = new byte[100 * 1024];
        new Random(3).nextBytes(chunk);
        long bytes = 0;
        long start = System.nanoTime();
        long deadline = start + seconds * 1_000_000_000L;
        try (FileChannel ch =
                FileChannel.open(
                        dir.resolve("raw.log"),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE)) {
            while (System.nanoTime() < deadline) {
                ByteBuffer buf = ByteBuffer.wrap(chunk);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(false);
                bytes += chunk.length;
            }
        }
        return bytes / ((System.nanoTime() - start) / 1e9);
    }

    /**
     * Looks up and writes 1,000 keys per batch straight into RocksDB (WAL off, default options, no
     * log, no fsync), half new and half existing keys: the ceiling for the PK path on this machine.
     *
     * @return rows per second
     */
    private static double rocksBaseline(Path dir, int seconds) throws Exception {
        Files.createDirectories(dir);
        RocksDB.loadLibrary();
        Random r = new Random(5);
        byte[] value = new byte[100];
        long rows = 0;
        try (Options options = new Options().setCreateIfMissing(true);
                RocksDB db = RocksDB.open(options, dir.toString());
                WriteOptions wo = new WriteOptions().setDisableWAL(true)) {
            long next = 0;
            long start = System.nanoTime();
            long cpuStart = processCpuNanos();
            long deadline = start + seconds * 1_000_000_000L;
            while (System.nanoTime() < deadline) {
                List<byte[]> keys = new ArrayList<>(BATCH_ROWS);
                for (int i = 0; i < BATCH_ROWS; i++) {
                    long k = (i & 1) == 0 || next == 0 ? next++ : (long) r.nextInt((int) next);
                    byte[] key = new byte[10];
                    for (int j = 0; j < 8; j++) {
                        key[j + 2] = (byte) (k >>> (8 * j));
                    }
                    keys.add(key);
                }
                db.multiGetAsList(keys);
                try (org.rocksdb.WriteBatch wb = new org.rocksdb.WriteBatch()) {
                    for (byte[] key : keys) {
                        wb.put(key, value);
                    }
                    db.write(wo, wb);
                }
                rows += BATCH_ROWS;
            }
            double cpu = (processCpuNanos() - cpuStart) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "baseline     raw RocksDB multiGet+write of 1,000 keys (WAL off), 1 thread:"
                            + " %,.0f rows/s %,.0f rows/CPU-s%n",
                    rows / ((System.nanoTime() - start) / 1e9),
                    rows / cpu);
            return rows / ((System.nanoTime() - start) / 1e9);
        }
    }

    /**
     * Upserts into a primary-key table preloaded with 200,000 keys per bucket; each batch mixes
     * half existing keys (random, so -U/+U pairs) and half new keys (+I).
     */
    private static double pkScenario(
            Path dir, int writers, int inFlight, boolean flushThread, int seconds)
            throws Exception {
        long tableId = 2;
        int preload = 200_000;
        ExecutorService flusher = flushThread ? Executors.newSingleThreadExecutor() : null;
        try (BucketStore store =
                BucketStore.open(dir, new Configuration(), Clock.system(), flusher)) {
            store.createTable(
                    tableId,
                    TableDescriptor.builder(PK_SCHEMA).bucketCount(writers).build(),
                    0,
                    PK_SCHEMA);
            // each writer owns one bucket; keys are kept in the writer's bucket by construction
            // of the key space (bucket = writer), so routing is not part of the measurement
            AtomicLong[] nextNew = new AtomicLong[writers];
            Random random = new Random(7);
            for (int w = 0; w < writers; w++) {
                for (long k = 0; k < preload; k += BATCH_ROWS) {
                    WriteBatchBuilder b = WriteBatch.builder(tableId, w, 0, PK_SCHEMA);
                    for (int i = 0; i < BATCH_ROWS; i++) {
                        b.upsert(logRow(random, k + i));
                    }
                    store.append(b.build()).join();
                }
                nextNew[w] = new AtomicLong(preload);
            }
            // batches are encoded before the clock starts; half new keys (+I), half random
            // existing keys (-U/+U)
            int batchesPerWriter = Math.max(50, seconds * 60);
            List<List<WriteBatch>> perWriter = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                Random rnd = new Random(100 + w);
                List<WriteBatch> batches = new ArrayList<>();
                for (int i = 0; i < batchesPerWriter; i++) {
                    WriteBatchBuilder b = WriteBatch.builder(tableId, w, 0, PK_SCHEMA);
                    for (int j = 0; j < BATCH_ROWS; j++) {
                        long key =
                                (j & 1) == 0
                                        ? nextNew[w].getAndIncrement()
                                        : (long) rnd.nextInt(preload);
                        b.upsert(logRow(rnd, key));
                    }
                    batches.add(b.build());
                }
                perWriter.add(batches);
            }
            Result r =
                    runCount(
                            writers,
                            batchesPerWriter,
                            (w, i) -> {
                                WriteBatch batch = perWriter.get(w).get(i);
                                store.append(batch).join();
                                return batch.sizeInBytes();
                            });
            long changelog = 0;
            for (int b = 0; b < writers; b++) {
                changelog += store.endOffset(new TableBucket(tableId, b));
            }
            System.out.printf(
                    Locale.ROOT,
                    "pk upsert    writers=%d buckets=%d in-flight=%d fsync-on=%-9s: %7.1f MB/s"
                            + " %,11.0f rows/s %,11.0f rows/CPU-s (50%% new keys; %,d changelog"
                            + " records)%n",
                    writers,
                    writers,
                    inFlight,
                    flushThread ? "flusher" : "appenders",
                    r.bytesPerSecond() / 1e6,
                    r.rowsPerSecond(),
                    r.rowsPerCpuSecond(),
                    changelog);
            return r.rowsPerSecond();
        } finally {
            if (flusher != null) {
                flusher.shutdown();
            }
        }
    }

    /** One write: writer index and iteration in, bytes acknowledged (one batch or 0) out. */
    private interface Op {
        long write(int writer, int iteration) throws Exception;
    }

    /** Rates over wall time, and rows per second of process CPU time (all threads). */
    private record Result(double bytesPerSecond, double rowsPerSecond, double rowsPerCpuSecond) {}

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Runs {@code writers} threads: 2 s warm-up, then {@code seconds} measured. */
    private static Result run(int writers, int seconds, Op op) throws Exception {
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong bytes = new AtomicLong();
        AtomicLong batches = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread t =
                    new Thread(
                            () -> {
                                try {
                                    for (int i = 0; !stop.get(); i++) {
                                        long n = op.write(writer, i);
                                        if (measuring.get() && n > 0) {
                                            bytes.addAndGet(n);
                                            batches.incrementAndGet();
                                        }
                                    }
                                } catch (Throwable e) {
                                    errors.add(e);
                                }
                            },
                            "writer-" + w);
            threads.add(t);
            t.start();
        }
        Thread.sleep(2000);
        measuring.set(true);
        long start = System.nanoTime();
        long cpuStart = processCpuNanos();
        Thread.sleep(seconds * 1000L);
        measuring.set(false);
        double elapsed = (System.nanoTime() - start) / 1e9;
        double cpu = (processCpuNanos() - cpuStart) / 1e9;
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        if (!errors.isEmpty()) {
            throw new IllegalStateException("a writer failed", errors.get(0));
        }
        double rows = batches.get() * (double) BATCH_ROWS;
        return new Result(bytes.get() / elapsed, rows / elapsed, rows / cpu);
    }

    /** Runs {@code writers} threads, each doing {@code count} writes, timed as a whole. */
    private static Result runCount(int writers, int count, Op op) throws Exception {
        AtomicLong bytes = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        long cpuStart = processCpuNanos();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread t =
                    new Thread(
                            () -> {
                                try {
                                    for (int i = 0; i < count; i++) {
                                        bytes.addAndGet(op.write(writer, i));
                                    }
                                } catch (Throwable e) {
                                    errors.add(e);
                                }
                            },
                            "writer-" + w);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        double cpu = (processCpuNanos() - cpuStart) / 1e9;
        if (!errors.isEmpty()) {
            throw new IllegalStateException("a writer failed", errors.get(0));
        }
        double rows = (double) writers * count * BATCH_ROWS;
        return new Result(bytes.get() / elapsed, rows / elapsed, rows / cpu);
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

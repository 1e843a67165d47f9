package dev.tributary.bench.storage;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatchBuilder;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.CloseableIterator;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * What streaming a KV snapshot costs the server per row (T54), by layer: RocksDB's iteration of the
 * checkpoint alone (with default and with scan-tuned read options, values copied to a new array or
 * into one reused buffer), and the store's own snapshot reader feeding log batches as the server's
 * snapshot stream does (gRPC excluded). One bucket of {@code --keys} rows shaped like the tiering
 * bench's (~90 bytes), the thread's CPU time per million rows, median of {@code --runs}, variants
 * alternating.
 *
 * <p>Usage: {@code SnapshotReadBench [--keys 2000000] [--runs 5] [--dir DIR]}.
 */
public final class SnapshotReadBench {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("user_name", DataTypes.STRING())
                    .column("url", DataTypes.STRING())
                    .column("amount", DataTypes.INT())
                    .primaryKey("id")
                    .build();
    private static final int CHUNK = 1 << 20;

    private SnapshotReadBench() {}

    private interface Variant {
        long run(Path checkpoint, BucketStore store, TableBucket bucket, long snapshotId)
                throws Exception;
    }

    public static void main(String[] args) throws Exception {
        long keys = 2_000_000;
        int runs = 5;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = Long.parseLong(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("snapshot-read-bench");
        }
        RocksDB.loadLibrary();
        long tableId = 1;
        TableBucket bucket = new TableBucket(tableId, 0);
        try (BucketStore store = BucketStore.open(dir, new Configuration(), Clock.system())) {
            store.createTable(
                    tableId, TableDescriptor.builder(SCHEMA).bucketCount(1).build(), 0, SCHEMA);
            Random r = new Random(42);
            for (long k = 0; k < keys; k += 1_000) {
                WriteBatchBuilder b = WriteBatch.builder(tableId, 0, 0, SCHEMA);
                for (long i = k; i < Math.min(keys, k + 1_000); i++) {
                    b.upsert(
                            Row.of(
                                    i,
                                    "user-" + Long.toHexString(r.nextLong()),
                                    "https://shop.example.com/p/"
                                            + Long.toHexString(r.nextLong())
                                            + "?ref=bench",
                                    r.nextInt(100_000)));
                }
                store.append(b.build()).join();
            }
            long snapshotId = store.snapshot(bucket).snapshotId();
            Path checkpoint = checkpointOf(dir);
            System.out.printf(
                    "snapshot read bench: %,d keys, %d runs, checkpoint %s, load average %.2f%n",
                    keys,
                    runs,
                    checkpoint,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            String[] names = {
                "rocksdb iterate, value() copies, default read options",
                "rocksdb iterate, value() copies, fill_cache off + 2 MB readahead",
                "rocksdb iterate, value(ByteBuffer) into one direct buffer, scan options",
                "store reader -> log batches (the server's snapshot stream, gRPC excluded)"
            };
            Variant[] variants = {
                (cp, s, b, id) -> iterate(cp, false, false),
                (cp, s, b, id) -> iterate(cp, true, false),
                (cp, s, b, id) -> iterate(cp, true, true),
                SnapshotReadBench::batches
            };
            double[][] cpu = new double[variants.length][runs];
            for (int run = -1; run < runs; run++) {
                for (int v = 0; v < variants.length; v++) {
                    long t = THREADS.getCurrentThreadCpuTime();
                    long rows = variants[v].run(checkpoint, store, bucket, snapshotId);
                    if (rows != keys) {
                        throw new IllegalStateException(names[v] + " read " + rows + " rows");
                    }
                    if (run >= 0) {
                        cpu[v][run] = (THREADS.getCurrentThreadCpuTime() - t) / 1e9 / (keys / 1e6);
                    }
                }
            }
            for (int v = 0; v < variants.length; v++) {
                double[] c = cpu[v].clone();
                Arrays.sort(c);
                System.out.printf(
                        "%-75s %.3f CPU-s per million rows (median; %.3f-%.3f)%n",
                        names[v], c[c.length / 2], c[0], c[c.length - 1]);
            }
        }
    }

    private static Path checkpointOf(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> currents =
                    files.filter(p -> p.getFileName().toString().equals("CURRENT"))
                            .filter(p -> p.toString().contains("snapshots"))
                            .toList();
            if (currents.size() != 1) {
                throw new IllegalStateException("expected one checkpoint, found " + currents);
            }
            return currents.get(0).getParent();
        }
    }

    private static long iterate(Path checkpoint, boolean scanOptions, boolean reuse)
            throws Exception {
        long rows = 0;
        long bytes = 0;
        ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
        try (Options options = new Options();
                RocksDB db = RocksDB.openReadOnly(options, checkpoint.toString());
                ReadOptions read = new ReadOptions()) {
            if (scanOptions) {
                read.setFillCache(false).setReadaheadSize(2 << 20);
            }
            try (RocksIterator it = db.newIterator(read)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    if (reuse) {
                        buf.clear();
                        bytes += it.value(buf);
                    } else {
                        bytes += it.value().length;
                    }
                    rows++;
                }
            }
        }
        return bytes > 0 ? rows : -1;
    }

    private static long batches(Path checkpoint, BucketStore store, TableBucket bucket, long id) {
        long rows = 0;
        List<byte[]> sink = new ArrayList<>(1);
        try (CloseableIterator<byte[]> it = store.readSnapshotEncoded(bucket, id)) {
            while (it.hasNext()) {
                LogBatchBuilder b = new LogBatchBuilder(0, CHUNK);
                while (it.hasNext() && b.sizeInBytes() < CHUNK) {
                    byte[] row = it.next();
                    b.addEncoded(ChangeType.INSERT, 0L, row, 0, row.length);
                    rows++;
                }
                sink.clear();
                sink.add(b.build());
            }
        }
        return rows;
    }
}

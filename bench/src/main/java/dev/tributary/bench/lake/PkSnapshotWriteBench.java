package dev.tributary.bench.lake;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.lake.api.write.LakeWriterContext.SplitSource;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * What a PK table's first round costs one lake writer (T54): the same pre-encoded rows (the tiering
 * bench's shape: BIGINT id, two strings, INT, ~90 bytes) written by one writer into a one-bucket
 * table as (1) a log table, (2) a PK table through a LOG split (the lake format's merge writer:
 * sort buffer, merge, key map) and (3) a PK table through a KV_SNAPSHOT split (what a first round
 * does). The ids come in a seeded random order, as a store whose key order is not the lake's would
 * hand them. Runs alternate between the paths; each run's cost is the writing thread's CPU time
 * (write loop + {@code complete()}, no commit), steadier than wall time on a shared machine.
 * Reported: the median per path in CPU-s per million rows, ratios to the log table, and the load
 * average before and after. {@code --table-option} sets a lake table option on the tables the bench
 * creates (e.g. {@code data-file.thin-mode=true}); {@code --sorted-keys} hands the ids in ascending
 * order, Paimon's key order, to show what a store iterated in the lake's key order would save.
 *
 * <pre>
 * java -cp ... dev.tributary.bench.lake.PkSnapshotWriteBench [--rows 500000] [--runs 5] [--formats paimon]
 *     [--paths log,pk_log_split,pk_snapshot] [--seed 42] [--sorted-keys] [--table-option KEY=VALUE]...
 * </pre>
 */
public final class PkSnapshotWriteBench {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long BASE_TS = 1_764_000_000_000L;
    private static final List<String> ALL_PATHS = List.of("log", "pk_log_split", "pk_snapshot");

    private PkSnapshotWriteBench() {}

    public static void main(String[] args) throws Exception {
        int rows = 500_000;
        int runs = 5;
        long seed = 42;
        List<String> formats = List.of("paimon");
        List<String> paths = ALL_PATHS;
        Map<String, String> tableOptions = new java.util.LinkedHashMap<>();
        boolean sorted = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--formats" -> formats = List.of(args[++i].split(","));
                case "--paths" -> paths = List.of(args[++i].split(","));
                case "--sorted-keys" -> sorted = true;
                case "--table-option" -> {
                    String[] kv = args[++i].split("=", 2);
                    tableOptions.put(kv[0], kv[1]);
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory("pk-snapshot-bench");
        byte[][] encoded = encode(RowCodec.of(schema(false)), rows, seed, sorted);
        System.out.printf(
                Locale.ROOT,
                "PkSnapshotWriteBench: %,d rows per run, %d runs per path, seed %d, keys %s, dir %s,"
                        + " load average %.2f%n",
                rows,
                runs,
                seed,
                sorted ? "ascending" : "in random order",
                dir,
                loadAverage());
        for (String format : formats) {
            Map<String, String> c = new java.util.LinkedHashMap<>();
            c.put("warehouse", dir.resolve(format).toString());
            tableOptions.forEach((k, v) -> c.put("table." + k, v));
            Configuration conf = Configuration.fromMap(c);
            try (LakeStorage lake = LakeStoragePlugins.find(format).createLakeStorage(conf)) {
                for (String p : paths) {
                    run(lake, p, encoded, p + "_warm");
                }
                double[][] cpu = new double[paths.size()][runs];
                for (int r = 0; r < runs; r++) {
                    for (int p = 0; p < paths.size(); p++) {
                        cpu[p][r] = run(lake, paths.get(p), encoded, paths.get(p) + "_" + r);
                    }
                }
                double logMedian = median(cpu[0]);
                for (int p = 0; p < paths.size(); p++) {
                    double m = median(cpu[p]);
                    System.out.printf(
                            Locale.ROOT,
                            "%s %-12s %.3f CPU-s per million rows (%.2fx the log table; runs %s)%n",
                            format,
                            paths.get(p),
                            m / (rows / 1e6),
                            m / logMedian,
                            Arrays.toString(cpu[p]));
                }
            }
        }
        System.out.printf(Locale.ROOT, "load average at the end %.2f%n", loadAverage());
    }

    private static Schema schema(boolean pk) {
        Schema.Builder b =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("name", DataTypes.STRING())
                        .column("url", DataTypes.STRING())
                        .column("score", DataTypes.INT());
        if (pk) {
            b.primaryKey("id");
        }
        return b.build();
    }

    /** One writer over all rows by one path; returns the thread's CPU seconds. */
    private static double run(LakeStorage lake, String kind, byte[][] encoded, String table) {
        boolean pk = !kind.equals("log");
        TablePath path = TablePath.of("bench", table);
        Schema schema = schema(pk);
        TableDescriptor d = TableDescriptor.builder(schema).bucketCount(1).build();
        lake.catalog().createTable(path, d);
        EncodedRow view = RowCodec.of(schema).view();
        ChangeType type = pk ? ChangeType.INSERT : ChangeType.APPEND_ONLY;
        SplitSource source = kind.equals("pk_snapshot") ? SplitSource.KV_SNAPSHOT : SplitSource.LOG;
        LakeWriterContext context =
                new LakeWriterContext(path, 1, d, 0, 1, 1, TableBucket.NO_PARTITION, null, source);
        long cpu = THREADS.getCurrentThreadCpuTime();
        try (LakeWriter w = lake.createWriter(context)) {
            for (int i = 0; i < encoded.length; i++) {
                byte[] e = encoded[i];
                // one append timestamp per 500 rows, as the store stamps a batch
                w.write(view.pointTo(e, 0, e.length), type, 0, i, BASE_TS + i / 500);
            }
            w.complete();
        }
        double secs = (THREADS.getCurrentThreadCpuTime() - cpu) / 1e9;
        return Math.round(secs * 1000) / 1000.0;
    }

    /** Rows of ids 0..rows-1 in a seeded random order, or ascending. */
    private static byte[][] encode(RowCodec codec, int rows, long seed, boolean sorted) {
        Random r = new Random(seed);
        long[] ids = new long[rows];
        for (int i = 0; i < rows; i++) {
            ids[i] = i;
        }
        for (int i = rows - 1; i > 0 && !sorted; i--) {
            int j = r.nextInt(i + 1);
            long t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
        byte[][] out = new byte[rows][];
        for (int i = 0; i < rows; i++) {
            out[i] =
                    codec.encode(
                            Row.of(
                                    ids[i],
                                    "user-" + Long.toHexString(r.nextLong()),
                                    "https://shop.example.com/p/"
                                            + Long.toHexString(r.nextLong())
                                            + "?ref=bench",
                                    r.nextInt(100_000)));
        }
        return out;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}

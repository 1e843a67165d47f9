package dev.tributary.bench.lake;

import dev.tributary.common.config.Configuration;
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
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What handing lake writers {@link EncodedRow} views saves over decoding every stored row to a
 * {@link Row} first (what the tiering job did before issue 11). The same pre-encoded rows (the
 * tiering bench's shape: BIGINT id, two strings, INT, ~90 bytes) go through one writer per run into
 * a one-bucket table, by either path; runs alternate between the paths, and each run's cost is the
 * writing thread's own CPU time (write loop + {@code complete()}), which excludes JIT and GC
 * threads and so is far steadier than wall time on a shared machine. Reported: the median per path
 * and their ratio.
 *
 * <pre>
 * java -cp ... dev.tributary.bench.lake.RowPathBench [--rows 1000000] [--runs 5] [--formats paimon,iceberg]
 * </pre>
 */
public final class RowPathBench {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Schema LOG =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("name", DataTypes.STRING())
                    .column("url", DataTypes.STRING())
                    .column("score", DataTypes.INT())
                    .build();
    private static final Schema PK =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("name", DataTypes.STRING())
                    .column("url", DataTypes.STRING())
                    .column("score", DataTypes.INT())
                    .primaryKey("id")
                    .build();

    private RowPathBench() {}

    public static void main(String[] args) throws Exception {
        int rows = 1_000_000;
        int runs = 5;
        List<String> formats = List.of("paimon", "iceberg");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--formats" -> formats = List.of(args[++i].split(","));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory("row-path-bench");
        byte[][] encoded = encode(RowCodec.of(LOG), rows, 42);
        System.out.printf(
                "RowPathBench: %,d rows per run, %d runs per path, dir %s%n", rows, runs, dir);
        for (String format : formats) {
            Configuration conf =
                    Configuration.fromMap(Map.of("warehouse", dir.resolve(format).toString()));
            try (LakeStorage lake = LakeStoragePlugins.find(format).createLakeStorage(conf)) {
                for (Schema schema : List.of(LOG, PK)) {
                    String kind = schema.hasPrimaryKey() ? "pk" : "log";
                    // warm both paths before measuring
                    run(lake, schema, encoded, false, kind + "_warm_rows");
                    run(lake, schema, encoded, true, kind + "_warm_views");
                    double[] viaRows = new double[runs];
                    double[] viaViews = new double[runs];
                    for (int r = 0; r < runs; r++) {
                        viaRows[r] = run(lake, schema, encoded, false, kind + "_rows_" + r);
                        viaViews[r] = run(lake, schema, encoded, true, kind + "_views_" + r);
                    }
                    double rowsMedian = median(viaRows);
                    double viewsMedian = median(viaViews);
                    System.out.printf(
                            "%s %s: decode to Row %.3f CPU-s per million rows (runs %s), EncodedRow"
                                    + " view %.3f (runs %s): the view costs %.0f%% of the Row"
                                    + " path%n",
                            format,
                            kind,
                            rowsMedian / (rows / 1e6),
                            Arrays.toString(viaRows),
                            viewsMedian / (rows / 1e6),
                            Arrays.toString(viaViews),
                            100 * viewsMedian / rowsMedian);
                }
            }
        }
    }

    /** One writer over all rows by one path; returns the thread's CPU seconds. */
    private static double run(
            LakeStorage lake, Schema schema, byte[][] encoded, boolean views, String table) {
        TablePath path = TablePath.of("bench", table);
        TableDescriptor d = TableDescriptor.builder(schema).bucketCount(1).build();
        lake.catalog().createTable(path, d);
        RowCodec codec = RowCodec.of(schema);
        EncodedRow view = codec.view();
        ChangeType type = schema.hasPrimaryKey() ? ChangeType.INSERT : ChangeType.APPEND_ONLY;
        long cpu = THREADS.getCurrentThreadCpuTime();
        try (LakeWriter w = lake.createWriter(new LakeWriterContext(path, 1, d, 0, 1, 1))) {
            for (int i = 0; i < encoded.length; i++) {
                byte[] e = encoded[i];
                if (views) {
                    w.write(view.pointTo(e, 0, e.length), type, 0, i, 1_000L);
                } else {
                    w.write(codec.decode(e), type, 0, i, 1_000L);
                }
            }
            w.complete();
        }
        double secs = (THREADS.getCurrentThreadCpuTime() - cpu) / 1e9;
        return Math.round(secs * 1000) / 1000.0;
    }

    private static byte[][] encode(RowCodec codec, int rows, long seed) {
        Random r = new Random(seed);
        List<byte[]> out = new ArrayList<>(rows);
        for (long id = 0; id < rows; id++) {
            out.add(
                    codec.encode(
                            Row.of(
                                    id,
                                    "user-" + Long.toHexString(r.nextLong()),
                                    "https://shop.example.com/p/"
                                            + Long.toHexString(r.nextLong())
                                            + "?ref=bench",
                                    r.nextInt(100_000))));
        }
        return out.toArray(new byte[0][]);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}

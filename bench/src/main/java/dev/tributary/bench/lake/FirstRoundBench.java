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
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What a PK table's first round costs one lake writer when its split is a whole KV snapshot (T54:
 * inserts only, each key once, no key handling) against the same rows as a log split of the PK
 * table (inserts through the format's key handling) and as a log table's append split. The same
 * pre-encoded rows (RowPathBench's shape: BIGINT id in key order, two strings, INT, ~90 bytes; one
 * append timestamp per 500 rows, as the store stamps a batch) go through one writer per run into a
 * one-bucket table; the scenarios alternate, and each run's cost is the writing thread's CPU time
 * (write loop + {@code complete()}), median of the runs. For Iceberg, a fourth scenario writes the
 * log table with Parquet's default dictionary on the {@code __offset} and {@code __timestamp}
 * columns (a native table property restores it), to show what turning it off changed.
 *
 * <pre>
 * java -cp ... dev.tributary.bench.lake.FirstRoundBench [--rows 1000000] [--runs 5] [--formats iceberg]
 * </pre>
 */
public final class FirstRoundBench {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long BASE_TS = 1_764_000_000_000L;
    private static final int ROWS_PER_TIMESTAMP = 500;
    private static final String DICTIONARY_ON = "table.write.parquet.dict-encoding-enabled.column.";

    private enum Scenario {
        PK_SNAPSHOT("pk, KV snapshot split"),
        PK_LOG("pk, log split of inserts"),
        LOG("log table"),
        LOG_DICTIONARY("log table, dictionary on __offset/__timestamp");

        final String label;

        Scenario(String label) {
            this.label = label;
        }
    }

    private FirstRoundBench() {}

    public static void main(String[] args) throws Exception {
        int rows = 1_000_000;
        int runs = 5;
        List<String> formats = List.of("iceberg");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--formats" -> formats = List.of(args[++i].split(","));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory("first-round-bench");
        Schema log = RowPathBenchShape.LOG;
        byte[][] encoded = RowPathBenchShape.encode(RowCodec.of(log), rows, 42);
        System.out.printf(
                "FirstRoundBench: %,d rows per run, %d runs per scenario, dir %s, load average %s%n",
                rows, runs, dir, loadAverage());
        for (String format : formats) {
            List<Scenario> scenarios = new ArrayList<>(List.of(Scenario.values()));
            if (!format.equals("iceberg")) {
                scenarios.remove(Scenario.LOG_DICTIONARY);
            }
            Map<String, String> conf = new LinkedHashMap<>();
            conf.put("warehouse", dir.resolve(format).toString());
            Map<String, String> dictionaryConf = new LinkedHashMap<>(conf);
            dictionaryConf.put("warehouse", dir.resolve(format + "-dictionary").toString());
            dictionaryConf.put(DICTIONARY_ON + "__offset", "true");
            dictionaryConf.put(DICTIONARY_ON + "__timestamp", "true");
            try (LakeStorage lake =
                            LakeStoragePlugins.find(format)
                                    .createLakeStorage(Configuration.fromMap(conf));
                    LakeStorage dictionaryLake =
                            LakeStoragePlugins.find(format)
                                    .createLakeStorage(Configuration.fromMap(dictionaryConf))) {
                Map<Scenario, double[]> cpu = new LinkedHashMap<>();
                Map<Scenario, Long> bytes = new LinkedHashMap<>();
                for (Scenario s : scenarios) {
                    cpu.put(s, new double[runs]);
                    // warm every path before measuring
                    run(s == Scenario.LOG_DICTIONARY ? dictionaryLake : lake, s, encoded, "warm");
                }
                for (int r = 0; r < runs; r++) {
                    for (Scenario s : scenarios) {
                        LakeStorage target = s == Scenario.LOG_DICTIONARY ? dictionaryLake : lake;
                        Result res = run(target, s, encoded, "r" + r);
                        cpu.get(s)[r] = res.cpuSeconds;
                        bytes.put(s, res.bytes);
                    }
                }
                double logMedian = median(cpu.get(Scenario.LOG));
                for (Scenario s : scenarios) {
                    double m = median(cpu.get(s));
                    System.out.printf(
                            "%s %-48s %.3f CPU-s per million rows (runs %s), %.0f%% of the log"
                                    + " table, %,d bytes written%n",
                            format,
                            s.label,
                            m / (rows / 1e6),
                            Arrays.toString(cpu.get(s)),
                            100 * m / logMedian,
                            bytes.get(s));
                }
            }
        }
        System.out.printf("load average at the end: %s%n", loadAverage());
    }

    private record Result(double cpuSeconds, long bytes) {}

    /** One writer over all rows; returns the writing thread's CPU seconds and the bytes written. */
    private static Result run(LakeStorage lake, Scenario s, byte[][] encoded, String suffix) {
        boolean pk = s == Scenario.PK_SNAPSHOT || s == Scenario.PK_LOG;
        Schema schema = pk ? RowPathBenchShape.PK : RowPathBenchShape.LOG;
        TablePath path = TablePath.of("bench", s.name().toLowerCase() + "_" + suffix);
        TableDescriptor d = TableDescriptor.builder(schema).bucketCount(1).build();
        lake.catalog().createTable(path, d);
        EncodedRow view = RowCodec.of(schema).view();
        ChangeType type = pk ? ChangeType.INSERT : ChangeType.APPEND_ONLY;
        LakeWriterContext context =
                new LakeWriterContext(
                        path,
                        1,
                        d,
                        0,
                        1,
                        1,
                        TableBucket.NO_PARTITION,
                        null,
                        s == Scenario.PK_SNAPSHOT
                                ? LakeWriterContext.SplitSource.KV_SNAPSHOT
                                : LakeWriterContext.SplitSource.LOG);
        long cpu = THREADS.getCurrentThreadCpuTime();
        LakeWriteResult result;
        try (LakeWriter w = lake.createWriter(context)) {
            for (int i = 0; i < encoded.length; i++) {
                byte[] e = encoded[i];
                w.write(view.pointTo(e, 0, e.length), type, 0, i, BASE_TS + i / ROWS_PER_TIMESTAMP);
            }
            result = w.complete();
        }
        double secs = (THREADS.getCurrentThreadCpuTime() - cpu) / 1e9;
        return new Result(Math.round(secs * 1000) / 1000.0, result.fileBytes());
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return String.format(
                    "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** RowPathBench's row shape and seeded values, ids ascending (the store's key order). */
    private static final class RowPathBenchShape {
        static final Schema LOG =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("name", DataTypes.STRING())
                        .column("url", DataTypes.STRING())
                        .column("score", DataTypes.INT())
                        .build();
        static final Schema PK =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("name", DataTypes.STRING())
                        .column("url", DataTypes.STRING())
                        .column("score", DataTypes.INT())
                        .primaryKey("id")
                        .build();

        static byte[][] encode(RowCodec codec, int rows, long seed) {
            Random r = new Random(seed);
            byte[][] out = new byte[rows][];
            for (int id = 0; id < rows; id++) {
                out[id] =
                        codec.encode(
                                Row.of(
                                        (long) id,
                                        "user-" + Long.toHexString(r.nextLong()),
                                        "https://shop.example.com/p/"
                                                + Long.toHexString(r.nextLong())
                                                + "?ref=bench",
                                        r.nextInt(100_000)));
            }
            return out;
        }
    }
}

package dev.tributary.bench.lake;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * Raw lake write throughput per format on ONE thread: the "physical limit" the tiering job is
 * measured against. Rows of ~100 bytes of raw input go through the plugin's {@link LakeWriter} (one
 * writer, as one tiering split) and are committed with its {@link LakeCommitter}; the timing covers
 * write + complete + commit. Prints rows/s, MB/s of raw input, files and bytes written and the
 * Parquet codec found in the written files.
 *
 * <p>Usage: {@code LakeWriteBench [--formats paimon,iceberg] [--log-rows 5000000] [--pk-rows
 * 1000000] [--small] [--dir DIR] [--seed 42]}. {@code --small} runs 500k log and 100k PK rows.
 */
public final class LakeWriteBench {
    private static final Clock CLOCK = Clock.system();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean)
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    private static final long BASE_TS = 1_764_000_000_000L;
    private static final String[] CATEGORIES = {
        "books", "garden", "toys", "music", "sports", "kitchen", "office", "health"
    };

    private final Random random;
    private final String[] payloads = new String[65536];

    private LakeWriteBench(long seed) {
        this.random = new Random(seed);
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
        for (int i = 0; i < payloads.length; i++) {
            StringBuilder sb = new StringBuilder(64);
            for (int c = 0; c < 64; c++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            payloads[i] = sb.toString();
        }
    }

    public static void main(String[] args) throws Exception {
        long logRows = 5_000_000;
        long pkRows = 1_000_000;
        List<String> formats = List.of("paimon", "iceberg");
        Path dir = null;
        long seed = 42;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--log-rows" -> logRows = Long.parseLong(args[++i]);
                case "--pk-rows" -> pkRows = Long.parseLong(args[++i]);
                case "--formats" -> formats = List.of(args[++i].split(","));
                case "--dir" -> dir = Path.of(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--small" -> {
                    logRows = 500_000;
                    pkRows = 100_000;
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("lake-write-bench");
        }
        System.out.printf(
                "LakeWriteBench: log rows=%d, pk records=%d, seed=%d, dir=%s, java=%s, cpus=%d%n",
                logRows,
                pkRows,
                seed,
                dir,
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
        LakeWriteBench bench = new LakeWriteBench(seed);
        for (String format : formats) {
            Path warehouse = dir.resolve(format);
            Configuration conf = Configuration.fromMap(Map.of("warehouse", warehouse.toString()));
            try (LakeStorage storage = LakeStoragePlugins.find(format).createLakeStorage(conf)) {
                bench.runLog(storage, TablePath.of("bench", "warmup"), 200_000, false);
                if (logRows > 0) {
                    bench.runLog(storage, TablePath.of("bench", "log_events"), logRows, true);
                }
                if (pkRows > 0) {
                    bench.runPk(storage, TablePath.of("bench", "pk_users"), pkRows);
                }
            }
        }
    }

    private static Schema schema(boolean pk) {
        Schema.Builder b =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("user_id", DataTypes.INT())
                        .column("amount", DataTypes.DOUBLE())
                        .column("category", DataTypes.STRING())
                        .column("event_time", DataTypes.TIMESTAMP_LTZ(3))
                        .column("payload", DataTypes.STRING());
        if (pk) {
            b.primaryKey("id");
        }
        return b.build();
    }

    /** The row of {@code id} at {@code version}; deterministic so a -U can repeat the old row. */
    private Row row(long id, int version) {
        int h = (int) (id * 0x9E3779B1L) ^ version;
        return Row.of(
                id,
                h & 0xFFFFF,
                (h & 0xFFFF) / 100.0,
                CATEGORIES[(h >>> 8) & 7],
                Instant.ofEpochMilli(BASE_TS + id),
                payloads[(h ^ (h >>> 12)) & (payloads.length - 1)]);
    }

    /** Raw input size: fixed-width fields at their width, strings at their UTF-8 (ASCII) length. */
    private static long rawBytes(Row r) {
        return 8 + 4 + 8 + 8 + r.getString(3).length() + r.getString(5).length();
    }

    private void runLog(LakeStorage storage, TablePath path, long rows, boolean report)
            throws IOException {
        TableDescriptor table = TableDescriptor.builder(schema(false)).bucketCount(1).build();
        storage.catalog().createTable(path, table);
        long raw = 0;
        long cpuStart = OS.getProcessCpuTime();
        long start = CLOCK.nanoTime();
        long written;
        LakeWriteResult result;
        try (LakeWriter w = storage.createWriter(new LakeWriterContext(path, 1, table, 0, 1, 1))) {
            for (long i = 0; i < rows; i++) {
                Row r = row(i, 0);
                raw += rawBytes(r);
                w.write(r, ChangeType.APPEND_ONLY, 0, i, BASE_TS + i);
            }
            written = CLOCK.nanoTime();
            result = w.complete();
        }
        long completed = CLOCK.nanoTime();
        LakeCommitResult commit = commit(storage, path, result, rows);
        long end = CLOCK.nanoTime();
        long cpu = OS.getProcessCpuTime() - cpuStart;
        if (report) {
            report(
                    storage, path, "log", rows, raw, start, written, completed, end, cpu, result,
                    commit);
        }
    }

    /** 80% inserts of new keys, then -U/+U pairs updating distinct earlier keys. */
    private void runPk(LakeStorage storage, TablePath path, long records) throws IOException {
        TableDescriptor table = TableDescriptor.builder(schema(true)).bucketCount(1).build();
        storage.catalog().createTable(path, table);
        long inserts = records * 8 / 10;
        long updates = (records - inserts) / 2;
        long raw = 0;
        long offset = 0;
        long cpuStart = OS.getProcessCpuTime();
        long start = CLOCK.nanoTime();
        long written;
        LakeWriteResult result;
        try (LakeWriter w = storage.createWriter(new LakeWriterContext(path, 1, table, 0, 1, 1))) {
            for (long i = 0; i < inserts; i++, offset++) {
                Row r = row(i, 0);
                raw += rawBytes(r);
                w.write(r, ChangeType.INSERT, 0, offset, BASE_TS + offset);
            }
            for (long j = 0; j < updates; j++) {
                long key = (j * 7919) % inserts;
                Row before = row(key, 0);
                Row after = row(key, 1);
                raw += rawBytes(before) + rawBytes(after);
                w.write(before, ChangeType.UPDATE_BEFORE, 0, offset, BASE_TS + offset);
                offset++;
                w.write(after, ChangeType.UPDATE_AFTER, 0, offset, BASE_TS + offset);
                offset++;
            }
            written = CLOCK.nanoTime();
            result = w.complete();
        }
        long completed = CLOCK.nanoTime();
        LakeCommitResult commit = commit(storage, path, result, offset);
        long end = CLOCK.nanoTime();
        long cpu = OS.getProcessCpuTime() - cpuStart;
        report(
                storage, path, "pk", offset, raw, start, written, completed, end, cpu, result,
                commit);
    }

    private static LakeCommitResult commit(
            LakeStorage storage, TablePath path, LakeWriteResult result, long endOffset) {
        try (LakeCommitter c = storage.createCommitter(path)) {
            return c.commit(
                    List.of(result), TieringSnapshotProperties.of(1, 1, 1, Map.of(0, endOffset)));
        }
    }

    private static void report(
            LakeStorage storage,
            TablePath path,
            String scenario,
            long records,
            long rawBytes,
            long start,
            long written,
            long completed,
            long end,
            long cpuNanos,
            LakeWriteResult result,
            LakeCommitResult commit)
            throws IOException {
        double seconds = (end - start) / 1e9;
        String location = storage.catalog().describeTable(path).location();
        System.out.printf(
                Locale.ROOT,
                "%-8s %-3s records=%,d time=%.2fs (write %.2f, complete %.2f, commit %.2f)"
                        + " records/s=%,.0f raw=%.1fMB rawMB/s=%.1f"
                        + " processCpu=%.2fs records/cpu-s=%,.0f rawMB/cpu-s=%.1f"
                        + " files=%d fileBytes=%,d (%.1f%% of raw) tableDirBytes=%,d codec=%s"
                        + " outcome=%s%n",
                storage.identifier(),
                scenario,
                records,
                seconds,
                (written - start) / 1e9,
                (completed - written) / 1e9,
                (end - completed) / 1e9,
                records / seconds,
                rawBytes / 1e6,
                rawBytes / 1e6 / seconds,
                cpuNanos / 1e9,
                records / (cpuNanos / 1e9),
                rawBytes / 1e6 / (cpuNanos / 1e9),
                result.files().size(),
                result.fileBytes(),
                100.0 * result.fileBytes() / rawBytes,
                directoryBytes(location),
                codec(result.files().get(0)),
                commit.outcome());
    }

    private static long directoryBytes(String location) throws IOException {
        Path dir =
                Path.of(
                        java.net.URI.create(
                                location.startsWith("/") ? "file:" + location : location));
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .mapToLong(
                            p -> {
                                try {
                                    return Files.size(p);
                                } catch (IOException e) {
                                    return 0;
                                }
                            })
                    .sum();
        }
    }

    /** The compression codec of the first column chunk, read from the Parquet footer. */
    private static String codec(String file) {
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        HadoopInputFile.fromPath(
                                new org.apache.hadoop.fs.Path(file),
                                new org.apache.hadoop.conf.Configuration()))) {
            return reader.getFooter().getBlocks().get(0).getColumns().get(0).getCodec().name();
        } catch (Exception e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}

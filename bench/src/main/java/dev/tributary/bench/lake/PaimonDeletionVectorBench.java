package dev.tributary.bench.lake;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.read.LakeReadRequest;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.read.LakeRowCursor;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.lake.api.write.LakeWriterContext.SplitSource;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What Paimon's deletion vectors cost Tributary's PK rounds (T48): the same rounds into a table
 * with deletion vectors ({@code table.datalake.pk-deletes=position}, the default: each round waits
 * for Paimon's lookup compaction of its level-0 files, which writes the deletion vectors) and into
 * a merge-on-read table ({@code equality}: write-only rounds, readers merge by key). Per mode: a
 * first round of {@code --keys} keys (KV snapshot splits), then {@code --rounds} log rounds each
 * updating {@code --update-fraction} of the keys (an update-before and update-after per key, keys
 * drawn at random), every round's splits written one after another by one thread and committed.
 * Reported: the log rounds' rows/s (updated keys per second of write + complete + commit, wall
 * time), the data on disk, and a full scan of the table after the rounds with Tributary's lake
 * reader (Paimon's own split reader, bucket by bucket).
 *
 * <pre>
 * java -cp ... dev.tributary.bench.lake.PaimonDeletionVectorBench [--keys 1000000] [--rounds 5]
 *     [--update-fraction 0.1] [--buckets 4] [--seed 42] [--modes position,equality]
 * </pre>
 */
public final class PaimonDeletionVectorBench {
    private static final Clock CLOCK = Clock.system();
    private static final long BASE_TS = 1_764_000_000_000L;

    private PaimonDeletionVectorBench() {}

    public static void main(String[] args) throws Exception {
        int keys = 1_000_000;
        int rounds = 5;
        double fraction = 0.1;
        int buckets = 4;
        long seed = 42;
        List<String> modes = List.of("position", "equality");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--update-fraction" -> fraction = Double.parseDouble(args[++i]);
                case "--buckets" -> buckets = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--modes" -> modes = List.of(args[++i].split(","));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory("paimon-dv-bench");
        System.out.printf(
                Locale.ROOT,
                "PaimonDeletionVectorBench: %,d keys, %d buckets, %d rounds of %.0f%% updates,"
                        + " seed %d, load average %.2f%n",
                keys,
                buckets,
                rounds,
                fraction * 100,
                seed,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        try (LakeStorage storage =
                LakeStoragePlugins.find("paimon")
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", dir.toString())))) {
            for (String mode : modes) {
                run(storage, dir, mode, keys, rounds, fraction, buckets, seed);
            }
        }
        System.out.printf(
                Locale.ROOT,
                "load average after: %.2f%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static void run(
            LakeStorage storage,
            Path dir,
            String mode,
            int keys,
            int rounds,
            double fraction,
            int buckets,
            long seed)
            throws Exception {
        TableDescriptor t =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT().notNull())
                                        .column("name", DataTypes.STRING())
                                        .column("city", DataTypes.STRING())
                                        .column("score", DataTypes.INT())
                                        .primaryKey("id")
                                        .build())
                        .bucketCount(buckets)
                        .bucketKeys("id")
                        .property(
                                TableOptions.BUCKET_FUNCTION.key(),
                                BucketFunctionType.PAIMON.value())
                        .property(TableOptions.DATALAKE_PK_DELETES.key(), mode)
                        .build();
        TablePath path = TablePath.of("bench", "dv_" + mode);
        storage.catalog().createTable(path, t);
        BucketFunction f = BucketFunction.of(t);
        Random random = new Random(seed);
        Row[] rows = new Row[keys];
        int[] bucketOf = new int[keys];
        for (int id = 0; id < keys; id++) {
            rows[id] = row(id, 0, random);
            bucketOf[id] = f.bucketOf(rows[id]);
        }
        long[] offsets = new long[buckets];
        long round = 1;

        long t0 = CLOCK.nanoTime();
        List<List<Integer>> first = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            first.add(new ArrayList<>());
        }
        for (int id = 0; id < keys; id++) {
            first.get(bucketOf[id]).add(id);
        }
        List<LakeWriteResult> results = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            try (LakeWriter w = storage.createWriter(context(path, t, b, round, true))) {
                for (int id : first.get(b)) {
                    w.write(rows[id], ChangeType.INSERT, b, offsets[b], BASE_TS + offsets[b]);
                    offsets[b]++;
                }
                results.add(w.complete());
            }
        }
        commit(storage, path, round, results, offsets);
        double firstSeconds = (CLOCK.nanoTime() - t0) / 1e9;
        System.out.printf(
                Locale.ROOT,
                "%-8s first round: %,d keys in %.1f s (%,.0f rows/s)%n",
                mode,
                keys,
                firstSeconds,
                keys / firstSeconds);

        int updates = (int) (keys * fraction);
        double totalSeconds = 0;
        StringBuilder perRound = new StringBuilder();
        for (int r = 0; r < rounds; r++) {
            round++;
            List<List<Integer>> touched = new ArrayList<>();
            for (int b = 0; b < buckets; b++) {
                touched.add(new ArrayList<>());
            }
            java.util.BitSet seen = new java.util.BitSet(keys);
            while (seen.cardinality() < updates) {
                int id = random.nextInt(keys);
                if (!seen.get(id)) {
                    seen.set(id);
                    touched.get(bucketOf[id]).add(id);
                }
            }
            long start = CLOCK.nanoTime();
            results = new ArrayList<>();
            for (int b = 0; b < buckets; b++) {
                try (LakeWriter w = storage.createWriter(context(path, t, b, round, false))) {
                    for (int id : touched.get(b)) {
                        Row next = row(id, (int) round, random);
                        w.write(rows[id], ChangeType.UPDATE_BEFORE, b, offsets[b], BASE_TS);
                        offsets[b]++;
                        w.write(next, ChangeType.UPDATE_AFTER, b, offsets[b], BASE_TS);
                        offsets[b]++;
                        rows[id] = next;
                    }
                    results.add(w.complete());
                }
            }
            commit(storage, path, round, results, offsets);
            double s = (CLOCK.nanoTime() - start) / 1e9;
            totalSeconds += s;
            perRound.append(String.format(Locale.ROOT, " %.1f", s));
        }
        System.out.printf(
                Locale.ROOT,
                "%-8s log rounds: %,d updated keys each, %.1f s total (per round:%s s),"
                        + " %,.0f rows/s%n",
                mode,
                updates,
                totalSeconds,
                perRound,
                (double) updates * rounds / totalSeconds);

        long scanStart = CLOCK.nanoTime();
        long scanned = 0;
        long snapshot;
        try (LakeCommitter c = storage.createCommitter(path)) {
            snapshot = c.latestTieringSnapshot().orElseThrow().snapshotId();
        }
        try (LakeReader reader = storage.createReader(path)) {
            for (int b = 0; b < buckets; b++) {
                try (LakeRowCursor cursor = reader.read(LakeReadRequest.all(snapshot, t, b))) {
                    while (cursor.next()) {
                        scanned++;
                    }
                }
            }
        }
        double scanSeconds = (CLOCK.nanoTime() - scanStart) / 1e9;
        if (scanned != keys) {
            throw new IllegalStateException("scan read " + scanned + " rows, expected " + keys);
        }
        System.out.printf(
                Locale.ROOT,
                "%-8s full scan after the rounds: %,d rows in %.2f s (%,.0f rows/s); data files"
                        + " %.1f MB, index files %.2f MB%n",
                mode,
                scanned,
                scanSeconds,
                scanned / scanSeconds,
                bytesUnder(dir.resolve("bench.db").resolve("dv_" + mode), "bucket-") / 1e6,
                bytesUnder(dir.resolve("bench.db").resolve("dv_" + mode), "index") / 1e6);
    }

    private static long bytesUnder(Path table, String dirPrefix) throws Exception {
        try (Stream<Path> s = Files.walk(table)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> p.getParent().getFileName().toString().startsWith(dirPrefix))
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        }
    }

    private static Row row(long id, int version, Random random) {
        return Row.of(
                id,
                "name-" + id + "-" + version,
                "city-" + random.nextInt(1000),
                random.nextInt(1_000_000));
    }

    private static LakeWriterContext context(
            TablePath path, TableDescriptor t, int bucket, long round, boolean snapshot) {
        return new LakeWriterContext(
                path,
                1,
                t,
                bucket,
                round,
                round,
                TableBucket.NO_PARTITION,
                null,
                snapshot ? SplitSource.KV_SNAPSHOT : SplitSource.LOG);
    }

    private static void commit(
            LakeStorage storage,
            TablePath path,
            long round,
            List<LakeWriteResult> results,
            long[] offsets) {
        SortedMap<PartitionBucket, Long> keyed = new TreeMap<>();
        for (int b = 0; b < offsets.length; b++) {
            keyed.put(new PartitionBucket(TableBucket.NO_PARTITION, b), offsets[b]);
        }
        try (LakeCommitter c = storage.createCommitter(path)) {
            c.commit(results, TieringSnapshotProperties.of(1, round, round, keyed, Map.of(), -1));
        }
    }
}

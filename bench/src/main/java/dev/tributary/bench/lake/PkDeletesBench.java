package dev.tributary.bench.lake;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.config.TableOptions.PkDeleteMode;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.TableInfo;
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
import dev.tributary.server.lake.LakeRowLocations;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.storage.lakeindex.LakeRowIndex;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * What retracting by position costs against retracting by key (T48), through the lake API and the
 * server's lake row index alone (no gRPC, no Flink): per format, PK tables of {@code --keys} keys
 * in {@code --buckets} aligned buckets, one per variant: {@code table.datalake.pk-deletes=equality}
 * (Iceberg equality deletes, Paimon merge-on-read); {@code position} with writers that read the
 * bucket's live rows from the lake (Iceberg v3 deletion vectors found without an index; Paimon's
 * deletion vectors, which it keeps with its own lookup); and, for Iceberg, {@code position} with
 * writers that ask the store's lake row index ({@link LakeRowLocations} over a {@link
 * LakeRowIndex}, as the server answers {@code LocateLakeRows}). A first round writes every key from
 * a KV snapshot split per bucket; then {@code --rounds} incremental rounds each upsert {@code
 * --update-fraction} of the keys (seeded random keys, so some twice) as the store's changelog has
 * them, {@code -U} old row then {@code +U} new row, one writer per bucket one after the other, and
 * one commit. The tables' rounds alternate, so all see the same machine. No compaction runs in
 * between: after the rounds each table holds what the rounds wrote, and a full scan of it through
 * Tributary's lake reader (the format's own reader underneath) is timed and checked.
 *
 * <p>Each round has its own epoch, as each round of a table gets one from the coordinator (T19).
 *
 * <p>Reported per variant: the median round's changelog records per second (wall, writers plus
 * commit, the index's catch-up included) and process CPU seconds per million records, as a
 * percentage of the equality table's (the goal is >= 80%); the index's size; the full
 * scan's rows per second against the equality table's.
 *
 * <pre>
 * java -cp ... dev.tributary.bench.lake.PkDeletesBench [--formats iceberg,paimon] [--keys 1000000]
 *     [--buckets 4] [--rounds 20] [--update-fraction 0.1] [--seed 42]
 * </pre>
 */
public final class PkDeletesBench {
    private static final Clock CLOCK = Clock.system();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("name", DataTypes.STRING())
                    .column("url", DataTypes.STRING())
                    .column("score", DataTypes.INT())
                    .primaryKey("id")
                    .build();

    private PkDeletesBench() {}

    public static void main(String[] args) throws Exception {
        List<String> formats = List.of("iceberg", "paimon");
        int keys = 1_000_000;
        int buckets = 4;
        int rounds = 20;
        double fraction = 0.1;
        long seed = 42;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--formats" -> formats = List.of(args[++i].split(","));
                case "--keys" -> keys = Integer.parseInt(args[++i]);
                case "--buckets" -> buckets = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--update-fraction" -> fraction = Double.parseDouble(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory("pk-deletes-bench");
        System.out.printf(
                Locale.ROOT,
                "PkDeletesBench: %,d keys, %d buckets, %d rounds of %.0f%% upserts, seed %d, dir %s,"
                        + " load average %.2f%n",
                keys,
                buckets,
                rounds,
                100 * fraction,
                seed,
                dir,
                OS.getSystemLoadAverage());
        for (String format : formats) {
            Configuration conf =
                    new Configuration()
                            .setString("datalake.format", format)
                            .setString(
                                    "datalake." + format + ".warehouse",
                                    dir.resolve(format).toUri().toString());
            // Paimon keeps its deletion vectors itself: no store index to compare
            List<Variant> variants =
                    format.equals("iceberg")
                            ? List.of(Variant.values())
                            : List.of(Variant.EQUALITY, Variant.POSITION_LAKE_READ);
            // one index per table, so each one's size is its own (the server keeps one for all)
            Map<String, LakeRowIndex> indexes = new TreeMap<>();
            try (LakeStorage lake = LakeStoragePlugins.open(conf)) {
                TableCatalog catalog = new TableCatalog();
                java.util.function.Function<String, LakeRowLocations> locations =
                        name -> {
                            LakeRowIndex index =
                                    indexes.computeIfAbsent(
                                            name,
                                            n -> LakeRowIndex.open(dir.resolve(n + "-row-index")));
                            return new LakeRowLocations(
                                    () -> index,
                                    lake::createRowScanner,
                                    catalog,
                                    t -> List.of(),
                                    CLOCK);
                        };
                // an unreported pass first, so no variant pays the JIT's warm-up
                long tableId = 1;
                for (Variant v : variants) {
                    int warmKeys = Math.min(keys, 50_000);
                    Table warm =
                            new Table(lake, format, v, warmKeys, buckets, tableId++, null, catalog);
                    warm.locations = v.storeIndex ? locations.apply(format + "-warm-up") : null;
                    warm.firstRound();
                    warm.updateRound(1, warmKeys / 10, seed);
                    warm.fullScan();
                }
                List<Table> tables = new ArrayList<>();
                for (Variant v : variants) {
                    Table t = new Table(lake, format, v, keys, buckets, tableId++, "", catalog);
                    t.locations = v.storeIndex ? locations.apply(format + "-" + v) : null;
                    t.firstRound();
                    tables.add(t);
                }
                int updates = (int) (keys * fraction);
                for (int r = 1; r <= rounds; r++) {
                    for (Table t : tables) {
                        // the same keys in every table's round r
                        t.updateRound(r, updates, seed + r);
                    }
                }
                double[] e = tables.get(0).median();
                for (Table t : tables) {
                    double[] m = t.median();
                    System.out.printf(
                            Locale.ROOT,
                            "%s incremental rounds, %s (median of %d): %,.0f records/s, %.2f CPU-s"
                                    + " per million = %.0f%% of equality's records/s (goal >= 80%%),"
                                    + " %.0f%% of its CPU%n",
                            format,
                            t.variant.label,
                            rounds,
                            m[0],
                            m[1],
                            100 * m[0] / e[0],
                            100 * m[1] / e[1]);
                }
                for (Variant v : variants) {
                    LakeRowIndex index = indexes.get(format + "-" + v);
                    if (index != null) {
                        System.out.printf(
                                Locale.ROOT,
                                "%s store lake row index, %s: %,d bytes for %,d keys = %.1f MB per"
                                        + " million keys (RocksDB SST + memtables)%n",
                                format,
                                v.label,
                                index.approximateBytes(),
                                keys,
                                index.approximateBytes() / 1e6 / (keys / 1e6));
                    }
                }
                double es = tables.get(0).fullScan();
                for (Table t : tables.subList(1, tables.size())) {
                    double ps = t.fullScan();
                    System.out.printf(
                            Locale.ROOT,
                            "%s full scan after %d rounds, no compaction: %s %,.0f rows/s,"
                                    + " equality %,.0f rows/s (= %.0f%%)%n",
                            format,
                            rounds,
                            t.variant.label,
                            ps,
                            es,
                            100 * ps / es);
                }
            } finally {
                indexes.values().forEach(LakeRowIndex::close);
            }
        }
        System.out.printf(Locale.ROOT, "load average at the end %.2f%n", OS.getSystemLoadAverage());
    }

    /** How a table retracts rows, and for Iceberg's position mode how writers find them. */
    private enum Variant {
        EQUALITY("equality", PkDeleteMode.EQUALITY, false),
        POSITION_LAKE_READ("position, writers read the lake", PkDeleteMode.POSITION, false),
        POSITION_INDEX("position, store index", PkDeleteMode.POSITION, true);

        final String label;
        final PkDeleteMode mode;
        final boolean storeIndex;

        Variant(String label, PkDeleteMode mode, boolean storeIndex) {
            this.label = label;
            this.mode = mode;
            this.storeIndex = storeIndex;
        }
    }

    /** One PK lake table, the version of each key's live row, and its rounds' measurements. */
    private static final class Table {
        private final LakeStorage lake;
        private final String label;
        private final TablePath path;
        private final TableDescriptor descriptor;
        private final int[] bucketOfKey;
        private final int[] version;
        private final long[] offsets;
        private final RowCodec codec = RowCodec.of(SCHEMA);
        private final EncodedRow view = codec.view();
        private final List<double[]> rounds = new ArrayList<>();
        private final boolean report;
        private final Variant variant;
        private final long tableId;

        /** The store's lake row index, for {@link Variant#POSITION_INDEX}. */
        private LakeRowLocations locations;

        /**
         * @param suffix of the table name; null for an unreported warm-up table
         */
        Table(
                LakeStorage lake,
                String format,
                Variant variant,
                int keys,
                int buckets,
                long tableId,
                String suffix,
                TableCatalog catalog) {
            this.lake = lake;
            this.variant = variant;
            this.tableId = tableId;
            this.report = suffix != null;
            String name = variant.name().toLowerCase(Locale.ROOT) + (report ? suffix : "_warmup");
            this.label = format + " " + variant.label;
            this.path = TablePath.of("bench", "customers_" + name);
            this.descriptor =
                    TableDescriptor.builder(SCHEMA)
                            .bucketCount(buckets)
                            .property(
                                    TableOptions.BUCKET_FUNCTION.key(),
                                    BucketFunctionType.forLakeFormat(format).value())
                            .property(
                                    TableOptions.DATALAKE_PK_DELETES.key(),
                                    variant.mode.name().toLowerCase(Locale.ROOT))
                            .property(TableOptions.DATALAKE_ENABLED.key(), "true")
                            .build();
            lake.catalog().createTable(path, descriptor);
            catalog.put(TableInfo.create(tableId, path, descriptor, 0));
            BucketFunction function = BucketFunction.of(descriptor);
            this.bucketOfKey = new int[keys];
            for (int k = 0; k < keys; k++) {
                bucketOfKey[k] = function.bucketOf(row(k, 0));
            }
            this.version = new int[keys];
            this.offsets = new long[buckets];
        }

        /** Every key once, a KV snapshot split per bucket (T54), one commit. */
        void firstRound() {
            long start = CLOCK.nanoTime();
            List<LakeWriteResult> results = new ArrayList<>();
            for (int b = 0; b < offsets.length; b++) {
                try (LakeWriter w = writer(b, 0, SplitSource.KV_SNAPSHOT)) {
                    for (int k = 0; k < bucketOfKey.length; k++) {
                        if (bucketOfKey[k] == b) {
                            write(w, row(k, 0), ChangeType.INSERT, b);
                        }
                    }
                    results.add(w.complete());
                }
            }
            commit(results, 0);
            log(
                    "%s first round: %,d keys in %.1f s%n",
                    label, bucketOfKey.length, (CLOCK.nanoTime() - start) / 1e9);
        }

        /** {@code updates} upserts of random keys: -U old row, +U new row; one commit. */
        void updateRound(int round, int updates, long seed) {
            Random random = new Random(seed);
            List<List<Integer>> perBucket = new ArrayList<>();
            for (int b = 0; b < offsets.length; b++) {
                perBucket.add(new ArrayList<>());
            }
            for (int i = 0; i < updates; i++) {
                int k = random.nextInt(bucketOfKey.length);
                perBucket.get(bucketOfKey[k]).add(k);
            }
            long cpu = OS.getProcessCpuTime();
            long start = CLOCK.nanoTime();
            long records = 0;
            List<LakeWriteResult> results = new ArrayList<>();
            for (int b = 0; b < offsets.length; b++) {
                try (LakeWriter w = writer(b, round, SplitSource.LOG)) {
                    for (int k : perBucket.get(b)) {
                        write(w, row(k, version[k]), ChangeType.UPDATE_BEFORE, b);
                        version[k]++;
                        write(w, row(k, version[k]), ChangeType.UPDATE_AFTER, b);
                        records += 2;
                    }
                    results.add(w.complete());
                }
            }
            commit(results, round);
            double secs = (CLOCK.nanoTime() - start) / 1e9;
            double cpuSecs = (OS.getProcessCpuTime() - cpu) / 1e9;
            rounds.add(new double[] {records / secs, cpuSecs / (records / 1e6)});
            log(
                    "%s round %d: %,d records in %.2f s = %,.0f records/s, %.2f CPU-s per million%n",
                    label, round, records, secs, records / secs, cpuSecs / (records / 1e6));
        }

        /** Median records/s and median CPU-s per million records of the update rounds. */
        double[] median() {
            return new double[] {median(0), median(1)};
        }

        private double median(int field) {
            double[] v = rounds.stream().mapToDouble(r -> r[field]).sorted().toArray();
            int n = v.length;
            return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        }

        /** Reads every live row of every bucket; checks each key once; returns rows per second. */
        double fullScan() {
            long start = CLOCK.nanoTime();
            long rows = 0;
            try (LakeReader reader = lake.createReader(path)) {
                long snapshot = reader.latestTieringSnapshot(tableId).orElseThrow().snapshotId();
                for (int b = 0; b < offsets.length; b++) {
                    try (LakeRowCursor c =
                            reader.read(LakeReadRequest.all(snapshot, descriptor, b))) {
                        while (c.next()) {
                            Row row = c.row();
                            int k = (int) (long) (Long) row.getField(0);
                            if (!row.equals(row(k, version[k]))) {
                                throw new IllegalStateException(
                                        label + ": key " + k + " reads " + row);
                            }
                            rows++;
                        }
                    }
                }
            }
            if (rows != bucketOfKey.length) {
                throw new IllegalStateException(
                        label + ": full scan read " + rows + " rows of " + bucketOfKey.length);
            }
            double secs = (CLOCK.nanoTime() - start) / 1e9;
            log("%s full scan: %,d rows in %.2f s%n", label, rows, secs);
            return rows / secs;
        }

        private void log(String format, Object... args) {
            if (report) {
                System.out.printf(Locale.ROOT, format, args);
            }
        }

        private LakeWriter writer(int bucket, long round, SplitSource source) {
            return lake.createWriter(
                    new LakeWriterContext(
                            path,
                            tableId,
                            descriptor,
                            bucket,
                            round + 1,
                            round + 1,
                            TableBucket.NO_PARTITION,
                            null,
                            source,
                            locations == null || source == SplitSource.KV_SNAPSHOT
                                    ? null
                                    : (snapshot, keys) ->
                                            locations.locate(
                                                    new TableBucket(tableId, bucket),
                                                    snapshot,
                                                    keys)));
        }

        private void write(LakeWriter w, Row row, ChangeType type, int bucket) {
            byte[] e = codec.encode(row);
            w.write(view.pointTo(e, 0, e.length), type, bucket, offsets[bucket]++, 1_000L);
        }

        private void commit(List<LakeWriteResult> results, long round) {
            Map<Integer, Long> committed = new TreeMap<>();
            for (int b = 0; b < offsets.length; b++) {
                committed.put(b, offsets[b]);
            }
            try (LakeCommitter c = lake.createCommitter(path)) {
                c.commit(
                        results,
                        TieringSnapshotProperties.of(tableId, round + 1, round + 1, committed));
            }
        }
    }

    /** Key {@code k}'s row at {@code version}: the same values each time it is asked for. */
    private static Row row(int k, int version) {
        Random r = new Random(k * 31L + version);
        return Row.of(
                (long) k,
                "user-" + Long.toHexString(r.nextLong()),
                "https://shop.example.com/p/" + Long.toHexString(r.nextLong()) + "?ref=bench",
                r.nextInt(100_000));
    }
}

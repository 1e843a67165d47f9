package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.read.LakeReadRequest;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.read.LakeRowCursor;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.lake.api.write.LakeWriterContext.SplitSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * T54 for Paimon: a KV snapshot split (a PK table's first round) is written as one sorted run per
 * bucket, without Paimon's merge writer, and the table stays a valid Paimon table: Paimon's own
 * reader and Tributary's lake reader read it back exactly, and a later round's updates, deletes and
 * re-inserts of the same keys win over it.
 */
class PaimonKvSnapshotWriteTest {
    private static final long TABLE_ID = 7;
    private static final long BASE_TS = 1_764_000_000_000L;
    private static final LocalDate DAY = LocalDate.of(2026, 12, 1);

    @TempDir Path warehouse;
    private LakeStorage storage;
    private long seed;
    private Random random;

    @BeforeEach
    void open() {
        storage =
                LakeStoragePlugins.find("paimon")
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", warehouse.toString())));
        seed = System.nanoTime();
        random = new Random(seed);
    }

    @AfterEach
    void close() {
        storage.close();
    }

    /** A record of a split: the row, its change type and its offset in the bucket. */
    private record Rec(Row row, ChangeType type, long offset) {}

    private static TableDescriptor table(boolean partitioned, boolean paimonBuckets, int buckets) {
        Schema.Builder s =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("name", DataTypes.STRING())
                        .column("score", DataTypes.INT());
        if (partitioned) {
            s.column("dt", DataTypes.DATE().notNull()).primaryKey("id", "dt");
        } else {
            s.primaryKey("id");
        }
        TableDescriptor.Builder b =
                TableDescriptor.builder(s.build()).bucketCount(buckets).bucketKeys("id");
        if (partitioned) {
            b.partitionKeys("dt");
        }
        if (paimonBuckets) {
            b.property(TableOptions.BUCKET_FUNCTION.key(), BucketFunctionType.PAIMON.value());
        }
        return b.build();
    }

    private Row row(TableDescriptor t, long id, int version) {
        String name = random.nextInt(8) == 0 ? null : "n" + id + "v" + version;
        Integer score = random.nextInt(8) == 0 ? null : random.nextInt(1_000_000);
        return t.isPartitioned() ? Row.of(id, name, score, DAY) : Row.of(id, name, score);
    }

    private LakeWriterContext context(
            TablePath path, TableDescriptor t, int bucket, long round, SplitSource source) {
        return t.isPartitioned()
                ? new LakeWriterContext(
                        path,
                        TABLE_ID,
                        t,
                        bucket,
                        round,
                        round,
                        10,
                        PartitionSpec.of("dt", DAY.toString()),
                        source)
                : new LakeWriterContext(
                        path,
                        TABLE_ID,
                        t,
                        bucket,
                        round,
                        round,
                        TableBucket.NO_PARTITION,
                        null,
                        source);
    }

    private LakeWriteResult writeSplit(
            TablePath path,
            TableDescriptor t,
            int bucket,
            long round,
            SplitSource source,
            List<Rec> records) {
        try (LakeWriter w = storage.createWriter(context(path, t, bucket, round, source))) {
            for (Rec r : records) {
                w.write(r.row(), r.type(), bucket, r.offset(), BASE_TS + r.offset());
            }
            return w.complete();
        }
    }

    private LakeSnapshot commit(
            TablePath path,
            TableDescriptor t,
            long round,
            List<LakeWriteResult> results,
            Map<Integer, Long> offsets) {
        SortedMap<PartitionBucket, Long> keyed = new TreeMap<>();
        long partitionId = t.isPartitioned() ? 10 : TableBucket.NO_PARTITION;
        offsets.forEach((b, o) -> keyed.put(new PartitionBucket(partitionId, b), o));
        Map<Long, String> names = t.isPartitioned() ? Map.of(10L, "dt=" + DAY) : Map.of();
        try (LakeCommitter c = storage.createCommitter(path)) {
            LakeCommitResult res =
                    c.commit(
                            results,
                            TieringSnapshotProperties.of(TABLE_ID, round, round, keyed, names, -1));
            assertThat(res.outcome()).isEqualTo(LakeCommitResult.Outcome.COMMITTED);
            return c.latestTieringSnapshot(TABLE_ID).orElseThrow();
        }
    }

    private Catalog nativeCatalog() {
        return CatalogFactory.createCatalog(
                CatalogContext.create(
                        Options.fromMap(
                                Map.of(
                                        "warehouse",
                                        LakeStorageOptions.warehouseUri(warehouse.toString())))));
    }

    /** The live rows, read with Paimon's own reader, keyed by id. */
    private Map<Long, Map<String, Object>> readWithPaimon(TablePath path) throws Exception {
        try (Catalog catalog = nativeCatalog()) {
            Map<Long, Map<String, Object>> out = new TreeMap<>();
            for (Map<String, Object> r : PaimonReads.readNamed(catalog, path)) {
                assertThat(out.put((Long) r.get("id"), r))
                        .as("id %s read twice (seed %d)", r.get("id"), seed)
                        .isNull();
            }
            return out;
        }
    }

    private static Map<String, Object> lakeRow(TableDescriptor t, Row row, int bucket, long off) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < t.schema().fieldCount(); i++) {
            m.put(t.schema().columns().get(i).name(), row.getField(i));
        }
        m.put("__bucket", bucket);
        m.put("__offset", off);
        m.put("__timestamp", Instant.ofEpochMilli(BASE_TS + off));
        return m;
    }

    private List<DataSplit> splits(TablePath path) throws Exception {
        try (Catalog catalog = nativeCatalog()) {
            FileStoreTable table =
                    (FileStoreTable)
                            catalog.getTable(Identifier.create(path.database(), path.table()));
            List<DataSplit> out = new ArrayList<>();
            for (Split s : table.newReadBuilder().newScan().plan().splits()) {
                out.add((DataSplit) s);
            }
            return out;
        }
    }

    /** Keys of a first round: ids drawn at random, each once, in the buckets of the store. */
    private Map<Integer, List<Rec>> snapshotSplits(
            TableDescriptor t,
            int keys,
            Map<Long, Map<String, Object>> expected,
            Map<Long, Integer> bucketOfId) {
        BucketFunction f = BucketFunction.of(t);
        Map<Integer, List<Rec>> splits = new TreeMap<>();
        java.util.Set<Long> ids = new java.util.HashSet<>();
        while (ids.size() < keys) {
            ids.add(random.nextLong() >> random.nextInt(60));
        }
        for (long id : ids) {
            Row r = row(t, id, 0);
            int b = f.bucketOf(r);
            List<Rec> split = splits.computeIfAbsent(b, x -> new ArrayList<>());
            split.add(new Rec(r, ChangeType.INSERT, split.size()));
            expected.put(id, lakeRow(t, r, b, split.size() - 1));
            bucketOfId.put(id, b);
        }
        // a store's key order is not Paimon's: the writer must not depend on the order given
        splits.values().forEach(s -> Collections.shuffle(s, random));
        return splits;
    }

    @ParameterizedTest(name = "partitioned {0}, Paimon's bucket function {1}")
    @CsvSource({"false,true", "true,true", "false,false", "true,false"})
    void t54_aSnapshotSplitIsOneSortedRunPerBucketAndLaterLogRoundsWinOverIt(
            boolean partitioned, boolean paimonBuckets) throws Exception {
        TablePath path = TablePath.of("db", "users");
        TableDescriptor t = table(partitioned, paimonBuckets, 4);
        storage.catalog().createTable(path, t);
        Map<Long, Map<String, Object>> expected = new TreeMap<>();
        Map<Long, Integer> bucketOfId = new HashMap<>();
        int keys = 3000 + random.nextInt(3000);
        Map<Integer, List<Rec>> first = snapshotSplits(t, keys, expected, bucketOfId);

        List<LakeWriteResult> results = new ArrayList<>();
        Map<Integer, Long> offsets = new TreeMap<>();
        for (Map.Entry<Integer, List<Rec>> e : first.entrySet()) {
            results.add(writeSplit(path, t, e.getKey(), 1, SplitSource.KV_SNAPSHOT, e.getValue()));
            offsets.put(e.getKey(), (long) e.getValue().size());
        }
        LakeSnapshot s1 = commit(path, t, 1, results, offsets);
        assertThat(readWithPaimon(path))
                .as("the first round read back by Paimon (seed %d)", seed)
                .isEqualTo(expected);

        // the layout: one sorted run per bucket, sequence numbers 0..n-1. With Paimon's bucket
        // function the split is its Paimon bucket's only writer: the run is at the highest level,
        // which Paimon reads without a merge. Otherwise several splits fill a Paimon bucket and
        // each run is a level-0 file of its own.
        List<DataSplit> layout = splits(path);
        int maxLevel = 5; // Paimon's default num-levels (compaction trigger 5, plus 1) minus 1
        for (DataSplit s : layout) {
            List<Integer> levels = s.dataFiles().stream().map(DataFileMeta::level).toList();
            if (paimonBuckets) {
                assertThat(levels)
                        .as("bucket %d (seed %d)", s.bucket(), seed)
                        .containsOnly(maxLevel);
                assertThat(s.rawConvertible())
                        .as("bucket %d reads without merge", s.bucket())
                        .isTrue();
                long rows = s.dataFiles().stream().mapToLong(DataFileMeta::rowCount).sum();
                assertThat(s.dataFiles().stream().mapToLong(DataFileMeta::minSequenceNumber).min())
                        .hasValue(0);
                assertThat(s.dataFiles().stream().mapToLong(DataFileMeta::maxSequenceNumber).max())
                        .hasValue(rows - 1);
            } else {
                assertThat(levels).as("bucket %d (seed %d)", s.bucket(), seed).containsOnly(0);
            }
            assertThat(s.dataFiles())
                    .as("a first round deletes nothing")
                    .allSatisfy(f -> assertThat(f.deleteRowCount()).contains(0L));
        }
        if (paimonBuckets) {
            assertThat(layout).hasSize(first.size());
        }

        // round 2, a log round: updates, deletes, deletes then re-inserts, and new keys
        List<Long> ids = new ArrayList<>(expected.keySet());
        Collections.shuffle(ids, random);
        Map<Integer, List<Rec>> second = new TreeMap<>();
        BucketFunction f = BucketFunction.of(t);
        for (int i = 0; i < ids.size() / 5; i++) {
            long id = ids.get(i);
            int b = bucketOfId.get(id);
            List<Rec> split = second.computeIfAbsent(b, x -> new ArrayList<>());
            long next = offsets.get(b) + split.size();
            Row old = rowOf(t, expected.get(id));
            switch (i % 3) {
                case 0 -> {
                    Row updated = row(t, id, 1);
                    split.add(new Rec(old, ChangeType.UPDATE_BEFORE, next));
                    split.add(new Rec(updated, ChangeType.UPDATE_AFTER, next + 1));
                    expected.put(id, lakeRow(t, updated, b, next + 1));
                }
                case 1 -> {
                    split.add(new Rec(old, ChangeType.DELETE, next));
                    expected.remove(id);
                }
                default -> {
                    Row again = row(t, id, 2);
                    split.add(new Rec(old, ChangeType.DELETE, next));
                    split.add(new Rec(again, ChangeType.INSERT, next + 1));
                    expected.put(id, lakeRow(t, again, b, next + 1));
                }
            }
        }
        for (int i = 0; i < 100; i++) {
            long id = random.nextLong();
            if (expected.containsKey(id)) {
                continue;
            }
            Row r = row(t, id, 0);
            int b = f.bucketOf(r);
            List<Rec> split = second.computeIfAbsent(b, x -> new ArrayList<>());
            long next = offsets.get(b) + split.size();
            split.add(new Rec(r, ChangeType.INSERT, next));
            expected.put(id, lakeRow(t, r, b, next));
        }
        results.clear();
        for (Map.Entry<Integer, List<Rec>> e : second.entrySet()) {
            results.add(writeSplit(path, t, e.getKey(), 2, SplitSource.LOG, e.getValue()));
            offsets.merge(e.getKey(), (long) e.getValue().size(), Long::sum);
        }
        LakeSnapshot s2 = commit(path, t, 2, results, offsets);
        assertThat(readWithPaimon(path))
                .as("the second round read back by Paimon (seed %d)", seed)
                .isEqualTo(expected);

        // another engine's full compaction (Paimon's own writer) merges the snapshot's runs with
        // the log round's files and keeps every row
        try (Catalog catalog = nativeCatalog()) {
            FileStoreTable table =
                    (FileStoreTable)
                            catalog.getTable(Identifier.create(path.database(), path.table()));
            org.apache.paimon.table.sink.BatchWriteBuilder wb = table.newBatchWriteBuilder();
            try (org.apache.paimon.disk.IOManager disk =
                            org.apache.paimon.disk.IOManager.create(
                                    System.getProperty("java.io.tmpdir"));
                    org.apache.paimon.table.sink.BatchTableWrite w = wb.newWrite();
                    org.apache.paimon.table.sink.BatchTableCommit c = wb.newCommit()) {
                // a deletion-vector table (T48, Paimon's bucket function) compacts by lookup
                w.withIOManager(disk);
                for (DataSplit s : splits(path)) {
                    w.compact(s.partition(), s.bucket(), true);
                }
                c.commit(w.prepareCommit());
            }
        }
        assertThat(readWithPaimon(path))
                .as("after a full compaction (seed %d)", seed)
                .isEqualTo(expected);
        for (DataSplit s : splits(path)) {
            assertThat(s.dataFiles()).allSatisfy(file -> assertThat(file.level()).isEqualTo(5));
        }

        // Tributary's own lake reader, bucket by bucket, as of each round
        if (!partitioned) {
            Map<Long, Map<String, Object>> atS1 = new TreeMap<>();
            first.forEach(
                    (b, split) ->
                            split.forEach(
                                    r ->
                                            atS1.put(
                                                    r.row().getLong(0),
                                                    lakeRow(t, r.row(), b, r.offset()))));
            assertThat(readWithTributary(path, t, s1.snapshotId())).isEqualTo(atS1);
            assertThat(readWithTributary(path, t, s2.snapshotId())).isEqualTo(expected);
        }
    }

    private static Row rowOf(TableDescriptor t, Map<String, Object> lakeRow) {
        Object[] f = new Object[t.schema().fieldCount()];
        for (int i = 0; i < f.length; i++) {
            f[i] = lakeRow.get(t.schema().columns().get(i).name());
        }
        return Row.wrap(f);
    }

    private Map<Long, Map<String, Object>> readWithTributary(
            TablePath path, TableDescriptor t, long snapshotId) {
        Map<Long, Map<String, Object>> out = new TreeMap<>();
        try (LakeReader reader = storage.createReader(path)) {
            for (int b = 0; b < t.bucketCount(); b++) {
                try (LakeRowCursor c = reader.read(LakeReadRequest.all(snapshotId, t, b))) {
                    while (c.next()) {
                        Row r = c.row();
                        Object[] f = new Object[r.arity()];
                        for (int i = 0; i < f.length; i++) {
                            f[i] = r.getField(i);
                        }
                        assertThat(c.timestampMillis()).isEqualTo(BASE_TS + c.offset());
                        out.put(r.getLong(0), lakeRow(t, Row.wrap(f), c.bucket(), c.offset()));
                    }
                }
            }
        }
        return out;
    }

    @Test
    void t54_aRecordThatIsNotAnInsertOnASnapshotSplitIsRefused() {
        TablePath path = TablePath.of("db", "refuse");
        TableDescriptor t = table(false, true, 1);
        storage.catalog().createTable(path, t);
        for (ChangeType type :
                List.of(
                        ChangeType.UPDATE_BEFORE,
                        ChangeType.UPDATE_AFTER,
                        ChangeType.DELETE,
                        ChangeType.APPEND_ONLY)) {
            try (LakeWriter w =
                    storage.createWriter(context(path, t, 0, 1, SplitSource.KV_SNAPSHOT))) {
                w.write(Row.of(1L, "a", 1), ChangeType.INSERT, 0, 0, BASE_TS);
                assertThatThrownBy(() -> w.write(Row.of(2L, "b", 2), type, 0, 1, BASE_TS))
                        .isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("KV snapshot split")
                        .hasMessageContaining(type.shortString());
            }
        }
    }

    @Test
    void t54_aKeyTwiceOnASnapshotSplitIsRefused() {
        TablePath path = TablePath.of("db", "twice");
        TableDescriptor t = table(false, true, 1);
        storage.catalog().createTable(path, t);
        try (LakeWriter w = storage.createWriter(context(path, t, 0, 1, SplitSource.KV_SNAPSHOT))) {
            w.write(Row.of(1L, "a", 1), ChangeType.INSERT, 0, 0, BASE_TS);
            w.write(Row.of(2L, "b", 2), ChangeType.INSERT, 0, 1, BASE_TS);
            w.write(Row.of(1L, "c", 3), ChangeType.INSERT, 0, 2, BASE_TS);
            assertThatThrownBy(w::complete)
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("holds one key twice");
        }
    }

    /**
     * A snapshot in Paimon's key order (a store bucket with ordered KV keys) is streamed into the
     * top-level run without a sort. Bucket 0's split ascends throughout: one run at the top level.
     * Bucket 1's split ascends, then turns to random keys: the streamed run ends there and the rest
     * becomes a sorted run one level below it. Both read back exactly, with deletion vectors and
     * merge-on-read, also after a log round that updates and deletes keys of both runs.
     */
    @ParameterizedTest(name = "pk-deletes {0}")
    @CsvSource({"position", "equality"})
    void t54_aSnapshotInKeyOrderIsStreamedAndARowOutOfOrderStartsARunBelowIt(String deletes)
            throws Exception {
        TablePath path = TablePath.of("db", "ordered_" + deletes);
        TableDescriptor t =
                table(false, true, 2)
                        .withProperties(
                                Map.of(
                                        TableOptions.BUCKET_FUNCTION.key(),
                                        BucketFunctionType.PAIMON.value(),
                                        TableOptions.DATALAKE_PK_DELETES.key(),
                                        deletes));
        storage.catalog().createTable(path, t);
        BucketFunction f = BucketFunction.of(t);
        Map<Long, Map<String, Object>> expected = new TreeMap<>();
        Map<Integer, List<Row>> ordered = new TreeMap<>();
        int streamed = PaimonSnapshotWriter.ORDER_PROBE_ROWS * 3;
        for (long id = -streamed; ordered.getOrDefault(1, List.of()).size() < streamed; id++) {
            Row r = row(t, id * 1000, 0);
            ordered.computeIfAbsent(f.bucketOf(r), b -> new ArrayList<>()).add(r);
        }
        // bucket 1: after its ascending rows, keys at random (between and around them)
        List<Row> tail = new ArrayList<>();
        java.util.Set<Long> taken = new java.util.HashSet<>();
        ordered.values().forEach(rows -> rows.forEach(r -> taken.add(r.getLong(0))));
        while (tail.size() < 2000) {
            Row r = row(t, (random.nextLong() >> 40) * 1000 + 1 + random.nextInt(998), 0);
            if (f.bucketOf(r) == 1 && taken.add(r.getLong(0))) {
                tail.add(r);
            }
        }
        ordered.get(1).addAll(tail);
        Map<Integer, Long> offsets = new TreeMap<>();
        List<LakeWriteResult> results = new ArrayList<>();
        for (Map.Entry<Integer, List<Row>> e : ordered.entrySet()) {
            List<Rec> split = new ArrayList<>();
            for (Row r : e.getValue()) {
                split.add(new Rec(r, ChangeType.INSERT, split.size()));
                expected.put(r.getLong(0), lakeRow(t, r, e.getKey(), split.size() - 1));
            }
            results.add(writeSplit(path, t, e.getKey(), 1, SplitSource.KV_SNAPSHOT, split));
            offsets.put(e.getKey(), (long) split.size());
        }
        commit(path, t, 1, results, offsets);
        assertThat(readWithPaimon(path)).as("seed %d", seed).isEqualTo(expected);
        Map<Integer, List<Integer>> levels = new TreeMap<>();
        for (DataSplit s : splits(path)) {
            s.dataFiles()
                    .forEach(
                            file ->
                                    levels.computeIfAbsent(s.bucket(), b -> new ArrayList<>())
                                            .add(file.level()));
            long rows = s.dataFiles().stream().mapToLong(DataFileMeta::rowCount).sum();
            assertThat(s.dataFiles().stream().mapToLong(DataFileMeta::maxSequenceNumber).max())
                    .as("sequence numbers of bucket %d run on across its runs", s.bucket())
                    .hasValue(rows - 1);
        }
        assertThat(levels.get(0)).as("one streamed run").containsOnly(5);
        assertThat(levels.get(1))
                .as("the streamed run and the sorted rest")
                .contains(5, 4)
                .containsOnly(5, 4);

        // a log round: updates and deletes of keys in both of bucket 1's runs and in bucket 0
        Map<Integer, List<Rec>> second = new TreeMap<>();
        List<Long> ids = new ArrayList<>(expected.keySet());
        Collections.shuffle(ids, random);
        for (int i = 0; i < 1500; i++) {
            long id = ids.get(i);
            Row old = rowOf(t, expected.get(id));
            int b = f.bucketOf(old);
            List<Rec> split = second.computeIfAbsent(b, x -> new ArrayList<>());
            long next = offsets.get(b) + split.size();
            if (i % 2 == 0) {
                Row updated = row(t, id, 1);
                split.add(new Rec(old, ChangeType.UPDATE_BEFORE, next));
                split.add(new Rec(updated, ChangeType.UPDATE_AFTER, next + 1));
                expected.put(id, lakeRow(t, updated, b, next + 1));
            } else {
                split.add(new Rec(old, ChangeType.DELETE, next));
                expected.remove(id);
            }
        }
        results.clear();
        for (Map.Entry<Integer, List<Rec>> e : second.entrySet()) {
            results.add(writeSplit(path, t, e.getKey(), 2, SplitSource.LOG, e.getValue()));
            offsets.merge(e.getKey(), (long) e.getValue().size(), Long::sum);
        }
        commit(path, t, 2, results, offsets);
        assertThat(readWithPaimon(path))
                .as("after a log round (seed %d)", seed)
                .isEqualTo(expected);
    }

    @Test
    void t54_aKeyTwiceInAStreamedSnapshotIsRefusedAsItComes() {
        TablePath path = TablePath.of("db", "twice_streamed");
        TableDescriptor t = table(false, true, 1);
        storage.catalog().createTable(path, t);
        try (LakeWriter w = storage.createWriter(context(path, t, 0, 1, SplitSource.KV_SNAPSHOT))) {
            long n = PaimonSnapshotWriter.ORDER_PROBE_ROWS + 10;
            for (long i = 0; i < n; i++) {
                w.write(row(t, i, 0), ChangeType.INSERT, 0, i, BASE_TS + i);
            }
            assertThatThrownBy(() -> w.write(row(t, n - 1, 1), ChangeType.INSERT, 0, n, BASE_TS))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("holds one key twice");
        }
    }

    @Test
    void t54_abortDeletesTheSnapshotRunsFiles() throws Exception {
        TablePath path = TablePath.of("db", "aborted");
        TableDescriptor t = table(false, true, 1);
        storage.catalog().createTable(path, t);
        LakeWriteResult written;
        try (LakeWriter w = storage.createWriter(context(path, t, 0, 1, SplitSource.KV_SNAPSHOT))) {
            for (long i = 0; i < 2000; i++) {
                w.write(row(t, i, 0), ChangeType.INSERT, 0, i, BASE_TS + i);
            }
            written = w.complete();
            assertThat(written.files()).isNotEmpty();
            assertThat(dataFiles(path)).hasSameSizeAs(written.files());
            w.abort();
        }
        assertThat(dataFiles(path)).isEmpty();
        try (LakeWriter w = storage.createWriter(context(path, t, 0, 2, SplitSource.KV_SNAPSHOT))) {
            w.write(row(t, 1, 0), ChangeType.INSERT, 0, 0, BASE_TS);
            w.abort();
        }
        assertThat(dataFiles(path)).isEmpty();
    }

    /**
     * Issue 25: the log offset, the log timestamp and Paimon's sequence number are unique (or
     * nearly) per row in real files, so Tributary's writers do not try a Parquet dictionary for
     * them (the attempt costs CPU, then falls back); a column with few values keeps its dictionary.
     * The sequence number cannot repeat, so only the two system columns show it.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"log", "pk_log_split", "pk_snapshot"})
    void t54_filesHaveNoParquetDictionaryOnColumnsUniquePerRow(String kind) throws Exception {
        boolean pk = !kind.equals("log");
        TablePath path = TablePath.of("db", kind);
        Schema.Builder s =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("name", DataTypes.STRING());
        if (pk) {
            s.primaryKey("id");
        }
        TableDescriptor t =
                TableDescriptor.builder(s.build()).bucketCount(1).bucketKeys("id").build();
        storage.catalog().createTable(path, t);
        SplitSource source = kind.equals("pk_snapshot") ? SplitSource.KV_SNAPSHOT : SplitSource.LOG;
        LakeWriteResult result;
        try (LakeWriter w = storage.createWriter(context(path, t, 0, 1, source))) {
            // a unique column's dictionary is dropped at its first page (it does not compress)
            // and leaves no trace in the footer: give the system columns few values here, so a
            // dictionary page would show if the writer still tried one
            for (long i = 0; i < 5000; i++) {
                w.write(
                        Row.of(i, "name-" + (i % 3)),
                        pk ? ChangeType.INSERT : ChangeType.APPEND_ONLY,
                        0,
                        i % 3,
                        BASE_TS);
            }
            result = w.complete();
        }
        assertThat(result.files()).isNotEmpty();
        List<String> unique = List.of("__offset", "__timestamp");
        for (String file : result.files()) {
            Map<String, Boolean> dictionary = new HashMap<>();
            org.apache.paimon.fs.Path p = new org.apache.paimon.fs.Path(file);
            try (var reader =
                    org.apache.paimon.format.parquet.ParquetUtil.getParquetReader(
                            org.apache.paimon.fs.local.LocalFileIO.create(),
                            p,
                            Files.size(Path.of(p.toUri())))) {
                for (var block : reader.getFooter().getBlocks()) {
                    for (var column : block.getColumns()) {
                        dictionary.merge(
                                column.getPath().toDotString(),
                                column.hasDictionaryPage(),
                                Boolean::logicalOr);
                    }
                }
            }
            assertThat(dictionary).containsKeys(unique.toArray(new String[0]));
            // every column the writer turns the dictionary off for is named as the file names it
            // (the key copy of a single-column key too), and has no dictionary page
            List<String> off;
            try (Catalog catalog = nativeCatalog()) {
                off =
                        PaimonSchemas.uniqueColumns(
                                (FileStoreTable)
                                        catalog.getTable(
                                                Identifier.create(path.database(), path.table())));
            }
            assertThat(off).containsAll(pk ? List.of("_SEQUENCE_NUMBER", "id", "_KEY_id") : unique);
            assertThat(dictionary).containsKeys(off.toArray(new String[0]));
            off.forEach(c -> assertThat(dictionary.get(c)).as("%s in %s", c, file).isFalse());
            unique.forEach(c -> assertThat(dictionary.get(c)).as("%s in %s", c, file).isFalse());
            assertThat(dictionary.get("name")).as("name in %s", file).isTrue();
        }
    }

    @Test
    void t54_aSnapshotLargerThanTheSortBufferSpillsAndIsStillOneRun() throws Exception {
        // a 512 KB sort buffer (8 pages) for ~2 MB of rows: the sort spills to local disk
        storage.close();
        storage =
                LakeStoragePlugins.find("paimon")
                        .createLakeStorage(
                                Configuration.fromMap(
                                        Map.of(
                                                "warehouse",
                                                warehouse.toString(),
                                                "table.write-buffer-size",
                                                "512 kb")));
        TablePath path = TablePath.of("db", "spilled");
        TableDescriptor t = table(false, true, 1);
        storage.catalog().createTable(path, t);
        List<Rec> split = new ArrayList<>();
        Map<Long, Map<String, Object>> expected = new TreeMap<>();
        for (int i = 0; i < 20_000; i++) {
            long id = random.nextLong();
            Row r = Row.of(id, "name-" + Long.toHexString(random.nextLong()) + "-" + i, i);
            if (!expected.containsKey(id)) {
                expected.put(id, lakeRow(t, r, 0, i));
                split.add(new Rec(r, ChangeType.INSERT, i));
            }
        }
        LakeWriteResult result = writeSplit(path, t, 0, 1, SplitSource.KV_SNAPSHOT, split);
        commit(path, t, 1, List.of(result), Map.of(0, 20_000L));
        assertThat(readWithPaimon(path)).as("seed %d", seed).isEqualTo(expected);
        List<DataSplit> layout = splits(path);
        assertThat(layout).hasSize(1);
        assertThat(layout.get(0).rawConvertible()).isTrue();
        assertThat(layout.get(0).dataFiles()).allSatisfy(f -> assertThat(f.level()).isEqualTo(5));
    }

    private List<Path> dataFiles(TablePath path) throws Exception {
        Path dir = warehouse.resolve(path.database() + ".db").resolve(path.table());
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> p.getParent().getFileName().toString().startsWith("bucket-"))
                    .toList();
        }
    }
}

package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.id.LakeBucket;
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
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.maintenance.ExpiryPolicy;
import dev.tributary.lake.api.maintenance.LakeCompactionResult;
import dev.tributary.lake.api.maintenance.LakeCompactor;
import dev.tributary.lake.api.maintenance.LakeMaintainer;
import dev.tributary.lake.api.maintenance.MaintenanceCommitResult;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.lake.api.write.LakeWriterContext.SplitSource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.FileSource;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.utils.SnapshotManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * T48 for Paimon: a primary-key table with position deletes (the default) is a Paimon table with
 * deletion vectors, and every round commits only rows its readers see without a merge by key: no
 * live file at level 0, every split raw-convertible, the replaced rows in deletion-vector index
 * files. Read back exactly with Paimon's own reader after updates, deletes, re-inserts, keys
 * changed twice in a round, restarts, a compaction, snapshot expiry and orphan cleanup.
 */
class PaimonDeletionVectorTest {
    private static final long TABLE_ID = 9;
    private static final long BASE_TS = 1_764_000_000_000L;
    private static final LocalDate DAY = LocalDate.of(2026, 12, 2);
    private static final int BUCKETS = 3;

    @TempDir Path warehouse;
    private LakeStorage storage;
    private long seed;
    private Random random;

    @BeforeEach
    void open() {
        storage = newStorage();
        seed = System.nanoTime();
        random = new Random(seed);
    }

    private LakeStorage newStorage() {
        return LakeStoragePlugins.find("paimon")
                .createLakeStorage(
                        Configuration.fromMap(Map.of("warehouse", warehouse.toString())));
    }

    @AfterEach
    void close() {
        storage.close();
    }

    private record Rec(Row row, ChangeType type, long offset) {}

    private static TableDescriptor table(
            boolean partitioned, boolean paimonBuckets, Map<String, String> properties) {
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
                TableDescriptor.builder(s.build()).bucketCount(BUCKETS).bucketKeys("id");
        if (partitioned) {
            b.partitionKeys("dt");
        }
        if (paimonBuckets) {
            b.property(TableOptions.BUCKET_FUNCTION.key(), BucketFunctionType.PAIMON.value());
        }
        properties.forEach(b::property);
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

    /** The state of the table as Tributary's store holds it, and the log offsets per bucket. */
    private final class Model {
        final TablePath path;
        final TableDescriptor t;
        final Map<Long, Row> rows = new TreeMap<>();
        final Map<Integer, Long> offsets = new TreeMap<>();
        long round;
        List<LakeWriteResult> lastResults;
        TieringSnapshotProperties lastProperties;

        Model(TablePath path, TableDescriptor t) {
            this.path = path;
            this.t = t;
            for (int b = 0; b < BUCKETS; b++) {
                offsets.put(b, 0L);
            }
        }

        int bucketOf(Row r) {
            return BucketFunction.of(t).bucketOf(r);
        }

        /** One round: the splits' records, committed; the store's rows change with them. */
        void round(SplitSource source, Map<Integer, List<Rec>> splits) {
            assertThat(commit(write(source, splits))).isEqualTo(LakeCommitResult.Outcome.COMMITTED);
        }

        /** Writes a round's splits, uncommitted. */
        List<LakeWriteResult> write(SplitSource source, Map<Integer, List<Rec>> splits) {
            round++;
            List<LakeWriteResult> results = new ArrayList<>();
            for (Map.Entry<Integer, List<Rec>> e : splits.entrySet()) {
                try (LakeWriter w =
                        storage.createWriter(context(path, t, e.getKey(), round, source))) {
                    for (Rec r : e.getValue()) {
                        w.write(r.row(), r.type(), e.getKey(), r.offset(), BASE_TS + r.offset());
                    }
                    results.add(w.complete());
                }
                offsets.merge(e.getKey(), (long) e.getValue().size(), Long::sum);
            }
            return results;
        }

        LakeCommitResult.Outcome commit(List<LakeWriteResult> results) {
            SortedMap<PartitionBucket, Long> keyed = new TreeMap<>();
            long partitionId = t.isPartitioned() ? 10 : TableBucket.NO_PARTITION;
            offsets.forEach((b, o) -> keyed.put(new PartitionBucket(partitionId, b), o));
            Map<Long, String> names = t.isPartitioned() ? Map.of(10L, "dt=" + DAY) : Map.of();
            lastResults = results;
            lastProperties = TieringSnapshotProperties.of(TABLE_ID, round, round, keyed, names, -1);
            try (LakeCommitter c = storage.createCommitter(path)) {
                return c.commit(results, lastProperties).outcome();
            }
        }

        /** A first round: {@code n} new keys as KV snapshot splits. */
        void snapshotRound(int n) {
            Map<Integer, List<Rec>> splits = new TreeMap<>();
            while (rows.size() < n) {
                long id = random.nextLong() >> random.nextInt(60);
                if (rows.containsKey(id)) {
                    continue;
                }
                Row r = row(t, id, 0);
                rows.put(id, r);
                int b = bucketOf(r);
                List<Rec> split = splits.computeIfAbsent(b, x -> new ArrayList<>());
                split.add(new Rec(r, ChangeType.INSERT, offsets.get(b) + split.size()));
            }
            round(SplitSource.KV_SNAPSHOT, splits);
        }

        /**
         * A log round touching {@code n} existing keys: updates, deletes, deletes then re-inserts,
         * keys updated twice, plus new keys (some inserted then deleted in the same round).
         */
        Map<Integer, List<Rec>> logSplits(int n) {
            Map<Integer, List<Rec>> splits = new TreeMap<>();
            List<Long> ids = new ArrayList<>(rows.keySet());
            java.util.Collections.shuffle(ids, random);
            int version = (int) round * 10;
            for (int i = 0; i < Math.min(n, ids.size()); i++) {
                long id = ids.get(i);
                Row old = rows.get(id);
                int b = bucketOf(old);
                List<Rec> split = splits.computeIfAbsent(b, x -> new ArrayList<>());
                switch (i % 4) {
                    case 0 -> {
                        Row u = row(t, id, version + 1);
                        add(split, b, old, ChangeType.UPDATE_BEFORE);
                        add(split, b, u, ChangeType.UPDATE_AFTER);
                        rows.put(id, u);
                    }
                    case 1 -> {
                        add(split, b, old, ChangeType.DELETE);
                        rows.remove(id);
                    }
                    case 2 -> {
                        Row again = row(t, id, version + 2);
                        add(split, b, old, ChangeType.DELETE);
                        add(split, b, again, ChangeType.INSERT);
                        rows.put(id, again);
                    }
                    default -> {
                        Row u1 = row(t, id, version + 3);
                        Row u2 = row(t, id, version + 4);
                        add(split, b, old, ChangeType.UPDATE_BEFORE);
                        add(split, b, u1, ChangeType.UPDATE_AFTER);
                        add(split, b, u1, ChangeType.UPDATE_BEFORE);
                        add(split, b, u2, ChangeType.UPDATE_AFTER);
                        rows.put(id, u2);
                    }
                }
            }
            for (int i = 0; i < n / 10 + 1; i++) {
                long id = random.nextLong();
                if (rows.containsKey(id)) {
                    continue;
                }
                Row r = row(t, id, version + 5);
                int b = bucketOf(r);
                List<Rec> split = splits.computeIfAbsent(b, x -> new ArrayList<>());
                add(split, b, r, ChangeType.INSERT);
                if (i % 5 == 0) {
                    add(split, b, r, ChangeType.DELETE);
                } else {
                    rows.put(id, r);
                }
            }
            return splits;
        }

        void logRound(int n) {
            round(SplitSource.LOG, logSplits(n));
        }

        private void add(List<Rec> split, int b, Row r, ChangeType type) {
            split.add(new Rec(r, type, offsets.get(b) + split.size()));
        }

        Map<Long, List<Object>> expected() {
            Map<Long, List<Object>> out = new TreeMap<>();
            rows.forEach((id, r) -> out.put(id, values(r)));
            return out;
        }

        List<Object> values(Row r) {
            List<Object> v = new ArrayList<>();
            for (int i = 0; i < t.schema().fieldCount(); i++) {
                v.add(r.getField(i));
            }
            return v;
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

    private FileStoreTable nativeTable(Catalog catalog, TablePath path) throws Exception {
        return (FileStoreTable) catalog.getTable(Identifier.create(path.database(), path.table()));
    }

    /** The live rows read with Paimon's own reader: id -> the Tributary columns. */
    private Map<Long, List<Object>> readWithPaimon(Model m) throws Exception {
        try (Catalog catalog = nativeCatalog()) {
            Map<Long, List<Object>> out = new TreeMap<>();
            for (Map<String, Object> r : PaimonReads.readNamed(catalog, m.path)) {
                List<Object> v = new ArrayList<>();
                for (var c : m.t.schema().columns()) {
                    v.add(r.get(c.name()));
                }
                assertThat(out.put((Long) r.get("id"), v))
                        .as("id %s read twice (seed %d)", r.get("id"), seed)
                        .isNull();
            }
            return out;
        }
    }

    /**
     * What a reader that never merges by key sees (T48): every split of the latest snapshot is
     * raw-convertible (its files are read as they are, with their deletion vectors), no live file
     * is at level 0, and the files' rows minus their deletion vectors are exactly the live rows.
     * Returns the number of rows the deletion vectors delete.
     */
    private long assertReadableWithoutMerge(Model m) throws Exception {
        try (Catalog catalog = nativeCatalog()) {
            FileStoreTable table = nativeTable(catalog, m.path);
            assertThat(table.coreOptions().deletionVectorsEnabled()).isTrue();
            long live = 0;
            long deleted = 0;
            for (Split s : table.newReadBuilder().newScan().plan().splits()) {
                DataSplit d = (DataSplit) s;
                assertThat(d.dataFiles())
                        .as("round %d: no live file at level 0 (seed %d)", m.round, seed)
                        .allSatisfy(f -> assertThat(f.level()).isPositive());
                assertThat(d.rawConvertible())
                        .as("round %d bucket %d reads without a merge", m.round, d.bucket())
                        .isTrue();
                List<DeletionFile> dvs = d.deletionFiles().orElse(null);
                for (int i = 0; i < d.dataFiles().size(); i++) {
                    DataFileMeta f = d.dataFiles().get(i);
                    long gone = 0;
                    if (dvs != null && dvs.get(i) != null) {
                        DeletionFile df = dvs.get(i);
                        assertThat(df.path()).contains("/index/");
                        gone = DeletionVector.read(table.fileIO(), df).getCardinality();
                    }
                    live += f.rowCount() - gone;
                    deleted += gone;
                }
            }
            assertThat(live)
                    .as("round %d: rows in files minus deletion vectors (seed %d)", m.round, seed)
                    .isEqualTo(m.rows.size());
            return deleted;
        }
    }

    private void assertExact(Model m) throws Exception {
        assertThat(readWithPaimon(m))
                .as("round %d read back by Paimon (seed %d)", m.round, seed)
                .isEqualTo(m.expected());
    }

    @ParameterizedTest(name = "partitioned {0}")
    @ValueSource(booleans = {false, true})
    void t48_roundsOnADeletionVectorTableCommitOnlyRowsReadersSeeWithoutAMerge(boolean partitioned)
            throws Exception {
        TablePath path = TablePath.of("db", "dv" + partitioned);
        Model m = new Model(path, table(partitioned, true, Map.of()));
        storage.catalog().createTable(path, m.t);

        // the first round: the snapshot writer's runs at the top level, nothing to delete
        m.snapshotRound(2000 + random.nextInt(1000));
        assertExact(m);
        assertThat(assertReadableWithoutMerge(m)).isZero();
        try (Catalog catalog = nativeCatalog()) {
            FileStoreTable table = nativeTable(catalog, path);
            // one snapshot: the runs were written at the top level, no compaction moved them
            assertThat(table.snapshotManager().latestSnapshot().id()).isEqualTo(1);
            assertThat(table.snapshotManager().latestSnapshot().commitKind())
                    .isEqualTo(org.apache.paimon.Snapshot.CommitKind.APPEND);
            for (Split s : table.newReadBuilder().newScan().plan().splits()) {
                // written at the top level by the snapshot writer, not compacted up to it
                assertThat(((DataSplit) s).dataFiles())
                        .as("T54's fast path on a deletion-vector table (seed %d)", seed)
                        .allSatisfy(
                                f -> {
                                    assertThat(f.level()).isEqualTo(5);
                                    assertThat(f.fileSource()).contains(FileSource.APPEND);
                                });
            }
        }

        long deleted = 0;
        for (int r = 0; r < 4; r++) {
            if (r == 2) {
                // a restart: a new storage, as after a crash of the job
                storage.close();
                storage = newStorage();
            }
            m.logRound(150 + random.nextInt(100));
            assertExact(m);
            deleted = assertReadableWithoutMerge(m);
        }
        assertThat(deleted)
                .as("updates and deletes are deletion vectors (seed %d)", seed)
                .isPositive();
    }

    @Test
    void t48_compactionExpiryAndOrphanCleanupKeepTheDeletionVectorsRight() throws Exception {
        TablePath path = TablePath.of("db", "dvmaint");
        Model m = new Model(path, table(false, true, Map.of()));
        storage.catalog().createTable(path, m.t);
        m.snapshotRound(1500);
        for (int r = 0; r < 3; r++) {
            m.logRound(200);
        }
        assertExact(m);
        assertThat(assertReadableWithoutMerge(m)).isPositive();

        // Tributary's compaction of every bucket (max-files 1: each bucket with two files or more)
        int compacted = 0;
        long maintenanceId = 100;
        List<LakeCompactionResult> results = new ArrayList<>();
        for (int b = 0; b < BUCKETS; b++) {
            CompactionTask task =
                    new CompactionTask(
                            path,
                            TABLE_ID,
                            m.t,
                            maintenanceId,
                            new LakeBucket(
                                    dev.tributary.lake.api.maintenance.LakeTableStats.UNPARTITIONED,
                                    b),
                            1,
                            -1);
            try (LakeCompactor c = storage.createCompactor(task)) {
                LakeCompactionResult res = c.compact();
                if (!res.isEmpty()) {
                    compacted++;
                }
                results.add(res);
            }
        }
        assertThat(compacted).as("buckets compacted (seed %d)", seed).isPositive();
        try (LakeMaintainer mt = storage.createMaintainer(path)) {
            assertThat(mt.commitCompaction(TABLE_ID, maintenanceId, results).outcome())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        }
        assertExact(m);
        assertReadableWithoutMerge(m);

        // rounds after the compaction, then expiry down to the newest snapshots and an orphan
        // sweep: the live deletion-vector index files stay
        m.logRound(200);
        m.logRound(200);
        try (LakeMaintainer mt = storage.createMaintainer(path)) {
            assertThat(
                            mt.expireSnapshots(new ExpiryPolicy(TABLE_ID, 1, Duration.ZERO))
                                    .snapshotsExpired())
                    .isPositive();
        }
        try (LakeCommitter c = storage.createCommitter(path)) {
            c.deleteOrphanFiles(OrphanPolicy.olderThan(Instant.parse("2999-01-01T00:00:00Z")));
        }
        assertExact(m);
        assertThat(assertReadableWithoutMerge(m)).isPositive();
        m.logRound(200);
        assertExact(m);
        assertReadableWithoutMerge(m);
    }

    @Test
    void t48_newTablesGetDeletionVectorsUnlessEqualityOrAPassThroughSaysOtherwise()
            throws Exception {
        Map<String, TableDescriptor> tables = new TreeMap<>();
        tables.put("position", table(false, true, Map.of()));
        tables.put(
                "equality",
                table(false, true, Map.of(TableOptions.DATALAKE_PK_DELETES.key(), "equality")));
        tables.put(
                "passthrough",
                table(
                        false,
                        true,
                        Map.of("table.datalake.paimon.deletion-vectors.enabled", "false")));
        tables.put(
                "passthroughon",
                table(
                        false,
                        true,
                        Map.of(
                                TableOptions.DATALAKE_PK_DELETES.key(),
                                "equality",
                                "table.datalake.paimon.deletion-vectors.enabled",
                                "true")));
        tables.put("tributarybuckets", table(false, false, Map.of()));
        Map<String, Boolean> dv = new TreeMap<>();
        try (Catalog catalog = nativeCatalog()) {
            for (Map.Entry<String, TableDescriptor> e : tables.entrySet()) {
                TablePath path = TablePath.of("db", e.getKey());
                storage.catalog().createTable(path, e.getValue());
                dv.put(
                        e.getKey(),
                        nativeTable(catalog, path).coreOptions().deletionVectorsEnabled());
            }
        }
        assertThat(dv)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "position", true,
                                "equality", false,
                                "passthrough", false,
                                "passthroughon", true,
                                "tributarybuckets", false));

        // deletion vectors with several writers per Paimon bucket would lose deletes: refused
        TableDescriptor unaligned =
                table(
                        false,
                        false,
                        Map.of("table.datalake.paimon.deletion-vectors.enabled", "true"));
        assertThatThrownBy(() -> storage.catalog().createTable(TablePath.of("db", "no"), unaligned))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("table.bucket.function=paimon");
    }

    @Test
    void t48_equalityModeKeepsWriteOnlyMergeOnReadRounds() throws Exception {
        TablePath path = TablePath.of("db", "eq");
        Model m =
                new Model(
                        path,
                        table(
                                true,
                                true,
                                Map.of(TableOptions.DATALAKE_PK_DELETES.key(), "equality")));
        storage.catalog().createTable(path, m.t);
        m.snapshotRound(1000);
        m.logRound(200);
        m.logRound(200);
        assertExact(m);
        try (Catalog catalog = nativeCatalog()) {
            FileStoreTable table = nativeTable(catalog, path);
            assertThat(table.coreOptions().deletionVectorsEnabled()).isFalse();
            Set<Integer> levels = new HashSet<>();
            for (Split s : table.newReadBuilder().newScan().plan().splits()) {
                ((DataSplit) s).dataFiles().forEach(f -> levels.add(f.level()));
                assertThat(
                                ((DataSplit) s)
                                        .deletionFiles()
                                        .map(l -> l.stream().allMatch(java.util.Objects::isNull))
                                        .orElse(true))
                        .isTrue();
            }
            assertThat(levels).as("log rounds stay write-only: level 0").contains(0, 5);
        }
    }

    @Test
    void t48_anAbortedCompactingRoundDeletesOnlyWhatItWrote() throws Exception {
        TablePath path = TablePath.of("db", "abort");
        Model m = new Model(path, table(false, true, Map.of()));
        storage.catalog().createTable(path, m.t);
        m.snapshotRound(1000);
        m.logRound(100);
        Map<Long, List<Object>> before = m.expected();
        // a round whose writers complete (their compaction names committed files) and then abort
        Map<Integer, LakeWriteResult> done = new HashMap<>();
        for (int b = 0; b < BUCKETS; b++) {
            try (LakeWriter w = storage.createWriter(context(path, m.t, b, 99, SplitSource.LOG))) {
                for (Map.Entry<Long, Row> e : m.rows.entrySet()) {
                    if (m.bucketOf(e.getValue()) == b) {
                        w.write(e.getValue(), ChangeType.DELETE, b, 1_000_000, BASE_TS);
                    }
                }
                done.put(b, w.complete());
                w.abort();
            }
        }
        try (LakeCommitter c = storage.createCommitter(path)) {
            c.abort(new ArrayList<>(done.values()));
        }
        assertThat(readWithPaimon(m)).as("seed %d", seed).isEqualTo(before);
        assertReadableWithoutMerge(m);
    }

    @Test
    void t48_aSnapshotSplitIntoABucketThatHoldsFilesGoesThroughPaimonsWriter() throws Exception {
        TablePath path = TablePath.of("db", "again");
        Model m = new Model(path, table(false, true, Map.of()));
        storage.catalog().createTable(path, m.t);
        m.snapshotRound(1000);
        // a second snapshot split of the same buckets (a table seeded again): some keys again
        // with new values, some new; the top level is taken, so Paimon's writer merges them
        Map<Integer, List<Rec>> splits = new TreeMap<>();
        List<Long> ids = new ArrayList<>(m.rows.keySet());
        for (int i = 0; i < 300; i++) {
            long id = i % 2 == 0 ? ids.get(i) : random.nextLong();
            if (i % 2 == 1 && m.rows.containsKey(id)) {
                continue;
            }
            Row r = row(m.t, id, 7);
            m.rows.put(id, r);
            int b = m.bucketOf(r);
            List<Rec> split = splits.computeIfAbsent(b, x -> new ArrayList<>());
            split.add(new Rec(r, ChangeType.INSERT, m.offsets.get(b) + split.size()));
        }
        m.round(SplitSource.KV_SNAPSHOT, splits);
        assertExact(m);
        assertThat(assertReadableWithoutMerge(m)).as("seed %d", seed).isPositive();
    }

    @Test
    void t48_aRoundCommittedAgainAfterACrashBeforeItsRecordIsAlreadyCommitted() throws Exception {
        TablePath path = TablePath.of("db", "crash");
        Model m = new Model(path, table(true, true, Map.of()));
        storage.catalog().createTable(path, m.t);
        m.snapshotRound(1000);
        m.logRound(200);
        long snapshots;
        try (Catalog catalog = nativeCatalog()) {
            snapshots = nativeTable(catalog, path).snapshotManager().latestSnapshot().id();
        }
        // the job died after the lake commit, before the coordinator recorded it: a new job's
        // committer gets the same round's results again
        storage.close();
        storage = newStorage();
        try (LakeCommitter c = storage.createCommitter(path)) {
            assertThat(c.commit(m.lastResults, m.lastProperties).outcome())
                    .isEqualTo(LakeCommitResult.Outcome.ALREADY_COMMITTED);
        }
        try (Catalog catalog = nativeCatalog()) {
            assertThat(nativeTable(catalog, path).snapshotManager().latestSnapshot().id())
                    .as("nothing committed twice")
                    .isEqualTo(snapshots);
        }
        assertExact(m);
        assertReadableWithoutMerge(m);
        m.logRound(200);
        assertExact(m);
        assertReadableWithoutMerge(m);
    }

    @Test
    void t48_roundsAfterAnotherEngineAddedAColumnStayExact() throws Exception {
        TablePath path = TablePath.of("db", "evolved");
        Model m = new Model(path, table(false, true, Map.of()));
        storage.catalog().createTable(path, m.t);
        m.snapshotRound(1000);
        m.logRound(200);
        try (Catalog catalog = nativeCatalog()) {
            catalog.alterTable(
                    Identifier.create(path.database(), path.table()),
                    org.apache.paimon.schema.SchemaChange.addColumn(
                            "note", org.apache.paimon.types.DataTypes.STRING()),
                    false);
        }
        storage.close();
        storage = newStorage();
        for (int r = 0; r < 2; r++) {
            m.logRound(200);
            assertExact(m);
            assertReadableWithoutMerge(m);
        }
    }

    @Test
    void t48_aCompactionThatRacedARoundNeverLosesTheRoundsDeletes() throws Exception {
        TablePath path = TablePath.of("db", "race");
        Model m = new Model(path, table(false, true, Map.of()));
        storage.catalog().createTable(path, m.t);
        m.snapshotRound(1500);
        for (int r = 0; r < 3; r++) {
            m.logRound(300);
        }
        long maintenanceId = 200;
        List<LakeCompactionResult> results = new ArrayList<>();
        for (int b = 0; b < BUCKETS; b++) {
            CompactionTask task =
                    new CompactionTask(
                            path,
                            TABLE_ID,
                            m.t,
                            maintenanceId,
                            new LakeBucket(
                                    dev.tributary.lake.api.maintenance.LakeTableStats.UNPARTITIONED,
                                    b),
                            1,
                            -1);
            try (LakeCompactor c = storage.createCompactor(task)) {
                results.add(c.compact());
            }
        }
        assertThat(results).anyMatch(r -> !r.isEmpty());
        // a round lands first: it updates and deletes rows of the files the compaction rewrote
        m.logRound(600);
        MaintenanceCommitResult.Outcome outcome;
        try (LakeMaintainer mt = storage.createMaintainer(path)) {
            outcome = mt.commitCompaction(TABLE_ID, maintenanceId, results).outcome();
        }
        assertThat(outcome)
                .as("the compaction gives way to the round (seed %d)", seed)
                .isEqualTo(MaintenanceCommitResult.Outcome.CONFLICT);
        assertExact(m);
        assertReadableWithoutMerge(m);
    }

    @Test
    void t48_levelZeroFilesAreCompactedUpByMaintenanceEvenUnderMaxFiles() throws Exception {
        TablePath path = TablePath.of("db", "hidden");
        Model m = new Model(path, table(false, true, Map.of()));
        storage.catalog().createTable(path, m.t);
        m.snapshotRound(1000);
        m.logRound(100);
        // another engine's write-only writer (or a round whose compact snapshot failed after its
        // append snapshot landed) leaves level-0 files, which readers of the table skip
        List<Long> ids = new ArrayList<>(m.rows.keySet()).subList(0, 50);
        try (Catalog catalog = nativeCatalog()) {
            FileStoreTable table = nativeTable(catalog, path).copy(Map.of("write-only", "true"));
            var rowType = table.rowType();
            var wb = table.newBatchWriteBuilder();
            try (var w = wb.newWrite();
                    var c = wb.newCommit()) {
                for (long id : ids) {
                    Row r = Row.of(id, "other-engine-" + id, 7);
                    org.apache.paimon.data.GenericRow g =
                            new org.apache.paimon.data.GenericRow(rowType.getFieldCount());
                    for (int i = 0; i < rowType.getFieldCount(); i++) {
                        switch (rowType.getFieldNames().get(i)) {
                            case "id" -> g.setField(i, id);
                            case "name" ->
                                    g.setField(
                                            i,
                                            org.apache.paimon.data.BinaryString.fromString(
                                                    "other-engine-" + id));
                            case "score" -> g.setField(i, 7);
                            case "__bucket" -> g.setField(i, m.bucketOf(r));
                            case "__offset" -> g.setField(i, 0L);
                            case "__timestamp" ->
                                    g.setField(
                                            i,
                                            org.apache.paimon.data.Timestamp.fromEpochMillis(
                                                    BASE_TS));
                            default -> {}
                        }
                    }
                    w.write(g);
                    m.rows.put(id, r);
                }
                c.commit(w.prepareCommit());
            }
        }
        assertThat(readWithPaimon(m)).as("hidden at level 0").isNotEqualTo(m.expected());

        CompactionPlan plan;
        try (LakeMaintainer mt = storage.createMaintainer(path)) {
            plan = mt.planCompaction(new CompactionPolicy(5, 100));
        }
        assertThat(plan.units()).as("buckets with level-0 files, under max-files").isNotEmpty();
        long maintenanceId = 300;
        List<LakeCompactionResult> results = new ArrayList<>();
        for (LakeBucket unit : plan.units()) {
            try (LakeCompactor c =
                    storage.createCompactor(
                            new CompactionTask(path, TABLE_ID, m.t, maintenanceId, unit, 5, -1))) {
                results.add(c.compact());
            }
        }
        try (LakeMaintainer mt = storage.createMaintainer(path)) {
            assertThat(mt.commitCompaction(TABLE_ID, maintenanceId, results).outcome())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        }
        assertExact(m);
        assertReadableWithoutMerge(m);
    }

    /**
     * A round is two snapshots here (its files at level 0, then their compaction), both with the
     * round's properties. A union read that plans between the two must take the round before it:
     * the first one's rows sit at level 0, which readers skip (found by AbstractUnionReadITCase).
     */
    @Test
    void t40_t48_aReaderBetweenARoundsTwoSnapshotsTakesTheRoundBefore() throws Exception {
        TablePath path = TablePath.of("db", "halfway");
        Model m = new Model(path, table(false, true, Map.of()));
        storage.catalog().createTable(path, m.t);
        m.logRound(300);
        m.logRound(300);
        try (Catalog catalog = nativeCatalog()) {
            readBetweenTheTwoSnapshots(m, path, nativeTable(catalog, path));
        }
    }

    private void readBetweenTheTwoSnapshots(Model m, TablePath path, FileStoreTable table)
            throws Exception {
        SnapshotManager snapshots = table.snapshotManager();
        long compacted = snapshots.latestSnapshotId();
        assertThat(snapshots.snapshot(compacted).commitKind())
                .isEqualTo(Snapshot.CommitKind.COMPACT);
        assertThat(snapshots.snapshot(compacted - 1).commitKind())
                .isEqualTo(Snapshot.CommitKind.APPEND);
        try (LakeReader reader = storage.createReader(path)) {
            assertThat(reader.latestTieringSnapshot(TABLE_ID).orElseThrow().snapshotId())
                    .isEqualTo(compacted);
            // the moment between the round's two snapshots: the compaction not there yet
            table.fileIO().delete(snapshots.snapshotPath(compacted), false);
            snapshots.commitLatestHint(compacted - 1);
            LakeSnapshot s = reader.latestTieringSnapshot(TABLE_ID).orElseThrow();
            assertThat(s.properties().roundId()).isEqualTo(m.round - 1);
            assertThat(s.snapshotId()).isLessThan(compacted - 1);
        }
        try (LakeCommitter c = storage.createCommitter(path)) {
            // the committer still sees the round as landed (its retry repairs the compaction)
            assertThat(c.latestTieringSnapshot(TABLE_ID).orElseThrow().properties().roundId())
                    .isEqualTo(m.round);
        }
    }

    @Test
    void t48_aRoundWhoseCompactionLostToAConcurrentCompactionIsCompactedByTheCommitter()
            throws Exception {
        TablePath path = TablePath.of("db", "lost");
        Model m = new Model(path, table(false, true, Map.of()));
        storage.catalog().createTable(path, m.t);
        m.snapshotRound(1500);
        for (int r = 0; r < 3; r++) {
            m.logRound(300);
        }
        // the round's writers compact against the bucket as it is now ...
        List<LakeWriteResult> round = m.write(SplitSource.LOG, m.logSplits(300));
        // ... and Tributary's maintenance compacts the same buckets and commits first
        long maintenanceId = 400;
        List<LakeCompactionResult> compaction = new ArrayList<>();
        for (int b = 0; b < BUCKETS; b++) {
            try (LakeCompactor c =
                    storage.createCompactor(
                            new CompactionTask(
                                    path,
                                    TABLE_ID,
                                    m.t,
                                    maintenanceId,
                                    new LakeBucket(
                                            dev.tributary.lake.api.maintenance.LakeTableStats
                                                    .UNPARTITIONED,
                                            b),
                                    1,
                                    -1))) {
                compaction.add(c.compact());
            }
        }
        assertThat(compaction).anyMatch(r -> !r.isEmpty());
        try (LakeMaintainer mt = storage.createMaintainer(path)) {
            assertThat(mt.commitCompaction(TABLE_ID, maintenanceId, compaction).outcome())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        }
        // the round's files land; the compaction of them conflicts, so the committer compacts
        assertThat(m.commit(round))
                .isIn(
                        LakeCommitResult.Outcome.COMMITTED,
                        LakeCommitResult.Outcome.ALREADY_COMMITTED);
        assertExact(m);
        assertReadableWithoutMerge(m);
        try (LakeCommitter c = storage.createCommitter(path)) {
            assertThat(c.latestTieringSnapshot(TABLE_ID).orElseThrow().properties().roundId())
                    .isEqualTo(m.round);
        }
        m.logRound(200);
        assertExact(m);
        assertReadableWithoutMerge(m);
    }
}

package dev.tributary.lake.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.TableOptions;
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
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.maintenance.ExpiryPolicy;
import dev.tributary.lake.api.maintenance.ExpiryResult;
import dev.tributary.lake.api.maintenance.LakeCompactionResult;
import dev.tributary.lake.api.maintenance.LakeCompactionResultSerializer;
import dev.tributary.lake.api.maintenance.LakeCompactor;
import dev.tributary.lake.api.maintenance.LakeMaintainer;
import dev.tributary.lake.api.maintenance.LakeTableStats;
import dev.tributary.lake.api.maintenance.MaintenanceCommitResult;
import dev.tributary.lake.api.write.AttemptFileNames;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lake maintenance every format must provide (T38, T39), proven on real tables read back with the
 * format's own reader: compaction bounds the live files per bucket and keeps every row (deletes
 * applied), its snapshots are invisible to reconciliation, it gives way to what tiering committed
 * meanwhile, and snapshot expiry keeps the retention and the newest tiering snapshot. Everything
 * crosses the versioned serializers, as between the tiering job and the server.
 */
public abstract class LakeMaintenanceContractTest {
    protected static final long BASE_TS = 1_764_000_000_000L;
    protected static final long TABLE_ID = 42;

    @TempDir protected Path warehouse;
    protected LakeStorage storage;
    private long nextMaintenanceId = 1;

    protected abstract LakeStorage createStorage(Path warehouse);

    protected abstract String format();

    /**
     * Every live row read with the format's OWN reader, as column name -> value (Tributary value
     * classes), every lake column included.
     */
    protected abstract List<Map<String, Object>> readRows(TablePath path) throws Exception;

    @BeforeEach
    void openStorage() {
        storage = createStorage(warehouse);
    }

    @AfterEach
    void closeStorage() {
        if (storage != null) {
            storage.close();
        }
    }

    // ---------------------------------------------------------------- tables and rounds

    protected TableDescriptor logTable(int buckets) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT())
                                .column("name", DataTypes.STRING())
                                .build())
                .bucketCount(buckets)
                .bucketKeys("id")
                .property(
                        TableOptions.BUCKET_FUNCTION.key(),
                        BucketFunctionType.forLakeFormat(format()).value())
                .build();
    }

    protected TableDescriptor pkTable(int buckets) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.INT())
                                .column("name", DataTypes.STRING())
                                .column("score", DataTypes.BIGINT())
                                .primaryKey("id")
                                .build())
                .bucketCount(buckets)
                .property(
                        TableOptions.BUCKET_FUNCTION.key(),
                        BucketFunctionType.forLakeFormat(format()).value())
                .build();
    }

    /** A log table partitioned by {@code dt} (STRING), bucketed by {@code id}. */
    protected TableDescriptor partitionedLogTable(int buckets) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT())
                                .column("name", DataTypes.STRING())
                                .column("dt", DataTypes.STRING())
                                .build())
                .partitionKeys("dt")
                .bucketCount(buckets)
                .bucketKeys("id")
                .property(
                        TableOptions.BUCKET_FUNCTION.key(),
                        BucketFunctionType.forLakeFormat(format()).value())
                .build();
    }

    /** A PK table (id, dt) partitioned by {@code dt} (STRING), bucketed by {@code id}. */
    protected TableDescriptor partitionedPkTable(int buckets) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.INT())
                                .column("name", DataTypes.STRING())
                                .column("score", DataTypes.BIGINT())
                                .column("dt", DataTypes.STRING())
                                .primaryKey("id", "dt")
                                .build())
                .partitionKeys("dt")
                .bucketCount(buckets)
                .property(
                        TableOptions.BUCKET_FUNCTION.key(),
                        BucketFunctionType.forLakeFormat(format()).value())
                .build();
    }

    /** A table being tiered: its rounds, its offsets and what the lake must hold. */
    protected final class Tiered {
        final TablePath path;
        final TableDescriptor table;
        final BucketFunction buckets;
        final Map<Integer, Long> offsets = new TreeMap<>();

        /** Offsets per (partition, bucket); the partition ids of {@link #partitionIds}. */
        final TreeMap<PartitionBucket, Long> partitionOffsets = new TreeMap<>();

        final Map<String, Long> partitionIds = new TreeMap<>();
        final Map<Object, Map<String, Object>> expected = new HashMap<>();
        List<LakeWriteResult> lastResults = List.of();
        long round;

        /** The {@code dt} values {@link #inserts} and {@link #updatesAndDeletes} write to. */
        List<String> days = List.of();

        Tiered(String name, TableDescriptor table) {
            this.path = TablePath.of("db", name);
            this.table = table;
            // a log table without a bucket key spreads its rows over the buckets round robin
            this.buckets = table.bucketKeys().isEmpty() ? null : BucketFunction.of(table);
            storage.catalog().createTable(path, table);
        }

        /** A partitioned table's rounds write these days (each key once per day). */
        Tiered days(String... days) {
            this.days = List.of(days);
            return this;
        }

        private String partitionOf(Row r) {
            if (!table.isPartitioned()) {
                return null;
            }
            return "dt=" + r.getField(table.schema().columnNames().indexOf("dt"));
        }

        /**
         * One round: one split per (partition, store bucket) = lake (partition, bucket); returns
         * the lake commit.
         */
        LakeCommitResult round(List<Row> rows, List<ChangeType> types) {
            round++;
            Map<PartitionBucket, List<Object[]>> splits = new TreeMap<>();
            for (int i = 0; i < rows.size(); i++) {
                Row r = rows.get(i);
                int b = buckets == null ? i % table.bucketCount() : buckets.bucketOf(r);
                String partition = partitionOf(r);
                long partitionId =
                        partition == null
                                ? TableBucket.NO_PARTITION
                                : partitionIds.computeIfAbsent(
                                        partition, x -> 100L + partitionIds.size());
                PartitionBucket pb = new PartitionBucket(partitionId, b);
                long offset = partitionOffsets.merge(pb, 1L, Long::sum) - 1;
                if (partition == null) {
                    offsets.put(b, offset + 1);
                }
                splits.computeIfAbsent(pb, x -> new ArrayList<>())
                        .add(new Object[] {r, types.get(i), offset});
                Map<String, Object> named = new HashMap<>();
                for (int c = 0; c < r.arity(); c++) {
                    named.put(table.schema().columns().get(c).name(), r.getField(c));
                }
                Object key =
                        table.hasPrimaryKey()
                                ? key((Integer) r.getField(0), partition)
                                : partition + ":" + b + ":" + offset;
                switch (types.get(i)) {
                    case UPDATE_BEFORE, DELETE -> expected.remove(key);
                    default -> expected.put(key, named);
                }
            }
            Map<Long, String> names = new TreeMap<>();
            partitionIds.forEach((n, id) -> names.put(id, n));
            List<LakeWriteResult> results = new ArrayList<>();
            splits.forEach(
                    (pb, recs) -> {
                        int b = pb.bucket();
                        LakeWriterContext ctx =
                                table.isPartitioned()
                                        ? new LakeWriterContext(
                                                path,
                                                TABLE_ID,
                                                table,
                                                b,
                                                round,
                                                round,
                                                pb.partitionId(),
                                                PartitionSpec.parse(names.get(pb.partitionId())))
                                        : new LakeWriterContext(
                                                path, TABLE_ID, table, b, round, round);
                        try (LakeWriter w = storage.createWriter(ctx)) {
                            for (Object[] rec : recs) {
                                long offset = (Long) rec[2];
                                w.write((Row) rec[0], (ChangeType) rec[1], b, offset, BASE_TS);
                            }
                            byte[] wire =
                                    LakeWriteResultSerializer.INSTANCE.serialize(w.complete());
                            results.add(LakeWriteResultSerializer.INSTANCE.deserialize(wire));
                        }
                    });
            lastResults = results;
            try (LakeCommitter c = storage.createCommitter(path)) {
                return c.commit(
                        results,
                        table.isPartitioned()
                                ? TieringSnapshotProperties.of(
                                        TABLE_ID,
                                        round,
                                        round,
                                        new TreeMap<>(partitionOffsets),
                                        names,
                                        -1)
                                : TieringSnapshotProperties.of(
                                        TABLE_ID, round, round, new TreeMap<>(offsets)));
            }
        }

        private Object key(int k, String partition) {
            return partition == null ? (Object) k : k + "@" + partition;
        }

        private List<String> daysOrNone() {
            List<String> out = new ArrayList<>(days);
            if (out.isEmpty()) {
                out.add(null);
            }
            return out;
        }

        LakeCommitResult inserts(int from, int to) {
            List<Row> rows = new ArrayList<>();
            List<ChangeType> types = new ArrayList<>();
            for (int k = from; k < to; k++) {
                for (String day : daysOrNone()) {
                    rows.add(row(k, "v" + round + "-" + k, day));
                    types.add(table.hasPrimaryKey() ? ChangeType.INSERT : ChangeType.APPEND_ONLY);
                }
            }
            return round(rows, types);
        }

        Row row(int k, String name) {
            return row(k, name, null);
        }

        private Row row(int k, String name, String day) {
            if (day == null) {
                return table.hasPrimaryKey() ? Row.of(k, name, (long) k) : Row.of((long) k, name);
            }
            return table.hasPrimaryKey()
                    ? Row.of(k, name, (long) k, day)
                    : Row.of((long) k, name, day);
        }

        /** Updates every key in [from, to) whose k % 3 == 0 and deletes those with k % 5 == 0. */
        LakeCommitResult updatesAndDeletes(int from, int to) {
            List<Row> rows = new ArrayList<>();
            List<ChangeType> types = new ArrayList<>();
            for (int k = from; k < to; k++) {
                for (String day : daysOrNone()) {
                    Map<String, Object> old =
                            expected.get(key(k, day == null ? null : "dt=" + day));
                    if (old == null) {
                        continue;
                    }
                    Row before =
                            day == null
                                    ? Row.of(k, old.get("name"), old.get("score"))
                                    : Row.of(k, old.get("name"), old.get("score"), day);
                    if (k % 5 == 0) {
                        rows.add(before);
                        types.add(ChangeType.DELETE);
                    } else if (k % 3 == 0) {
                        rows.add(before);
                        types.add(ChangeType.UPDATE_BEFORE);
                        String name = "u" + round + "-" + k;
                        rows.add(
                                day == null
                                        ? Row.of(k, name, -(long) k)
                                        : Row.of(k, name, -(long) k, day));
                        types.add(ChangeType.UPDATE_AFTER);
                    }
                }
            }
            return round(rows, types);
        }

        /** Drops a lake partition (T33) and the rows the lake must no longer hold. */
        void dropPartition(String day) {
            storage.catalog().dropPartition(path, table, PartitionSpec.parse("dt=" + day));
            expected.values().removeIf(r -> day.equals(r.get("dt")));
        }

        /** The user columns of every live row, by the format's own reader. */
        List<Map<String, Object>> userRows() throws Exception {
            List<Map<String, Object>> out = new ArrayList<>();
            for (Map<String, Object> r : readRows(path)) {
                Map<String, Object> u = new HashMap<>();
                table.schema().columns().forEach(c -> u.put(c.name(), r.get(c.name())));
                out.add(u);
            }
            return out;
        }

        void assertLakeHoldsExactlyTheExpectedRows() throws Exception {
            assertThat(userRows())
                    .as("every row once, deletes applied")
                    .containsExactlyInAnyOrderElementsOf(expected.values());
        }

        LakeTableStats stats() {
            try (LakeMaintainer m = storage.createMaintainer(path)) {
                return m.stats();
            }
        }

        CompactionPlan plan(int maxFiles) {
            return plan(maxFiles, 1024);
        }

        CompactionPlan plan(int maxFiles, int maxBuckets) {
            try (LakeMaintainer m = storage.createMaintainer(path)) {
                return m.planCompaction(new CompactionPolicy(maxFiles, maxBuckets));
            }
        }

        /** Compacts {@code plan}'s units as one grant, shipping every result through bytes. */
        List<LakeCompactionResult> compact(CompactionPlan plan, int maxFiles, long maintenanceId) {
            List<LakeCompactionResult> out = new ArrayList<>();
            for (LakeBucket unit : plan.units()) {
                CompactionTask task =
                        new CompactionTask(
                                path,
                                TABLE_ID,
                                table,
                                maintenanceId,
                                unit,
                                maxFiles,
                                plan.stats().snapshotId());
                try (LakeCompactor c = storage.createCompactor(task)) {
                    byte[] wire = LakeCompactionResultSerializer.INSTANCE.serialize(c.compact());
                    LakeCompactionResult back =
                            LakeCompactionResultSerializer.INSTANCE.deserialize(wire);
                    for (String f : back.newFiles()) {
                        assertThat(AttemptFileNames.parseMaintenance(f))
                                .as("compacted files carry their grant (T23)")
                                .contains(new AttemptFileNames.Attempt(TABLE_ID, maintenanceId));
                    }
                    out.add(back);
                }
            }
            return out;
        }

        MaintenanceCommitResult commitCompaction(
                long maintenanceId, List<LakeCompactionResult> results) {
            try (LakeMaintainer m = storage.createMaintainer(path)) {
                return m.commitCompaction(TABLE_ID, maintenanceId, results);
            }
        }

        Optional<LakeSnapshot> latestTieringSnapshot() {
            try (LakeCommitter c = storage.createCommitter(path)) {
                return c.latestTieringSnapshot(TABLE_ID);
            }
        }

        /** Files on disk no retained snapshot references, whatever their age or writer. */
        List<String> unreferencedFiles() {
            try (LakeCommitter c = storage.createCommitter(path)) {
                return normalized(
                        c.listOrphanFiles(OrphanPolicy.olderThan(Instant.now().plusSeconds(3600))));
            }
        }
    }

    private long maintenanceId() {
        return nextMaintenanceId++;
    }

    // ---------------------------------------------------------------- T38

    @Test
    void t38_compactionOfALogTableBoundsFilesPerBucketAndKeepsEveryRow() throws Exception {
        Tiered t = new Tiered("clicks", logTable(4));
        for (int r = 0; r < 8; r++) {
            t.inserts(r * 40, r * 40 + 40);
        }
        assertThat(t.stats().maxDataFilesPerBucket()).isEqualTo(8);
        CompactionPlan plan = t.plan(3);
        assertThat(plan.buckets()).as("every bucket has 8 files > 3").hasSize(4);
        long id = maintenanceId();
        MaintenanceCommitResult c = t.commitCompaction(id, t.compact(plan, 3, id));
        assertThat(c.outcome()).isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        assertThat(c.filesRemoved()).isEqualTo(32);
        LakeTableStats after = t.stats();
        assertThat(after.maxDataFilesPerBucket()).isBetween(1, 3);
        assertThat(after.snapshotId()).isEqualTo(c.snapshotId());
        t.assertLakeHoldsExactlyTheExpectedRows();
        assertThat(t.plan(3).isEmpty()).as("nothing left to compact").isTrue();
    }

    @Test
    void t38_aLogTableWithoutBucketKeyIsCompactedAsOneLakeBucket() throws Exception {
        TableDescriptor unkeyed =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT())
                                        .column("name", DataTypes.STRING())
                                        .build())
                        .bucketCount(4)
                        .build();
        Tiered t = new Tiered("raw", unkeyed);
        for (int r = 0; r < 6; r++) {
            t.inserts(r * 30, r * 30 + 30);
        }
        LakeTableStats before = t.stats();
        assertThat(before.dataFilesPerBucket().keySet())
                .as("no lake buckets: one group of files")
                .containsExactly(0);
        assertThat(before.dataFiles()).isGreaterThanOrEqualTo(6);
        long id = maintenanceId();
        CompactionPlan plan = t.plan(3);
        assertThat(plan.buckets()).containsExactly(0);
        MaintenanceCommitResult c = t.commitCompaction(id, t.compact(plan, 3, id));
        assertThat(c.outcome()).isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        assertThat(t.stats().dataFiles()).isLessThanOrEqualTo(3);
        t.assertLakeHoldsExactlyTheExpectedRows();
        t.inserts(200, 230);
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    @Test
    void t38_compactionOfAPkTableAppliesUpdatesAndDeletes() throws Exception {
        Tiered t = new Tiered("users", pkTable(3));
        t.inserts(0, 300);
        for (int r = 0; r < 6; r++) {
            t.updatesAndDeletes(r * 50, 300);
            t.inserts(300 + r * 10, 310 + r * 10);
        }
        int filesBefore = t.stats().maxDataFilesPerBucket() + t.stats().deleteFiles();
        assertThat(filesBefore).isGreaterThan(4);
        t.assertLakeHoldsExactlyTheExpectedRows();

        long id = maintenanceId();
        CompactionPlan plan = t.plan(4);
        assertThat(plan.buckets()).isNotEmpty();
        MaintenanceCommitResult c = t.commitCompaction(id, t.compact(plan, 4, id));
        assertThat(c.outcome()).isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        LakeTableStats after = t.stats();
        assertThat(after.maxDataFilesPerBucket()).isLessThanOrEqualTo(4);
        assertThat(after.deleteFiles())
                .as("deletes are applied, so readers stop merging them")
                .isZero();
        t.assertLakeHoldsExactlyTheExpectedRows();

        // tiering goes on on top of the compacted files
        t.updatesAndDeletes(0, 400);
        t.inserts(400, 450);
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    @Test
    void t38_t21_compactionSnapshotsAreNotTieringSnapshots() throws Exception {
        Tiered t = new Tiered("events", logTable(2));
        for (int r = 0; r < 5; r++) {
            t.inserts(r * 10, r * 10 + 10);
        }
        LakeSnapshot tiering = t.latestTieringSnapshot().orElseThrow();
        long id = maintenanceId();
        MaintenanceCommitResult c = t.commitCompaction(id, t.compact(t.plan(2), 2, id));
        assertThat(c.outcome()).isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        assertThat(c.snapshotId()).isNotEqualTo(tiering.snapshotId());
        assertThat(t.stats().snapshotId()).isEqualTo(c.snapshotId());
        assertThat(t.latestTieringSnapshot())
                .as("reconciliation (T21) still finds the round, not the compaction")
                .contains(tiering);
        // a retried commit of that round is still recognised as already committed
        try (LakeCommitter committer = storage.createCommitter(t.path)) {
            assertThat(
                            committer
                                    .commit(
                                            t.lastResults,
                                            TieringSnapshotProperties.of(TABLE_ID, 5, 5, t.offsets))
                                    .outcome())
                    .isEqualTo(LakeCommitResult.Outcome.ALREADY_COMMITTED);
        }
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    @Test
    void t38_aRoundCommittedWhileTheCompactionRanWinsAndStaysExact() throws Exception {
        // equality deletes committed after the compaction's base apply to its files by sequence
        // number: tiering only added files and deletes, no reason for the compaction to yield
        roundsWhileCompacting("orders", TableOptions.PkDeleteMode.EQUALITY, true);
    }

    @Test
    void t48_t38_aRoundCommittedWhileTheCompactionRanWinsAndStaysExact() throws Exception {
        // deletes by position point at the files the compaction rewrites: it may give way
        roundsWhileCompacting("orders_by_position", TableOptions.PkDeleteMode.POSITION, false);
    }

    /**
     * Rounds updating the compacted keys commit while a compaction runs; the rounds win, the
     * compaction commits ({@code mustCommit}) or gives way, and the lake stays exact either way.
     */
    private void roundsWhileCompacting(
            String name, TableOptions.PkDeleteMode mode, boolean mustCommit) throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        Tiered t = new Tiered(name, withPkDeletes(pkTable(2), mode));
        t.inserts(0, 200);
        for (int r = 0; r < 5; r++) {
            t.updatesAndDeletes(random.nextInt(100), 200);
        }
        long id = maintenanceId();
        CompactionPlan plan = t.plan(2);
        List<LakeCompactionResult> results = t.compact(plan, 2, id);
        // tiering commits rounds touching the compacted keys before the compaction commits
        t.updatesAndDeletes(0, 200);
        t.inserts(200, 230);
        t.updatesAndDeletes(0, 230);
        MaintenanceCommitResult c = t.commitCompaction(id, results);
        if (mustCommit) {
            assertThat(c.outcome())
                    .as("seed %s: %s", seed, c.conflict())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        } else if (c.outcome() == MaintenanceCommitResult.Outcome.CONFLICT) {
            try (LakeMaintainer m = storage.createMaintainer(t.path)) {
                m.abortCompaction(results);
            }
        }
        t.assertLakeHoldsExactlyTheExpectedRows();
        assertThat(t.latestTieringSnapshot().orElseThrow().properties().roundId())
                .isEqualTo(t.round);
        t.updatesAndDeletes(0, 230);
        t.assertLakeHoldsExactlyTheExpectedRows();
        // planned again on the new base, the compaction commits
        long again = maintenanceId();
        assertThat(t.commitCompaction(again, t.compact(t.plan(2), 2, again)).outcome())
                .as("seed %s", seed)
                .isIn(
                        MaintenanceCommitResult.Outcome.COMMITTED,
                        MaintenanceCommitResult.Outcome.NOTHING_TO_COMMIT);
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    private static TableDescriptor withPkDeletes(
            TableDescriptor table, TableOptions.PkDeleteMode mode) {
        Map<String, String> p = new java.util.HashMap<>(table.properties());
        p.put(
                TableOptions.DATALAKE_PK_DELETES.key(),
                mode.name().toLowerCase(java.util.Locale.ROOT));
        return table.withProperties(p);
    }

    @Test
    void t38_aCompactionOfFilesAnotherCompactionReplacedGivesWay() throws Exception {
        Tiered t = new Tiered("logs", logTable(2));
        for (int r = 0; r < 6; r++) {
            t.inserts(r * 20, r * 20 + 20);
        }
        CompactionPlan plan = t.plan(2);
        long first = maintenanceId();
        long second = maintenanceId();
        List<LakeCompactionResult> a = t.compact(plan, 2, first);
        List<LakeCompactionResult> b = t.compact(plan, 2, second);
        assertThat(t.commitCompaction(first, a).outcome())
                .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        MaintenanceCommitResult late = t.commitCompaction(second, b);
        assertThat(late.outcome()).isEqualTo(MaintenanceCommitResult.Outcome.CONFLICT);
        assertThat(late.conflict()).isNotBlank();
        t.assertLakeHoldsExactlyTheExpectedRows();
        List<String> bFiles = b.stream().flatMap(r -> r.newFiles().stream()).toList();
        assertThat(bFiles).isNotEmpty();
        assertThat(t.unreferencedFiles()).containsAll(normalized(bFiles));
        try (LakeMaintainer m = storage.createMaintainer(t.path)) {
            m.abortCompaction(b);
            // aborting the committed grant's results deletes nothing it committed
            m.abortCompaction(a);
        }
        assertThat(t.unreferencedFiles()).doesNotContainAnyElementsOf(normalized(bFiles));
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    @Test
    void t23_filesOfADeadGrantAreOrphansOnceTheGrantIsKnownDead() throws Exception {
        Tiered t = new Tiered("metrics", logTable(2));
        for (int r = 0; r < 4; r++) {
            t.inserts(r * 20, r * 20 + 20);
        }
        long id = maintenanceId();
        List<String> left =
                normalized(
                        t.compact(t.plan(2), 2, id).stream()
                                .flatMap(r -> r.newFiles().stream())
                                .toList());
        assertThat(left).isNotEmpty();
        Instant longAgo = Instant.now().minus(Duration.ofDays(1));
        try (LakeCommitter c = storage.createCommitter(t.path)) {
            assertThat(c.deleteOrphanFiles(new OrphanPolicy(longAgo, TABLE_ID, 1000, id - 1)))
                    .as("a grant that may still commit keeps its files")
                    .isEmpty();
            assertThat(normalized(c.deleteOrphanFiles(new OrphanPolicy(longAgo, TABLE_ID, 0, id))))
                    .containsExactlyInAnyOrderElementsOf(left);
        }
        assertThat(t.unreferencedFiles()).isEmpty();
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    // ---------------------------------------------------------------- T38 per (partition, bucket)

    private static final List<String> DAYS = List.of("2026-12-01", "2026-12-02", "2026-12-03");

    /** The partition names of {@code days}, as the stats name them. */
    private static List<String> partitionNames(List<String> days) {
        return days.stream().map(d -> "dt=" + d).toList();
    }

    @Test
    void t38_t32_aPartitionedLogTableIsCompactedPerPartitionAndBucket() throws Exception {
        Tiered t = new Tiered("visits", partitionedLogTable(3)).days(DAYS.toArray(String[]::new));
        for (int r = 0; r < 5; r++) {
            t.inserts(r * 30, r * 30 + 30);
        }
        // two more rounds in the first day only: its buckets have 7 files, the others' 5
        t.days(DAYS.get(0));
        t.inserts(150, 180);
        t.inserts(180, 210);
        t.days(DAYS.toArray(String[]::new));
        LakeTableStats before = t.stats();
        assertThat(before.dataFilesPerPartition().keySet())
                .as("files counted per lake partition")
                .containsExactlyElementsOf(partitionNames(DAYS));
        for (String p : partitionNames(DAYS)) {
            assertThat(before.dataFilesPerPartition().get(p).keySet())
                    .as("partition %s has all three buckets", p)
                    .containsExactly(0, 1, 2);
        }
        assertThat(before.dataFilesPerPartition().get("dt=" + DAYS.get(0)).values())
                .containsOnly(7);
        assertThat(before.dataFilesPerPartition().get("dt=" + DAYS.get(1)).values())
                .containsOnly(5);
        assertThat(before.dataFiles()).isEqualTo(3 * 3 * 5 + 3 * 2);
        assertThat(before.maxDataFilesPerBucket())
                .as("the most files ONE (partition, bucket) holds, not a sum over partitions")
                .isEqualTo(7);
        assertThat(t.plan(7).isEmpty())
                .as(
                        "no (partition, bucket) is over 7 files, though a bucket has 17 over partitions")
                .isTrue();

        CompactionPlan plan = t.plan(5);
        assertThat(plan.units())
                .as("only the first day's buckets are over the limit")
                .containsExactlyInAnyOrder(
                        new LakeBucket("dt=" + DAYS.get(0), 0),
                        new LakeBucket("dt=" + DAYS.get(0), 1),
                        new LakeBucket("dt=" + DAYS.get(0), 2));
        long id = maintenanceId();
        MaintenanceCommitResult c = t.commitCompaction(id, t.compact(plan, 5, id));
        assertThat(c.outcome()).isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        assertThat(c.filesRemoved())
                .as("only the first day's buckets were over the limit")
                .isEqualTo(3 * 7);
        LakeTableStats after = t.stats();
        assertThat(after.dataFilesPerPartition().keySet())
                .as("the table keeps its partitions")
                .containsExactlyElementsOf(partitionNames(DAYS));
        assertThat(after.dataFilesPerPartition().get("dt=" + DAYS.get(0)).values())
                .as("compacted in its own partition")
                .containsOnly(1);
        assertThat(after.dataFilesPerPartition().get("dt=" + DAYS.get(1)))
                .isEqualTo(before.dataFilesPerPartition().get("dt=" + DAYS.get(1)));
        assertThat(after.dataFilesPerPartition().get("dt=" + DAYS.get(2)))
                .isEqualTo(before.dataFilesPerPartition().get("dt=" + DAYS.get(2)));
        t.assertLakeHoldsExactlyTheExpectedRows();

        // every partition over the limit: each compacted apart, none mixed with another
        t.inserts(210, 240);
        t.inserts(240, 270);
        id = maintenanceId();
        c = t.commitCompaction(id, t.compact(t.plan(2), 2, id));
        assertThat(c.outcome()).isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        after = t.stats();
        for (String p : partitionNames(DAYS)) {
            assertThat(after.dataFilesPerPartition().get(p))
                    .as("partition %s keeps each of its buckets, compacted", p)
                    .containsOnlyKeys(0, 1, 2)
                    .allSatisfy((b, n) -> assertThat(n).isBetween(1, 2));
        }
        assertThat(t.plan(2).isEmpty()).isTrue();
        t.assertLakeHoldsExactlyTheExpectedRows();

        // the lake still partitions by dt: dropping one partition takes exactly its rows
        t.dropPartition(DAYS.get(1));
        t.assertLakeHoldsExactlyTheExpectedRows();
        assertThat(t.stats().dataFilesPerPartition().keySet())
                .containsExactly("dt=" + DAYS.get(0), "dt=" + DAYS.get(2));
        t.inserts(270, 300);
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    @Test
    void t38_t32_theBudgetCountsEachPartitionsBucketSoAGrantStaysBounded() throws Exception {
        Tiered t = new Tiered("budget", partitionedLogTable(3)).days(DAYS.toArray(String[]::new));
        for (int r = 0; r < 4; r++) {
            t.inserts(r * 30, r * 30 + 30);
        }
        // every one of the 9 (partition, bucket) units holds 4 files; a budget of 2 units per grant
        int grants = 0;
        Set<LakeBucket> compacted = new HashSet<>();
        for (CompactionPlan plan = t.plan(2, 2); !plan.isEmpty(); plan = t.plan(2, 2)) {
            assertThat(plan.units())
                    .as("the budget, in units")
                    .hasSize(Math.min(2, 9 - compacted.size()));
            long id = maintenanceId();
            List<LakeCompactionResult> results = t.compact(plan, 2, id);
            assertThat(results.stream().mapToInt(LakeCompactionResult::filesBefore).sum())
                    .as("a grant rewrites its units only, not the bucket in every partition")
                    .isEqualTo(plan.units().size() * 4);
            assertThat(t.commitCompaction(id, results).outcome())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
            for (LakeBucket u : plan.units()) {
                assertThat(compacted.add(u)).as("%s planned again after compaction", u).isTrue();
                assertThat(t.stats().dataFilesPerPartition().get(u.partition()).get(u.bucket()))
                        .isEqualTo(1);
            }
            t.assertLakeHoldsExactlyTheExpectedRows();
            assertThat(++grants).as("9 units, 2 per grant").isLessThanOrEqualTo(5);
        }
        assertThat(compacted).hasSize(9);
    }

    @Test
    void t38_t32_aPartitionedPkTableIsCompactedPerPartitionAndBucketWithItsChanges()
            throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        Tiered t = new Tiered("accounts", partitionedPkTable(2)).days(DAYS.toArray(String[]::new));
        t.inserts(0, 120);
        for (int r = 0; r < 5; r++) {
            t.updatesAndDeletes(random.nextInt(60), 120);
            // the same ids in one day only: a key is (id, dt), the other days' rows stay
            t.days(DAYS.get(r % DAYS.size()));
            t.updatesAndDeletes(0, 120);
            t.inserts(120 + r * 10, 130 + r * 10);
            t.days(DAYS.toArray(String[]::new));
        }
        t.assertLakeHoldsExactlyTheExpectedRows();
        LakeTableStats before = t.stats();
        assertThat(before.dataFilesPerPartition().keySet())
                .containsExactlyElementsOf(partitionNames(DAYS));
        assertThat(before.maxDataFilesPerBucket() + before.deleteFiles())
                .as("seed %s", seed)
                .isGreaterThan(3);

        long id = maintenanceId();
        CompactionPlan plan = t.plan(3);
        assertThat(plan.buckets()).isNotEmpty();
        MaintenanceCommitResult c = t.commitCompaction(id, t.compact(plan, 3, id));
        assertThat(c.outcome())
                .as("seed %s: %s", seed, c.conflict())
                .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        LakeTableStats after = t.stats();
        assertThat(after.maxDataFilesPerBucket()).as("seed %s", seed).isLessThanOrEqualTo(3);
        assertThat(after.deleteFiles()).as("deletes are applied").isZero();
        assertThat(after.dataFilesPerPartition().keySet())
                .as("the table keeps its partitions")
                .containsExactlyElementsOf(partitionNames(DAYS));
        for (String p : partitionNames(DAYS)) {
            assertThat(after.dataFilesPerPartition().get(p).keySet())
                    .as("partition %s keeps its buckets", p)
                    .isEqualTo(before.dataFilesPerPartition().get(p).keySet());
        }
        t.assertLakeHoldsExactlyTheExpectedRows();

        // tiering goes on over the compacted files, in every partition
        LakeSnapshot beforeRounds = t.latestTieringSnapshot().orElseThrow();
        t.updatesAndDeletes(0, 200);
        t.inserts(200, 220);
        t.assertLakeHoldsExactlyTheExpectedRows();
        LakeSnapshot tiering = t.latestTieringSnapshot().orElseThrow();
        assertThat(tiering.snapshotId()).isNotEqualTo(beforeRounds.snapshotId());
        assertThat(tiering.properties().partitionNames().values())
                .containsExactlyInAnyOrderElementsOf(partitionNames(DAYS));

        // a second compaction, then expiry: the newest tiering snapshot stays (T39)
        id = maintenanceId();
        c = t.commitCompaction(id, t.compact(t.plan(1), 1, id));
        assertThat(c.outcome()).isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        ExpiryResult r;
        try (LakeMaintainer m = storage.createMaintainer(t.path)) {
            r = m.expireSnapshots(new ExpiryPolicy(TABLE_ID, 1, Duration.ZERO));
        }
        assertThat(r.snapshotsRetained()).as("the compaction and the round under it").isEqualTo(2);
        assertThat(t.latestTieringSnapshot()).contains(tiering);
        assertThat(t.unreferencedFiles()).isEmpty();
        t.assertLakeHoldsExactlyTheExpectedRows();

        // the lake still partitions by dt: dropping one partition takes exactly its rows
        t.dropPartition(DAYS.get(0));
        t.assertLakeHoldsExactlyTheExpectedRows();
        t.updatesAndDeletes(0, 220);
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    @Test
    void t38_t32_roundsCommittedWhileAPartitionedCompactionRanWinAndStayExact() throws Exception {
        roundsWhilePartitionedCompaction("carts", TableOptions.PkDeleteMode.EQUALITY, true);
    }

    @Test
    void t48_t38_t32_roundsCommittedWhileAPartitionedCompactionRanWinAndStayExact()
            throws Exception {
        roundsWhilePartitionedCompaction(
                "carts_by_position", TableOptions.PkDeleteMode.POSITION, false);
    }

    /** As {@link #roundsWhileCompacting}, on a partitioned table, rounds into every partition. */
    private void roundsWhilePartitionedCompaction(
            String name, TableOptions.PkDeleteMode mode, boolean mustCommit) throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        Tiered t =
                new Tiered(name, withPkDeletes(partitionedPkTable(2), mode))
                        .days(DAYS.toArray(String[]::new));
        t.inserts(0, 90);
        for (int r = 0; r < 4; r++) {
            t.updatesAndDeletes(random.nextInt(45), 90);
        }
        long id = maintenanceId();
        CompactionPlan plan = t.plan(2);
        assertThat(plan.buckets()).as("seed %s", seed).isNotEmpty();
        List<LakeCompactionResult> results = t.compact(plan, 2, id);
        // tiering commits rounds into every partition before the compaction commits
        t.updatesAndDeletes(0, 90);
        t.inserts(90, 110);
        t.days(DAYS.get(1));
        t.updatesAndDeletes(0, 110);
        t.days(DAYS.toArray(String[]::new));
        MaintenanceCommitResult c = t.commitCompaction(id, results);
        if (mustCommit) {
            assertThat(c.outcome())
                    .as("seed %s: %s", seed, c.conflict())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        } else if (c.outcome() == MaintenanceCommitResult.Outcome.CONFLICT) {
            try (LakeMaintainer m = storage.createMaintainer(t.path)) {
                m.abortCompaction(results);
            }
        }
        t.assertLakeHoldsExactlyTheExpectedRows();
        assertThat(t.latestTieringSnapshot().orElseThrow().properties().roundId())
                .isEqualTo(t.round);
        assertThat(t.stats().dataFilesPerPartition().keySet())
                .containsExactlyElementsOf(partitionNames(DAYS));
        t.updatesAndDeletes(0, 110);
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    @Test
    void t38_t32_aPartitionedLogTableWithoutBucketKeyIsCompactedPerPartition() throws Exception {
        TableDescriptor unkeyed =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT())
                                        .column("name", DataTypes.STRING())
                                        .column("dt", DataTypes.STRING())
                                        .build())
                        .partitionKeys("dt")
                        .bucketCount(2)
                        .build();
        Tiered t = new Tiered("raw_days", unkeyed).days(DAYS.get(0), DAYS.get(1));
        for (int r = 0; r < 5; r++) {
            t.inserts(r * 20, r * 20 + 20);
        }
        LakeTableStats before = t.stats();
        assertThat(before.dataFilesPerPartition().keySet())
                .containsExactlyElementsOf(partitionNames(DAYS.subList(0, 2)));
        assertThat(before.dataFilesPerBucket().keySet())
                .as("no lake buckets: one group of files per partition")
                .containsExactly(0);
        long id = maintenanceId();
        CompactionPlan plan = t.plan(3);
        assertThat(plan.buckets()).containsExactly(0);
        MaintenanceCommitResult c = t.commitCompaction(id, t.compact(plan, 3, id));
        assertThat(c.outcome()).isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        LakeTableStats after = t.stats();
        assertThat(after.maxDataFilesPerBucket()).isLessThanOrEqualTo(3);
        assertThat(after.dataFilesPerPartition().keySet())
                .containsExactlyElementsOf(partitionNames(DAYS.subList(0, 2)));
        t.assertLakeHoldsExactlyTheExpectedRows();
        t.dropPartition(DAYS.get(0));
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    // ---------------------------------------------------------------- T39

    @Test
    void t39_expiryKeepsTheRetentionDeletesWhatNothingReferencesAndKeepsTheTieringSnapshot()
            throws Exception {
        Tiered t = new Tiered("history", pkTable(2));
        t.inserts(0, 100);
        for (int r = 0; r < 7; r++) {
            t.updatesAndDeletes(r * 10, 100);
        }
        long id = maintenanceId();
        assertThat(t.commitCompaction(id, t.compact(t.plan(2), 2, id)).outcome())
                .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        LakeSnapshot tiering = t.latestTieringSnapshot().orElseThrow();
        assertThat(t.stats().snapshots()).isEqualTo(9);
        assertThat(t.unreferencedFiles()).isEmpty();

        ExpiryResult kept;
        try (LakeMaintainer m = storage.createMaintainer(t.path)) {
            kept = m.expireSnapshots(new ExpiryPolicy(TABLE_ID, 3, Duration.ofHours(1)));
        }
        assertThat(kept.snapshotsExpired()).as("all younger than the time retained").isZero();

        ExpiryResult r;
        try (LakeMaintainer m = storage.createMaintainer(t.path)) {
            // the newest snapshot is the compaction: one is not enough to keep the round
            r = m.expireSnapshots(new ExpiryPolicy(TABLE_ID, 1, Duration.ZERO));
        }
        assertThat(r.snapshotsRetained()).isEqualTo(2);
        assertThat(r.snapshotsExpired()).isEqualTo(7);
        assertThat(t.stats().snapshots()).isEqualTo(2);
        assertThat(t.latestTieringSnapshot()).contains(tiering);
        assertThat(t.unreferencedFiles()).isEmpty();
        t.assertLakeHoldsExactlyTheExpectedRows();

        // once a newer round is in, the files the compaction replaced go with the old snapshots
        t.updatesAndDeletes(0, 100);
        try (LakeMaintainer m = storage.createMaintainer(t.path)) {
            r = m.expireSnapshots(new ExpiryPolicy(TABLE_ID, 1, Duration.ZERO));
        }
        assertThat(r.snapshotsExpired()).isEqualTo(2);
        assertThat(r.snapshotsRetained()).isEqualTo(1);
        assertThat(r.filesDeleted()).as("the files the compaction replaced").isPositive();
        assertThat(r.bytesDeleted()).isPositive();
        assertThat(t.latestTieringSnapshot().orElseThrow().properties().roundId())
                .isEqualTo(t.round);
        assertThat(t.unreferencedFiles())
                .as("files on disk == files the retained snapshots reference")
                .isEmpty();
        t.assertLakeHoldsExactlyTheExpectedRows();

        // tiering and maintenance go on after the expiry
        t.inserts(100, 120);
        t.updatesAndDeletes(0, 120);
        id = maintenanceId();
        CompactionPlan plan = t.plan(2);
        assertThat(t.commitCompaction(id, t.compact(plan, 2, id)).outcome())
                .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    @Test
    void t39_onALogTableExpiryKeepsNoMoreThanTheRetentionAfterACompactionRoundsOvertook()
            throws Exception {
        // a log table's rounds never retract rows: nothing needs the snapshot a compaction
        // started from once it committed, however many rounds committed while it ran
        Tiered t = new Tiered("overtaken", logTable(2));
        for (int r = 0; r < 4; r++) {
            t.inserts(r * 20, r * 20 + 20);
        }
        long id = maintenanceId();
        List<LakeCompactionResult> results = t.compact(t.plan(2), 2, id);
        for (int r = 4; r < 8; r++) {
            t.inserts(r * 20, r * 20 + 20);
        }
        assertThat(t.commitCompaction(id, results).outcome())
                .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        ExpiryResult r;
        try (LakeMaintainer m = storage.createMaintainer(t.path)) {
            r = m.expireSnapshots(new ExpiryPolicy(TABLE_ID, 1, Duration.ZERO));
        }
        assertThat(r.snapshotsRetained()).as("the compaction and the newest round").isEqualTo(2);
        t.assertLakeHoldsExactlyTheExpectedRows();
    }

    /** Paths as the format's orphan listing prints them, for comparison. */
    protected List<String> normalized(List<String> paths) {
        return paths;
    }
}

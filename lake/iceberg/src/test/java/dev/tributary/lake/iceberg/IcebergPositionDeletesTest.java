package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.maintenance.ExpiryPolicy;
import dev.tributary.lake.api.maintenance.LakeCompactionResult;
import dev.tributary.lake.api.maintenance.LakeCompactor;
import dev.tributary.lake.api.maintenance.LakeMaintainer;
import dev.tributary.lake.api.maintenance.MaintenanceCommitResult;
import dev.tributary.lake.api.write.AttemptFileNames;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T48 on Iceberg: PK rounds retract lake rows by position (deletion vectors on v3, position delete
 * files on v2), never by equality delete unless the table asks for it, and read back exactly with
 * Iceberg's own reader.
 */
class IcebergPositionDeletesTest {
    private static final long TABLE_ID = 48;
    private static final int BUCKETS = 2;
    private static final LocalDate D1 = LocalDate.of(2026, 12, 1);
    private static final LocalDate D2 = LocalDate.of(2026, 12, 2);

    @TempDir Path warehouse;
    private LakeStorage storage;
    private Catalog catalog;

    @BeforeEach
    void open() {
        storage =
                new IcebergLakeStoragePlugin()
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", warehouse.toString())));
        catalog =
                CatalogUtil.buildIcebergCatalog(
                        "check",
                        Map.of(
                                CatalogProperties.WAREHOUSE_LOCATION,
                                warehouse.toUri().toString(),
                                CatalogUtil.ICEBERG_CATALOG_TYPE,
                                CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP),
                        new org.apache.hadoop.conf.Configuration());
    }

    @AfterEach
    void close() {
        storage.close();
    }

    // ------------------------------------------------------------------ tests

    @Test
    void t48_v3PkRoundsWriteDeletionVectorsOnePerDataFileAndReadBackExactly() throws Exception {
        Lake lake = new Lake("v3", pkTable(Map.of()), false, 1);
        assertThat(TableUtil.formatVersion(lake.table())).isEqualTo(3);
        lake.rounds(8);
        lake.checkDeletes(true);
        assertThat(lake.deleteFiles()).as("retractions of lake rows happened").isNotEmpty();
    }

    @Test
    void t48_v3WithTheIcebergBucketFunctionReadsOnlyItsBucketsPartition() throws Exception {
        Lake lake =
                new Lake("aligned", pkTable(Map.of("table.bucket.function", "iceberg")), false, 2);
        lake.rounds(6);
        lake.checkDeletes(true);
    }

    @Test
    void t48_v3PartitionedPkRoundsRetractRowsInTheirPartition() throws Exception {
        Lake lake = new Lake("parts", partitionedTable(Map.of()), true, 3);
        lake.rounds(6);
        lake.checkDeletes(true);
    }

    @Test
    void t48_v2TableGetsPositionDeleteFiles() throws Exception {
        Lake lake =
                new Lake(
                        "v2",
                        pkTable(Map.of("table.datalake.iceberg.format-version", "2")),
                        false,
                        4);
        assertThat(TableUtil.formatVersion(lake.table())).isEqualTo(2);
        lake.rounds(6);
        lake.checkDeletes(false);
        assertThat(lake.deleteFiles())
                .isNotEmpty()
                .allSatisfy(d -> assertThat(d.format()).isEqualTo(FileFormat.PARQUET));
    }

    @Test
    void t48_writersRetractThroughTheStoresIndexWhichTheScannerFeeds() throws Exception {
        for (Map.Entry<String, TableDescriptor> t :
                Map.of(
                                "iv3", pkTable(Map.of()),
                                "ialigned", pkTable(Map.of("table.bucket.function", "iceberg")),
                                "iv2",
                                        pkTable(
                                                Map.of(
                                                        "table.datalake.iceberg.format-version",
                                                        "2")))
                        .entrySet()) {
            Lake lake = new Lake(t.getKey(), t.getValue(), false, 11);
            lake.index = new ScannedIndex(lake);
            lake.rounds(6);
            assertThat(lake.index.answered)
                    .as("%s: retractions were located through the index", t.getKey())
                    .isPositive();
            assertThat(lake.deleteFiles()).isNotEmpty();
        }
    }

    @Test
    void t48_aSplitRetractingManyOfItsBucketsRowsReadsTheLakeInsteadOfAskingTheIndex()
            throws Exception {
        // each round changes about half of a bucket's keys: far fewer than 1000 rows per key
        Lake lake =
                new Lake(
                        "icheaper",
                        pkTable(
                                Map.of(
                                        TableOptions.DATALAKE_PK_DELETES_INDEX_MIN_ROWS.key(),
                                        "1000")),
                        false,
                        14);
        lake.index = new ScannedIndex(lake);
        lake.rounds(4);
        assertThat(lake.index.asked).isZero();
        assertThat(lake.deleteFiles()).isNotEmpty();
    }

    @Test
    void t48_indexKeysOfADateKeyAndPartitionMatchWhatWritersAskFor() throws Exception {
        // a key encoded differently by the scanner and the writer finds no row: the old row stays
        // live and checkRead sees the key twice
        Lake lake = new Lake("iparts", partitionedTable(Map.of()), true, 12);
        lake.index = new ScannedIndex(lake);
        lake.rounds(6);
        assertThat(lake.index.answered).isPositive();
    }

    @Test
    void t48_anIndexThatCannotAnswerOrNamesAFileTheSnapshotLacksFallsBackToTheLake()
            throws Exception {
        Lake lake = new Lake("ifallback", pkTable(Map.of()), false, 13);
        lake.index = new ScannedIndex(lake);
        lake.index.mode = ScannedIndex.Mode.CANNOT_ANSWER;
        lake.rounds(3);
        lake.index.mode = ScannedIndex.Mode.WRONG_FILE;
        lake.rounds(3);
        assertThat(lake.index.asked).isPositive();
        assertThat(lake.deleteFiles()).isNotEmpty();
    }

    @Test
    void t48_scannerReportsBucketFilesAndWhetherTheyDescendFromAnIndexedSnapshot()
            throws Exception {
        Lake lake = new Lake("iscan", pkTable(Map.of()), false, 14);
        lake.rounds(2);
        long first = lake.table().currentSnapshot().snapshotId();
        lake.rounds(2);
        long now = lake.table().currentSnapshot().snapshotId();
        try (dev.tributary.lake.api.index.LakeRowScanner scanner =
                storage.createRowScanner(lake.path, lake.descriptor).orElseThrow()) {
            var files = scanner.bucketFiles(now, null, 0, first);
            assertThat(files.descendsFromSince()).isTrue();
            assertThat(scanner.bucketFiles(now, null, 0, now).descendsFromSince()).isTrue();
            assertThat(scanner.bucketFiles(now, null, 0, -1).descendsFromSince()).isFalse();
            assertThat(scanner.bucketFiles(first, null, 0, now).descendsFromSince()).isFalse();
            assertThat(files.files()).isNotEmpty();
            // every live row of the bucket once, at the position the table's own reader reports
            Map<String, Long> scanned = new HashMap<>();
            scanner.scan(
                    now,
                    null,
                    0,
                    files.files(),
                    (key, at) ->
                            assertThat(scanned.put(at.file() + "#" + at.position(), 1L)).isNull());
            long live =
                    lake.expected.values().stream()
                            .filter(r -> lake.bucketOf((Integer) r.getField(0)) == 0)
                            .count();
            assertThat(scanned).hasSize((int) live);
        }
        assertThat(
                        storage.createRowScanner(
                                lake.path,
                                pkTable(Map.of("table.datalake.pk-deletes", "equality"))))
                .as("an equality-mode table keeps no index")
                .isEmpty();
    }

    @Test
    void t48_equalityModeStillWritesEqualityDeletes() throws Exception {
        Lake lake =
                new Lake("eq", pkTable(Map.of("table.datalake.pk-deletes", "equality")), false, 5);
        assertThat(TableUtil.formatVersion(lake.table())).isEqualTo(2);
        for (int i = 0; i < 3; i++) {
            lake.commit(lake.writeRound());
            lake.checkRead();
        }
        boolean equality = false;
        for (Snapshot s : lake.table().snapshots()) {
            for (DeleteFile d : IcebergBuckets.liveDeleteFiles(lake.table(), s)) {
                equality |= d.content() == FileContent.EQUALITY_DELETES;
            }
        }
        assertThat(equality).isTrue();
    }

    @Test
    void t48_logTablesStayFormatV2() {
        TablePath path = TablePath.of("db", "log");
        storage.catalog()
                .createTable(
                        path,
                        TableDescriptor.builder(
                                        Schema.newBuilder().column("id", DataTypes.INT()).build())
                                .bucketCount(1)
                                .build());
        assertThat(TableUtil.formatVersion(catalog.loadTable(TableIdentifier.of("db", "log"))))
                .isEqualTo(2);
    }

    @Test
    void t48_aRoundAfterACompactionRetractsRowsOfTheCompactedFiles() throws Exception {
        Lake lake = new Lake("compacted", pkTable(Map.of()), false, 6);
        lake.rounds(4);
        MaintenanceCommitResult c = lake.commitCompaction(1, lake.compact(1));
        assertThat(c.outcome()).isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
        lake.checkRead();
        lake.checkDeletes(true);
        lake.rounds(4);
        lake.checkDeletes(true);
    }

    @Test
    void t48_aRoundWrittenBeforeACompactionCommittedMovesItsDeletesOntoTheCompactedFiles()
            throws Exception {
        for (Map.Entry<String, TableDescriptor> t :
                Map.of(
                                "race1v3",
                                pkTable(Map.of()),
                                "race1v2",
                                pkTable(Map.of("table.datalake.iceberg.format-version", "2")))
                        .entrySet()) {
            Lake lake = new Lake(t.getKey(), t.getValue(), false, 7);
            lake.rounds(3);
            List<LakeCompactionResult> compaction = lake.compact(1);
            // the round's writers find the rows before the compaction rewrites their files
            Lake.Round round = lake.writeRound();
            assertThat(lake.commitCompaction(1, compaction).outcome())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
            lake.commit(round);
            lake.checkRead();
            lake.checkDeletes(t.getKey().endsWith("v3"));
            lake.rounds(2);
        }
    }

    @Test
    void t48_aRoundWrittenBeforeTwoCompactionsCommittedFollowsItsRowsThroughBoth()
            throws Exception {
        for (Map.Entry<String, TableDescriptor> t :
                Map.of(
                                "chain1v3",
                                pkTable(Map.of()),
                                "chain1v2",
                                pkTable(Map.of("table.datalake.iceberg.format-version", "2")))
                        .entrySet()) {
            boolean v3 = t.getKey().endsWith("v3");
            Lake lake = new Lake(t.getKey(), t.getValue(), false, 11);
            lake.rounds(3);
            long firstBase = lake.table().currentSnapshot().snapshotId();
            List<LakeCompactionResult> first = lake.compact(1);
            // a round retracts rows of the files the first compaction rewrites: it carries them
            // into its new files as their deletes, which makes those files due for compaction
            lake.rounds(1);
            // the round under test finds its rows in the files before either compaction commits
            Lake.Round round = lake.writeRound();
            assertThat(lake.commitCompaction(1, first).outcome())
                    .as(t.getKey())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
            List<LakeCompactionResult> second = lake.compact(2);
            Set<String> firstFiles = new HashSet<>();
            first.forEach(r -> firstFiles.addAll(r.newFiles()));
            Table before = lake.table();
            Set<String> replacedBySecond = new HashSet<>(firstFiles);
            IcebergBuckets.liveDataFiles(before, before.currentSnapshot())
                    .forEach(f -> replacedBySecond.remove(f.location()));
            assertThat(lake.commitCompaction(2, second).outcome())
                    .as(t.getKey())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
            Table after = lake.table();
            Set<String> live = new HashSet<>();
            IcebergBuckets.liveDataFiles(after, after.currentSnapshot())
                    .forEach(f -> live.add(f.location()));
            // the second compaction replaced files the first one wrote: a chain of two
            assertThat(firstFiles).as(t.getKey()).isNotEmpty().doesNotContainAnyElementsOf(live);
            assertThat(replacedBySecond).isEmpty();

            // expiry keeps what the round needs: the newest tiering snapshot, both compactions
            // and the first one's base, older than that round (the second's base is the first)
            assertThat(lake.expire()).as(t.getKey()).isEqualTo(4);
            assertThat(lake.table().snapshot(firstBase)).isNotNull();

            lake.commit(round);
            lake.checkRead();
            lake.checkDeletes(v3);
            // once the round committed, nothing before it is needed: history stays bounded
            assertThat(lake.expire()).as(t.getKey()).isEqualTo(1);
            // later rounds build on the moved deletes
            lake.rounds(2);
        }
    }

    @Test
    void t48_aRoundWhoseFileAnotherEngineRemovedFailsRetriably() throws Exception {
        Lake lake = new Lake("race1other", pkTable(Map.of()), false, 7);
        lake.rounds(3);
        Lake.Round round = lake.writeRound();
        // another engine removes a data file the round retracts rows of (a DELETE of all its
        // rows): nothing Tributary can follow, unlike its own compaction
        Table table = lake.table();
        Set<String> referenced = new HashSet<>();
        for (LakeWriteResult r : round.results()) {
            if (!r.isEmpty()) {
                for (CharSequence f :
                        IcebergWriteFiles.decodePayload(r.payload(), table.specs())
                                .files()
                                .referencedDataFiles()) {
                    referenced.add(f.toString());
                }
            }
        }
        DataFile victim =
                IcebergBuckets.liveDataFiles(table, table.currentSnapshot()).stream()
                        .filter(f -> referenced.contains(f.location()))
                        .findFirst()
                        .orElseThrow();
        table.newDelete().deleteFile(victim).commit();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> lake.commit(round))
                .isInstanceOf(RetriableException.class)
                .hasMessageContaining("changed concurrently");
        lake.abort(round);
    }

    @Test
    void t48_deletesARoundCommittedWhileACompactionRanAreCarriedIntoTheCompactedFiles()
            throws Exception {
        for (Map.Entry<String, TableDescriptor> t :
                Map.of(
                                "race2v3",
                                pkTable(Map.of()),
                                "race2v2",
                                pkTable(Map.of("table.datalake.iceberg.format-version", "2")))
                        .entrySet()) {
            boolean v3 = t.getKey().endsWith("v3");
            Lake lake = new Lake(t.getKey(), t.getValue(), false, 8);
            lake.rounds(3);
            List<LakeCompactionResult> compaction = lake.compact(1);
            // the rounds retract rows of the files the compaction rewrites, several times
            lake.rounds(2);
            MaintenanceCommitResult c = lake.commitCompaction(1, compaction);
            assertThat(c.outcome())
                    .as(t.getKey())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
            Set<String> live = new HashSet<>();
            Table table = lake.table();
            IcebergBuckets.liveDataFiles(table, table.currentSnapshot())
                    .forEach(f -> live.add(f.location()));
            Set<String> compacted = new HashSet<>();
            compaction.forEach(r -> compacted.addAll(r.newFiles()));
            assertThat(compacted).isNotEmpty();
            assertThat(live).as(t.getKey()).containsAll(compacted);
            // the compacted files carry the rows the rounds retracted meanwhile, in deletes the
            // compaction wrote (named for orphan cleanup like its data files)
            String tag = AttemptFileNames.maintenanceTag(TABLE_ID, 1);
            assertThat(lake.deleteFiles()).as(t.getKey()).anyMatch(d -> d.location().contains(tag));
            lake.checkRead();
            lake.checkDeletes(v3);
            // the carried deletes are the compacted files' own: later rounds and compactions build
            // on them
            lake.rounds(2);
            assertThat(lake.commitCompaction(2, lake.compact(2)).outcome())
                    .isEqualTo(MaintenanceCommitResult.Outcome.COMMITTED);
            lake.checkRead();
            lake.checkDeletes(v3);
        }
    }

    @Test
    void t48_abortDeletesEveryFileOfTheRoundDeletionVectorsIncluded() throws Exception {
        Lake lake = new Lake("abort", pkTable(Map.of()), false, 9);
        lake.rounds(2);
        // a round aborted by the committer (its results were reported, never committed)
        Lake.Round r = lake.writeRound();
        List<String> files = new ArrayList<>();
        r.results().forEach(x -> files.addAll(x.files()));
        assertThat(files).anyMatch(f -> f.endsWith(".puffin"));
        files.forEach(f -> assertThat(Path.of(java.net.URI.create(f))).exists());
        lake.abort(r);
        files.forEach(f -> assertThat(Path.of(java.net.URI.create(f))).doesNotExist());
        lake.expected.clear();
        lake.expected.putAll(r.before());
        lake.checkRead();

        // a writer aborted after it completed
        Row live = lake.expected.values().iterator().next();
        int id = (Integer) live.getField(0);
        LakeWriteResult completed;
        LakeWriter w =
                storage.createWriter(
                        new LakeWriterContext(
                                lake.path, TABLE_ID, lake.descriptor, lake.bucketOf(id), 1, 99));
        w.write(live, ChangeType.DELETE, lake.bucketOf(id), 1_000_000, 0);
        completed = w.complete();
        assertThat(completed.files())
                .singleElement()
                .satisfies(f -> assertThat(f).endsWith(".puffin"));
        w.abort();
        w.close();
        assertThat(Path.of(java.net.URI.create(completed.files().get(0)))).doesNotExist();
        lake.checkRead();
    }

    @Test
    void t48_aRetractedKeyWithoutALakeRowDeletesNothingAndFailsNothing() throws Exception {
        Lake lake = new Lake("absent", pkTable(Map.of()), false, 10);
        lake.rounds(1);
        int bucket = lake.bucketOf(1_000);
        LakeWriteResult r;
        try (LakeWriter w =
                storage.createWriter(
                        new LakeWriterContext(
                                lake.path, TABLE_ID, lake.descriptor, bucket, 1, 2))) {
            w.write(Row.of(1_000, "gone", 1L), ChangeType.DELETE, bucket, 1_000, 0);
            r = w.complete();
        }
        assertThat(r.files()).as("nothing to delete, nothing written").isEmpty();
        try (LakeCommitter c = storage.createCommitter(lake.path)) {
            assertThat(
                            c.commit(
                                            List.of(r),
                                            TieringSnapshotProperties.of(TABLE_ID, 1, 2, Map.of()))
                                    .outcome())
                    .isEqualTo(LakeCommitResult.Outcome.NOTHING_TO_COMMIT);
        }
        lake.checkRead();
    }

    /**
     * One Puffin file holds the deletion vectors of several data files; a later round replaces one
     * of them. Expiring the snapshots that referenced the replaced one must not delete the Puffin
     * file, whose other deletion vectors are still live (Iceberg's incremental cleanup deletes by
     * path).
     */
    @Test
    void t48_expiryKeepsAPuffinFileWhoseOtherDeletionVectorsAreLive() throws Exception {
        TablePath path = TablePath.of("db", "shared_puffin");
        // one bucket: each round's keys are in one data file
        TableDescriptor table =
                TableDescriptor.builder(pkTable(Map.of()).schema()).bucketCount(1).build();
        storage.catalog().createTable(path, table);
        Map<Integer, Row> expected = new TreeMap<>();
        // rounds 1 and 2 put keys into two data files of bucket 0
        long offset = 0;
        for (int round = 1; round <= 2; round++) {
            List<Object[]> changes = new ArrayList<>();
            for (int k = round * 10; k < round * 10 + 4; k++) {
                changes.add(new Object[] {Row.of(k, "v" + k, 1L), ChangeType.INSERT});
                expected.put(k, Row.of(k, "v" + k, 1L));
            }
            offset = writeAndCommit(path, table, round, changes, offset);
        }
        // round 3 deletes a key of each file: one Puffin file with two deletion vectors
        offset =
                writeAndCommit(
                        path,
                        table,
                        3,
                        List.<Object[]>of(
                                new Object[] {expected.remove(10), ChangeType.DELETE},
                                new Object[] {expected.remove(20), ChangeType.DELETE}),
                        offset);
        // round 4 deletes another key of the first file: its deletion vector is replaced
        offset =
                writeAndCommit(
                        path,
                        table,
                        4,
                        List.<Object[]>of(new Object[] {expected.remove(11), ChangeType.DELETE}),
                        offset);
        // round 5: the snapshot that replaced it expires too
        expected.put(30, Row.of(30, "v30", 1L));
        offset =
                writeAndCommit(
                        path,
                        table,
                        5,
                        List.<Object[]>of(new Object[] {expected.get(30), ChangeType.INSERT}),
                        offset);
        try (LakeMaintainer m = storage.createMaintainer(path)) {
            m.expireSnapshots(new ExpiryPolicy(TABLE_ID, 1, java.time.Duration.ZERO));
        }
        Table t = catalog.loadTable(TableIdentifier.of("db", path.table()));
        assertThat(t.snapshots()).hasSize(1);
        for (DeleteFile d : IcebergBuckets.liveDeleteFiles(t, t.currentSnapshot())) {
            assertThat(Path.of(java.net.URI.create(d.location()))).exists();
        }
        Set<Integer> keys = new HashSet<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(t).build()) {
            records.forEach(r -> keys.add((Integer) r.get(0)));
        }
        assertThat(keys).isEqualTo(expected.keySet());
    }

    private long writeAndCommit(
            TablePath path,
            TableDescriptor table,
            long round,
            List<Object[]> changes,
            long offset) {
        LakeWriteResult r;
        try (LakeWriter w =
                storage.createWriter(new LakeWriterContext(path, TABLE_ID, table, 0, 1, round))) {
            for (Object[] c : changes) {
                w.write((Row) c[0], (ChangeType) c[1], 0, offset++, 0);
            }
            r = w.complete();
        }
        try (LakeCommitter c = storage.createCommitter(path)) {
            assertThat(
                            c.commit(
                                            List.of(r),
                                            TieringSnapshotProperties.of(
                                                    TABLE_ID, 1, round, Map.of(0, offset)))
                                    .outcome())
                    .isEqualTo(LakeCommitResult.Outcome.COMMITTED);
        }
        return offset;
    }

    // ------------------------------------------------------------------ tables

    private static TableDescriptor pkTable(Map<String, String> properties) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.INT())
                                .column("name", DataTypes.STRING())
                                .column("score", DataTypes.BIGINT())
                                .primaryKey("id")
                                .build())
                .bucketCount(BUCKETS)
                .properties(properties)
                .build();
    }

    /** Partitioned by a DATE that is part of the key: keys are compared as Iceberg days. */
    private static TableDescriptor partitionedTable(Map<String, String> properties) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.INT())
                                .column("dt", DataTypes.DATE())
                                .column("score", DataTypes.BIGINT())
                                .primaryKey("id", "dt")
                                .build())
                .partitionKeys("dt")
                .bucketCount(BUCKETS)
                .properties(properties)
                .build();
    }

    /**
     * One table, its rounds and the rows it must hold. Keys are changed as a PK table's changelog
     * does: +I for a new key, -U/+U or -D for a live one, sometimes several times in one round.
     */
    private final class Lake {
        private final TablePath path;
        private final TableDescriptor descriptor;
        private final boolean partitioned;
        private final long seed;
        private final Random random;
        private final boolean aligned;

        /** Expected lake rows by (partition, key). */
        private final Map<String, Row> expected = new TreeMap<>();

        private final Map<String, Long> offsets = new HashMap<>();
        private long round;

        /** The store's lake row index as the writers see it; null: they read the lake. */
        private ScannedIndex index;

        Lake(String name, TableDescriptor descriptor, boolean partitioned, long seed) {
            this.path = TablePath.of("db", name);
            this.descriptor = descriptor;
            this.partitioned = partitioned;
            this.seed = seed;
            this.random = new Random(seed);
            this.aligned = "iceberg".equals(descriptor.properties().get("table.bucket.function"));
            storage.catalog().createTable(path, descriptor);
        }

        Table table() {
            return catalog.loadTable(TableIdentifier.of("db", path.table()));
        }

        int bucketOf(int id) {
            if (aligned) {
                return Transforms.bucket(BUCKETS).bind(Types.IntegerType.get()).apply(id);
            }
            return Math.floorMod(id, BUCKETS);
        }

        /** One change of a split. */
        record Change(String split, Row row, ChangeType type) {}

        record Round(
                long id,
                List<Change> changes,
                List<LakeWriteResult> results,
                Map<String, Row> before) {}

        void rounds(int n) throws Exception {
            for (int i = 0; i < n; i++) {
                commit(writeRound());
                checkRead();
                checkDeletes(TableUtil.formatVersion(table()) >= 3);
            }
        }

        /** Changes ~half the keys of 0..19; updates the expected rows. */
        Round writeRound() {
            Map<String, Row> before = new TreeMap<>(expected);
            List<Change> changes = new ArrayList<>();
            for (int id = 0; id < 20; id++) {
                LocalDate dt = partitioned && id % 3 == 0 ? D2 : D1;
                int times = random.nextInt(4) == 0 ? 2 : random.nextBoolean() ? 1 : 0;
                for (int t = 0; t < times; t++) {
                    String split = (partitioned ? dt + "/" : "") + bucketOf(id);
                    String key = (partitioned ? dt + "/" : "") + id;
                    Row old = expected.get(key);
                    long score = round * 100 + t;
                    Row now = partitioned ? Row.of(id, dt, score) : Row.of(id, "n" + score, score);
                    if (old == null) {
                        changes.add(new Change(split, now, ChangeType.INSERT));
                    } else if (random.nextInt(4) == 0) {
                        changes.add(new Change(split, userRow(old), ChangeType.DELETE));
                    } else if (random.nextInt(5) == 0) {
                        // an upsert without its -U
                        changes.add(new Change(split, now, ChangeType.UPDATE_AFTER));
                    } else {
                        changes.add(new Change(split, userRow(old), ChangeType.UPDATE_BEFORE));
                        changes.add(new Change(split, now, ChangeType.UPDATE_AFTER));
                    }
                    apply(changes.get(changes.size() - 1), key, changes.size());
                }
            }
            return writeRound(changes, before);
        }

        private void apply(Change c, String key, int ignored) {
            if (c.type() == ChangeType.DELETE) {
                expected.remove(key);
            } else {
                expected.put(key, c.row()); // user row; system columns checked separately
            }
        }

        /** Writes the changes as this round's splits, one per (partition, bucket). */
        Round writeRound(List<Change> changes, Map<String, Row> before) {
            round++;
            Map<String, List<Change>> bySplit = new TreeMap<>();
            changes.forEach(c -> bySplit.computeIfAbsent(c.split(), s -> new ArrayList<>()).add(c));
            List<LakeWriteResult> results = new ArrayList<>();
            for (Map.Entry<String, List<Change>> e : bySplit.entrySet()) {
                String split = e.getKey();
                int bucket = Integer.parseInt(split.substring(split.lastIndexOf('/') + 1));
                LakeWriterContext context =
                        partitioned
                                ? new LakeWriterContext(
                                        path,
                                        TABLE_ID,
                                        descriptor,
                                        bucket,
                                        1,
                                        round,
                                        split.startsWith(D1.toString()) ? 1 : 2,
                                        dev.tributary.common.id.PartitionSpec.parse(
                                                "dt=" + split.substring(0, split.indexOf('/'))),
                                        LakeWriterContext.SplitSource.LOG,
                                        index == null ? null : index.of(split, bucket))
                                : new LakeWriterContext(
                                        path,
                                        TABLE_ID,
                                        descriptor,
                                        bucket,
                                        1,
                                        round,
                                        dev.tributary.common.id.TableBucket.NO_PARTITION,
                                        null,
                                        LakeWriterContext.SplitSource.LOG,
                                        index == null ? null : index.of(split, bucket));
                try (LakeWriter w = storage.createWriter(context)) {
                    for (Change c : e.getValue()) {
                        long offset = offsets.merge(split, 1L, Long::sum);
                        w.write(c.row(), c.type(), bucket, offset, 1_000 + offset);
                    }
                    results.add(w.complete());
                }
            }
            return new Round(round, changes, results, before);
        }

        void commit(Round r) {
            try (LakeCommitter c = storage.createCommitter(path)) {
                LakeCommitResult result =
                        c.commit(
                                r.results(),
                                TieringSnapshotProperties.of(TABLE_ID, 1, r.id(), Map.of()));
                assertThat(result.outcome()).isEqualTo(LakeCommitResult.Outcome.COMMITTED);
            }
        }

        void abort(Round r) {
            try (LakeCommitter c = storage.createCommitter(path)) {
                c.abort(r.results());
            }
        }

        List<LakeCompactionResult> compact(long maintenanceId) {
            try (LakeMaintainer m = storage.createMaintainer(path)) {
                CompactionPlan plan = m.planCompaction(new CompactionPolicy(1, 1024));
                assertThat(plan.units()).isNotEmpty();
                List<LakeCompactionResult> out = new ArrayList<>();
                for (LakeBucket unit : plan.units()) {
                    CompactionTask task =
                            new CompactionTask(
                                    path,
                                    TABLE_ID,
                                    descriptor,
                                    maintenanceId,
                                    unit,
                                    1,
                                    plan.stats().snapshotId());
                    try (LakeCompactor c = storage.createCompactor(task)) {
                        out.add(c.compact());
                    }
                }
                return out;
            }
        }

        MaintenanceCommitResult commitCompaction(
                long maintenanceId, List<LakeCompactionResult> results) {
            try (LakeMaintainer m = storage.createMaintainer(path)) {
                return m.commitCompaction(TABLE_ID, maintenanceId, results);
            }
        }

        /** Expires all the snapshots the policy allows; returns how many the table keeps. */
        int expire() {
            try (LakeMaintainer m = storage.createMaintainer(path)) {
                m.expireSnapshots(new ExpiryPolicy(TABLE_ID, 1, Duration.ZERO));
            }
            int n = 0;
            for (Snapshot ignored : table().snapshots()) {
                n++;
            }
            return n;
        }

        /** The table read with Iceberg's own reader holds exactly the expected rows. */
        void checkRead() throws Exception {
            Set<List<Object>> actual = new HashSet<>();
            List<List<Object>> all = new ArrayList<>();
            try (CloseableIterable<Record> records = IcebergGenerics.read(table()).build()) {
                for (Record r : records) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 0; i < 3; i++) {
                        Object v = r.get(i);
                        row.add(v instanceof CharSequence s ? s.toString() : v);
                    }
                    assertThat(r.get(4)).isNotNull();
                    assertThat(r.get(5)).isInstanceOf(OffsetDateTime.class);
                    actual.add(row);
                    all.add(row);
                }
            }
            Set<List<Object>> want = new HashSet<>();
            for (Row r : expected.values()) {
                want.add(List.of(r.getField(0), r.getField(1), r.getField(2)));
            }
            assertThat(all)
                    .as("no key twice (seed %s, round %s)", seed, round)
                    .hasSize(actual.size());
            assertThat(actual).as("seed %s, round %s", seed, round).isEqualTo(want);
        }

        /** Live delete files of the current snapshot. */
        List<DeleteFile> deleteFiles() {
            Table t = table();
            return t.currentSnapshot() == null
                    ? List.of()
                    : IcebergBuckets.liveDeleteFiles(t, t.currentSnapshot());
        }

        /**
         * No snapshot holds an equality delete; v3: every delete is a deletion vector and a data
         * file has at most one; v2: position delete files.
         */
        void checkDeletes(boolean v3) {
            Table t = table();
            for (Snapshot s : t.snapshots()) {
                for (DeleteFile d : IcebergBuckets.liveDeleteFiles(t, s)) {
                    assertThat(d.content())
                            .as("seed %s: %s in snapshot %s", seed, d.location(), s.snapshotId())
                            .isEqualTo(FileContent.POSITION_DELETES);
                }
            }
            Set<String> referenced = new HashSet<>();
            for (DeleteFile d : deleteFiles()) {
                if (v3) {
                    assertThat(d.format()).isEqualTo(FileFormat.PUFFIN);
                    assertThat(referenced.add(d.referencedDataFile()))
                            .as("one DV per data file: %s", d.referencedDataFile())
                            .isTrue();
                } else {
                    assertThat(d.format()).isEqualTo(FileFormat.PARQUET);
                }
            }
        }
    }

    /**
     * The store's lake row index as writers reach it, built the way the server builds it: the
     * format's {@link dev.tributary.lake.api.index.LakeRowScanner} reads the bucket's live rows of
     * the writer's snapshot (here all of them on every call; the server reads only new files).
     */
    private final class ScannedIndex {
        enum Mode {
            ANSWER,
            CANNOT_ANSWER,
            WRONG_FILE
        }

        private final Lake lake;
        private Mode mode = Mode.ANSWER;
        private long asked;
        private long answered;

        ScannedIndex(Lake lake) {
            this.lake = lake;
        }

        dev.tributary.lake.api.index.LakeRowLocator of(String split, int bucket) {
            dev.tributary.common.id.PartitionSpec partition =
                    split.contains("/")
                            ? dev.tributary.common.id.PartitionSpec.parse(
                                    "dt=" + split.substring(0, split.indexOf('/')))
                            : null;
            return (snapshotId, keys) -> {
                asked++;
                if (mode == Mode.CANNOT_ANSWER) {
                    return java.util.Optional.empty();
                }
                Map<java.nio.ByteBuffer, dev.tributary.lake.api.index.LakeRowLocation> rows =
                        new HashMap<>();
                try (dev.tributary.lake.api.index.LakeRowScanner scanner =
                        storage.createRowScanner(lake.path, lake.descriptor).orElseThrow()) {
                    scanner.scan(
                            snapshotId,
                            partition,
                            bucket,
                            scanner.bucketFiles(snapshotId, partition, bucket, -1).files(),
                            (key, at) -> rows.put(java.nio.ByteBuffer.wrap(key), at));
                }
                dev.tributary.lake.api.index.LakeRowLocation[] out =
                        new dev.tributary.lake.api.index.LakeRowLocation[keys.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = rows.get(java.nio.ByteBuffer.wrap(keys.get(i)));
                    if (out[i] != null) {
                        answered++;
                        if (mode == Mode.WRONG_FILE) {
                            out[i] =
                                    new dev.tributary.lake.api.index.LakeRowLocation(
                                            out[i].file() + ".gone", out[i].position());
                        }
                    }
                }
                return java.util.Optional.of(out);
            };
        }
    }

    private static Row userRow(Row r) {
        return r;
    }
}

package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.maintenance.LakeCompactor;
import dev.tributary.lake.api.maintenance.LakeMaintainer;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.lake.iceberg.testing.FaultyFileIO;
import dev.tributary.lake.iceberg.testing.FaultyFileIO.Fault;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * T22 for Iceberg: a lake I/O failure while a writer writes or closes its data, equality-delete or
 * position-delete files (a full disk: Hadoop's local file system throws an {@link Error}, {@code
 * FSError}, on a failed write) fails that writer with a {@link StorageException}, which fails only
 * its table's round. Its abort and close never throw and leave none of its files behind, and the
 * round's next attempt commits exactly once. Before the fix the Error escaped complete() and ended
 * the tiering job.
 */
class IcebergLakeWriterFaultTest {
    private static final int ROWS = 100;

    @TempDir Path warehouse;
    private LakeStorage storage;

    @BeforeEach
    void open() {
        storage = FaultyFileIO.lakeStorage(warehouse);
    }

    @AfterEach
    void close() {
        FaultyFileIO.heal();
        storage.close();
    }

    private static TableDescriptor table(boolean primaryKey) {
        Schema.Builder s = Schema.newBuilder().column("id", DataTypes.INT().notNull());
        s.column("name", DataTypes.STRING());
        if (primaryKey) {
            s.primaryKey("id");
        }
        // equality mode: a retraction of a key from an earlier round is an equality delete, so a
        // PK writer has a data, an equality-delete and a position-delete file open at once
        return TableDescriptor.builder(s.build())
                .bucketCount(1)
                .bucketKeys("id")
                .property("table.datalake.pk-deletes", "equality")
                .build();
    }

    private LakeWriter writer(TablePath path, TableDescriptor d, long attempt) {
        return writer(path, d, attempt, 1);
    }

    private LakeWriter writer(TablePath path, TableDescriptor d, long epoch, long round) {
        return storage.createWriter(new LakeWriterContext(path, 7, d, 0, epoch, round));
    }

    /**
     * A log table gets ROWS appends. A PK table gets ROWS inserts, then updates of keys 0..9 and
     * deletes of keys 10..19 (position deletes: those keys were written by this writer) and a
     * delete of key 1000 (an equality delete: a key from an earlier round), so data,
     * equality-delete and position-delete files are all open when the writer completes.
     */
    private static void writeRows(LakeWriter w, boolean primaryKey) {
        long offset = 0;
        for (int i = 0; i < ROWS; i++) {
            w.write(
                    Row.of(i, "n" + i),
                    primaryKey ? ChangeType.INSERT : ChangeType.APPEND_ONLY,
                    0,
                    offset++,
                    1_000L + i);
        }
        if (!primaryKey) {
            return;
        }
        for (int i = 0; i < 10; i++) {
            w.write(Row.of(i, "n" + i), ChangeType.UPDATE_BEFORE, 0, offset++, 2_000L);
            w.write(Row.of(i, "u" + i), ChangeType.UPDATE_AFTER, 0, offset++, 2_000L);
        }
        for (int i = 10; i < 20; i++) {
            w.write(Row.of(i, "n" + i), ChangeType.DELETE, 0, offset++, 2_000L);
        }
        w.write(Row.of(1000, "old"), ChangeType.DELETE, 0, offset, 2_000L);
    }

    private static Map<Integer, String> expected(boolean primaryKey) {
        Map<Integer, String> m = new TreeMap<>();
        for (int i = 0; i < ROWS; i++) {
            if (!primaryKey || i >= 20) {
                m.put(i, "n" + i);
            } else if (i < 10) {
                m.put(i, "u" + i);
            }
        }
        return m;
    }

    /** Every file under the table's data directory (data and delete files, Hadoop's .crc). */
    private List<Path> dataFiles(TablePath path) throws Exception {
        Path dir = warehouse.resolve(path.database()).resolve(path.table()).resolve("data");
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    @ParameterizedTest(name = "primary key: {0}, fault: {1} of file {2}")
    @CsvSource({
        "false, CREATE, 1",
        "false, FIRST_BYTE, 1",
        "false, AFTER_MAGIC, 1",
        "false, CLOSE, 1",
        "true, CREATE, 1",
        "true, CREATE, 2",
        "true, CREATE, 3",
        "true, FIRST_BYTE, 2",
        "true, AFTER_MAGIC, 1",
        "true, AFTER_MAGIC, 2",
        "true, AFTER_MAGIC, 3",
        "true, CLOSE, 1",
        "true, CLOSE, 2",
        "true, CLOSE, 3",
        "true, AFTER_MAGIC, 0",
    })
    void t22_aFailedFileFailsTheWriterWithAStorageErrorAndItsAbortLeavesNothing(
            boolean primaryKey, Fault fault, int nthFile) throws Exception {
        TablePath path = TablePath.of("db", (primaryKey ? "pk_" : "log_") + fault + nthFile);
        TableDescriptor d = table(primaryKey);
        storage.catalog().createTable(path, d);

        LakeWriter failing = writer(path, d, 1);
        FaultyFileIO.fail("/" + path.table() + "/data/", fault, nthFile);
        Throwable failure = null;
        try {
            writeRows(failing, primaryKey);
            failing.complete();
        } catch (Throwable t) {
            failure = t;
        }
        assertThat(FaultyFileIO.faults()).as("the fault fired").isPositive();
        assertThat(failure)
                .as("a lake I/O failure is a StorageException, never an Error")
                .isInstanceOf(StorageException.class);
        assertThatThrownBy(failing::complete)
                .as("a failed writer never completes with what it has left")
                .isInstanceOf(IllegalStateException.class);
        assertThatCode(failing::abort).doesNotThrowAnyException();
        assertThatCode(failing::close).doesNotThrowAnyException();
        assertThatCode(failing::close).as("idempotent").doesNotThrowAnyException();
        assertThatCode(failing::abort).as("idempotent").doesNotThrowAnyException();
        FaultyFileIO.heal();
        assertThat(dataFiles(path)).as("nothing of the failed attempt is left").isEmpty();

        commitAFreshAttempt(path, d, primaryKey);
    }

    @ParameterizedTest(name = "primary key: {0}")
    @CsvSource({"false", "true"})
    void t22_anAbortThatCannotDeleteNeverThrows(boolean primaryKey) throws Exception {
        TablePath path = TablePath.of("db", primaryKey ? "pk_nodelete" : "log_nodelete");
        TableDescriptor d = table(primaryKey);
        storage.catalog().createTable(path, d);

        // failed while closing its files, then the abort cannot delete them either
        LakeWriter failing = writer(path, d, 1);
        FaultyFileIO.fail("/" + path.table() + "/data/", Fault.CLOSE, 0);
        FaultyFileIO.failDeletes();
        writeRows(failing, primaryKey);
        assertThatThrownBy(failing::complete).isInstanceOf(StorageException.class);
        assertThatCode(failing::abort).doesNotThrowAnyException();
        assertThatCode(failing::close).doesNotThrowAnyException();

        // completed, then aborted (its round failed elsewhere) while deletes fail
        FaultyFileIO.heal();
        LakeWriter completed = writer(path, d, 2);
        writeRows(completed, primaryKey);
        assertThat(completed.complete().files()).isNotEmpty();
        FaultyFileIO.fail("/" + path.table() + "/data/", Fault.CREATE, 0);
        FaultyFileIO.failDeletes();
        assertThatCode(completed::abort).doesNotThrowAnyException();
        assertThatCode(completed::close).doesNotThrowAnyException();
        assertThat(FaultyFileIO.faults()).as("the deletes were refused").isPositive();
        FaultyFileIO.heal();
    }

    /** The round's next attempt, fault cleared, commits the split once; Iceberg reads it. */
    private void commitAFreshAttempt(TablePath path, TableDescriptor d, boolean primaryKey)
            throws Exception {
        LakeWriteResult result;
        try (LakeWriter retry = writer(path, d, 2)) {
            writeRows(retry, primaryKey);
            result = retry.complete();
        }
        try (LakeCommitter c = storage.createCommitter(path)) {
            c.commit(List.of(result), TieringSnapshotProperties.of(7, 2, 1, Map.of(0, 100L)));
        }
        assertThat(dataFiles(path).stream().map(p -> p.toUri().toString()))
                .as("Hadoop's .crc files aside, the files of the committed attempt")
                .filteredOn(p -> !p.endsWith(".crc"))
                .hasSameSizeAs(result.files());

        Catalog catalog =
                CatalogUtil.buildIcebergCatalog(
                        "native",
                        Map.of(
                                CatalogProperties.WAREHOUSE_LOCATION,
                                warehouse.toUri().toString(),
                                CatalogUtil.ICEBERG_CATALOG_TYPE,
                                CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP),
                        new org.apache.hadoop.conf.Configuration());
        Table table = catalog.loadTable(TableIdentifier.of(path.database(), path.table()));
        List<Map<String, Object>> rows = IcebergReads.readNamed(table);
        Map<Integer, String> read = new TreeMap<>();
        for (Map<String, Object> r : rows) {
            assertThat(read.put((Integer) r.get("id"), (String) r.get("name")))
                    .as("key %s read once", r.get("id"))
                    .isNull();
        }
        assertThat(read).isEqualTo(expected(primaryKey));
    }

    @ParameterizedTest(name = "fault: {0}")
    @CsvSource({"AFTER_MAGIC", "CLOSE", "CREATE"})
    void t22_aFailedCompactionDeletesWhatItWroteAndThrowsAStorageError(Fault fault)
            throws Exception {
        TablePath path = TablePath.of("db", "compact_" + fault);
        TableDescriptor d = table(false);
        storage.catalog().createTable(path, d);
        for (long round = 1; round <= 3; round++) {
            LakeWriteResult r;
            try (LakeWriter w = writer(path, d, 1, round)) {
                writeRows(w, false);
                r = w.complete();
            }
            try (LakeCommitter c = storage.createCommitter(path)) {
                c.commit(List.of(r), TieringSnapshotProperties.of(7, 1, round, Map.of(0, 100L)));
            }
        }
        List<Path> before = dataFiles(path);
        CompactionPlan plan;
        try (LakeMaintainer m = storage.createMaintainer(path)) {
            plan = m.planCompaction(new CompactionPolicy(2, 1024));
        }
        assertThat(plan.buckets()).containsExactly(0);
        CompactionTask task =
                new CompactionTask(
                        path, 7, d, 1, plan.units().get(0), 2, plan.stats().snapshotId());

        FaultyFileIO.fail("/" + path.table() + "/data/", fault, 0);
        LakeCompactor c = storage.createCompactor(task);
        assertThatThrownBy(c::compact).isInstanceOf(StorageException.class);
        assertThat(FaultyFileIO.faults()).as("the fault fired").isPositive();
        assertThatCode(c::abort).doesNotThrowAnyException();
        assertThatCode(c::close).doesNotThrowAnyException();
        FaultyFileIO.heal();
        assertThat(dataFiles(path))
                .as("nothing of the failed compaction is left")
                .containsExactlyInAnyOrderElementsOf(before);
    }
}

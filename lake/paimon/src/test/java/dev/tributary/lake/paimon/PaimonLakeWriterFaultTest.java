package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
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
import dev.tributary.lake.paimon.testing.FaultyFileIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * T22 regression: a lake I/O failure while a writer flushes its files (a full or failing disk or
 * object store) fails that writer once. Its abort never writes the buffer again, it ends ABORTED
 * whatever happens, and close after it is quiet; the next attempt of the round commits exactly
 * once. Before the fix the abort flushed again, failed before it marked itself aborted, and was run
 * twice more by close, which killed the Flink task and the job.
 */
class PaimonLakeWriterFaultTest {
    private Path warehouse;
    private LakeStorage storage;

    @BeforeEach
    void open(@org.junit.jupiter.api.io.TempDir Path dir) {
        warehouse = dir;
        storage =
                LakeStoragePlugins.find("paimon")
                        .createLakeStorage(
                                Configuration.fromMap(
                                        Map.of("warehouse", "faulty://" + dir.toAbsolutePath())));
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
        return TableDescriptor.builder(s.build()).bucketCount(1).bucketKeys("id").build();
    }

    private LakeWriter writer(TablePath path, TableDescriptor d, long epoch) {
        return storage.createWriter(new LakeWriterContext(path, 7, d, 0, epoch, epoch));
    }

    private static void writeRows(LakeWriter w, boolean primaryKey) {
        for (int i = 0; i < 100; i++) {
            w.write(
                    Row.of(i, "n" + i),
                    primaryKey ? ChangeType.INSERT : ChangeType.APPEND_ONLY,
                    0,
                    i,
                    1_000L + i);
        }
    }

    private List<Path> dataFiles(TablePath path) throws Exception {
        Path dir = warehouse.resolve(path.database() + ".db").resolve(path.table());
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> p.getParent().getFileName().toString().startsWith("bucket-"))
                    .toList();
        }
    }

    @ParameterizedTest(name = "primary key: {0}")
    @ValueSource(booleans = {true, false})
    void t22_aFlushFailureFailsTheWriterOnceAndItsAbortWritesNothing(boolean primaryKey)
            throws Exception {
        TablePath path = TablePath.of("db", primaryKey ? "pk" : "log");
        TableDescriptor d = table(primaryKey);
        storage.catalog().createTable(path, d);

        LakeWriter failing = writer(path, d, 1);
        if (primaryKey) {
            // the PK writer buffers and sorts in memory: its files are written at the flush
            writeRows(failing, true);
            FaultyFileIO.failWritesUnder("/" + path.table() + "/bucket-");
            assertThatThrownBy(failing::complete)
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(
                            "flushing Paimon files of 'db." + path.table() + "' failed");
        } else {
            // the append writer streams into its file, which it opens at the first record
            FaultyFileIO.failWritesUnder("/" + path.table() + "/bucket-");
            assertThatThrownBy(() -> writeRows(failing, false))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("writing to Paimon table 'db." + path.table() + "'");
        }
        int refused = FaultyFileIO.refusedCreates();
        assertThatCode(failing::abort).doesNotThrowAnyException();
        assertThatCode(failing::close).doesNotThrowAnyException();
        assertThatCode(failing::abort).as("idempotent").doesNotThrowAnyException();
        assertThat(FaultyFileIO.refusedCreates())
                .as("abort and close never write the buffer again")
                .isEqualTo(refused);
        FaultyFileIO.heal();
        assertThat(dataFiles(path)).as("nothing of the failed attempt is left").isEmpty();

        // the round's next attempt writes the same records and commits them once
        LakeWriteResult result;
        try (LakeWriter retry = writer(path, d, 2)) {
            writeRows(retry, primaryKey);
            result = retry.complete();
        }
        try (LakeCommitter c = storage.createCommitter(path)) {
            LakeCommitResult r =
                    c.commit(
                            List.of(result),
                            TieringSnapshotProperties.of(7, 2, 2, Map.of(0, 100L)));
            assertThat(r.rowCount()).isEqualTo(100);
        }
        assertThat(dataFiles(path)).hasSize(result.files().size());
    }

    @ParameterizedTest(name = "primary key: {0}")
    @ValueSource(booleans = {true, false})
    void t22_anAbortThatCannotDeleteFailsOnceAndLeavesTheWriterAborted(boolean primaryKey) {
        TablePath path = TablePath.of("db", primaryKey ? "pk2" : "log2");
        TableDescriptor d = table(primaryKey);
        storage.catalog().createTable(path, d);
        LakeWriter w = writer(path, d, 1);
        writeRows(w, primaryKey);
        LakeWriteResult done = w.complete();
        assertThat(done.files()).isNotEmpty();
        // deleting cannot be refused by this file system; what matters is the state machine
        w.abort();
        assertThatCode(w::close).doesNotThrowAnyException();
        assertThatThrownBy(w::complete).isInstanceOf(IllegalStateException.class);
    }
}

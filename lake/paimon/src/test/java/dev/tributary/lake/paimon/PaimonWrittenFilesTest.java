package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A round that compacts (deletion vectors, T48) may move a committed file up a level: its commit
 * message then names that file as a compaction output. Aborting the round must not delete it.
 */
class PaimonWrittenFilesTest {
    @TempDir Path warehouse;

    @Test
    void t48_anAbortNeverDeletesACommittedFileTheRoundOnlyMoved() throws Exception {
        TablePath path = TablePath.of("db", "moved");
        TableDescriptor t =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT().notNull())
                                        .column("name", DataTypes.STRING())
                                        .primaryKey("id")
                                        .build())
                        .bucketCount(1)
                        .bucketKeys("id")
                        .property(
                                TableOptions.BUCKET_FUNCTION.key(),
                                BucketFunctionType.PAIMON.value())
                        // a write-only round: its file stays at level 0, below where it moves
                        .property(TableOptions.DATALAKE_PK_DELETES.key(), "equality")
                        .build();
        try (LakeStorage storage =
                LakeStoragePlugins.find("paimon")
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", warehouse.toString())))) {
            storage.catalog().createTable(path, t);
            LakeWriteResult result;
            try (LakeWriter w =
                    storage.createWriter(
                            new LakeWriterContext(
                                    path,
                                    1,
                                    t,
                                    0,
                                    1,
                                    1,
                                    TableBucket.NO_PARTITION,
                                    null,
                                    LakeWriterContext.SplitSource.LOG))) {
                for (long i = 0; i < 100; i++) {
                    w.write(Row.of(i, "n" + i), ChangeType.INSERT, 0, i, 0);
                }
                result = w.complete();
            }
            assertThat(result.files()).hasSize(1);
            try (var c = storage.createCommitter(path)) {
                c.commit(
                        List.of(result),
                        dev.tributary.lake.api.commit.TieringSnapshotProperties.of(
                                1,
                                1,
                                1,
                                new java.util.TreeMap<>(
                                        Map.of(
                                                new dev.tributary.common.id.PartitionBucket(
                                                        TableBucket.NO_PARTITION, 0),
                                                100L)),
                                Map.of(),
                                -1));
            }
        }
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(
                                Options.fromMap(
                                        Map.of(
                                                "warehouse",
                                                LakeStorageOptions.warehouseUri(
                                                        warehouse.toString())))))) {
            FileStoreTable table =
                    (FileStoreTable)
                            catalog.getTable(Identifier.create(path.database(), path.table()));
            DataFileMeta committed = table.store().newScan().plan().files().get(0).file();
            org.apache.paimon.fs.Path file =
                    table.store()
                            .pathFactory()
                            .createDataFilePathFactory(BinaryRow.EMPTY_ROW, 0)
                            .toPath(committed);
            assertThat(committed.level()).isZero();
            int to = 5;
            List<CommitMessage> moved =
                    List.of(
                            new CommitMessageImpl(
                                    BinaryRow.EMPTY_ROW,
                                    0,
                                    1,
                                    DataIncrement.emptyIncrement(),
                                    new CompactIncrement(
                                            List.of(committed),
                                            List.of(committed.upgrade(to)),
                                            List.of())));
            assertThat(PaimonWrittenFiles.of((CommitMessageImpl) moved.get(0))).isEmpty();
            PaimonWrittenFiles.delete(table, moved);
            assertThat(table.fileIO().exists(file)).as("the moved file stays").isTrue();
            // what Paimon's own abort does with the same message, and why Tributary's does not
            try (TableCommitImpl commit =
                    (TableCommitImpl) table.newStreamWriteBuilder().newCommit()) {
                commit.abort(moved);
            }
            assertThat(table.fileIO().exists(file)).isFalse();
        }
    }
}

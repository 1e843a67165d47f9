package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.WriteResult;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A KV snapshot split of a PK table (its first round, T54) becomes data files only, on format v2
 * tables and on v3 tables (where a log split's deletes within the split are deletion vectors).
 */
class IcebergKvSnapshotSplitTest {
    private static final int KEYS = 2_000;

    @TempDir Path warehouse;

    @ParameterizedTest(name = "format v{0}")
    @ValueSource(ints = {2, 3})
    void t54_aSnapshotSplitWritesDataFilesOnlyAndKeepsNoKeyMap(int formatVersion) throws Exception {
        Schema.Builder columns =
                Schema.newBuilder()
                        .column("id", DataTypes.INT())
                        .column("name", DataTypes.STRING());
        // a nanosecond timestamp needs format v3; a PK table is v3 anyway unless it asks for v2
        columns.column("at", formatVersion == 3 ? DataTypes.TIMESTAMP(9) : DataTypes.TIMESTAMP(6));
        TableDescriptor.Builder builder =
                TableDescriptor.builder(columns.primaryKey("id").build()).bucketCount(1);
        if (formatVersion == 2) {
            builder.property("table.datalake.iceberg.format-version", "2");
        }
        TableDescriptor table = builder.build();
        TablePath path = TablePath.of("db", "first_round_v" + formatVersion);
        LocalDateTime at = LocalDateTime.of(2026, 12, 2, 5, 0, 0, 123_456_000);
        try (LakeStorage storage =
                new IcebergLakeStoragePlugin()
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", warehouse.toString())))) {
            storage.catalog().createTable(path, table);
            Table lake = nativeTable(path);
            assertThat(TableUtil.formatVersion(lake)).isEqualTo(formatVersion);

            LakeWriteResult result;
            try (LakeWriter w = storage.createWriter(snapshotSplit(path, table, 1))) {
                for (int k = 0; k < KEYS; k++) {
                    w.write(Row.of(k, "n" + k % 7, at), ChangeType.INSERT, 0, k, 0);
                }
                result = w.complete();
            }
            WriteResult files = IcebergWriteFiles.decode(result.payload(), lake.specs());
            assertThat(files.deleteFiles()).as("no delete files").isEmpty();
            assertThat(files.referencedDataFiles()).isEmpty();
            assertThat(files.dataFiles())
                    .isNotEmpty()
                    .allSatisfy(f -> assertThat(f.content()).isEqualTo(FileContent.DATA));
            assertThat(List.of(files.dataFiles()).stream().mapToLong(DataFile::recordCount).sum())
                    .isEqualTo(KEYS);
            try (LakeCommitter c = storage.createCommitter(path)) {
                c.commit(
                        List.of(result),
                        TieringSnapshotProperties.of(1, 1, 1, Map.of(0, KEYS + 0L)));
            }

            // the writer trusts the snapshot's promise of each key once: it keeps no key map, so
            // even a repeated key (which a snapshot never holds) writes no position delete
            try (LakeWriter w = storage.createWriter(snapshotSplit(path, table, 2))) {
                w.write(Row.of(1, "a", at), ChangeType.INSERT, 0, 0, 0);
                w.write(Row.of(1, "b", at), ChangeType.INSERT, 0, 1, 0);
                WriteResult repeated =
                        IcebergWriteFiles.decode(w.complete().payload(), lake.specs());
                assertThat(repeated.deleteFiles()).as("no key map, no delete").isEmpty();
                w.abort();
            }
        }
        Table lake = nativeTable(path);
        assertThat(lake.currentSnapshot().summary())
                .containsEntry("total-delete-files", "0")
                .containsEntry("total-records", String.valueOf(KEYS));
        int rows = 0;
        try (CloseableIterable<Record> records = IcebergGenerics.read(lake).build()) {
            for (Record r : records) {
                assertThat(r.getField("name")).hasToString("n" + (Integer) r.getField("id") % 7);
                rows++;
            }
        }
        assertThat(rows).isEqualTo(KEYS);
    }

    private static LakeWriterContext snapshotSplit(
            TablePath path, TableDescriptor table, long round) {
        return new LakeWriterContext(
                path,
                1,
                table,
                0,
                1,
                round,
                TableBucket.NO_PARTITION,
                null,
                LakeWriterContext.SplitSource.KV_SNAPSHOT);
    }

    private Table nativeTable(TablePath path) {
        return new HadoopCatalog(
                        new org.apache.hadoop.conf.Configuration(), warehouse.toUri().toString())
                .loadTable(TableIdentifier.of(path.database(), path.table()));
    }
}

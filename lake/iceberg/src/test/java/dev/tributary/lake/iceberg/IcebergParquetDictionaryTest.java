package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
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
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log offset and append timestamp columns, unique per row, are written without a dictionary in
 * the files tiering and compaction write; user columns keep Parquet's default (a dictionary).
 */
class IcebergParquetDictionaryTest {
    private static final int ROWS = 20_000;
    private static final long BASE_TS = 1_764_000_000_000L;

    @TempDir Path warehouse;

    @Test
    void t54_theSystemOffsetAndTimestampColumnsHaveNoDictionaryUserColumnsDo() throws Exception {
        TableDescriptor table =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT())
                                        .column("category", DataTypes.STRING())
                                        .build())
                        .bucketCount(1)
                        .build();
        TablePath path = TablePath.of("db", "clicks");
        List<String> tiered = new ArrayList<>();
        List<String> compacted = new ArrayList<>();
        try (LakeStorage storage =
                new IcebergLakeStoragePlugin()
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", warehouse.toString())))) {
            storage.catalog().createTable(path, table);
            // three rounds, three files in the bucket: enough for compaction to rewrite them
            for (int round = 1; round <= 3; round++) {
                LakeWriteResult r;
                try (LakeWriter w =
                        storage.createWriter(new LakeWriterContext(path, 1, table, 0, 1, round))) {
                    for (long i = 0; i < ROWS; i++) {
                        long offset = (round - 1L) * ROWS + i;
                        w.write(
                                Row.of(offset * 7919, "cat" + i % 16),
                                ChangeType.APPEND_ONLY,
                                0,
                                offset,
                                // the store stamps a batch: one append time per 500 rows
                                BASE_TS + offset / 500);
                    }
                    r = w.complete();
                }
                tiered.addAll(r.files());
                try (LakeCommitter c = storage.createCommitter(path)) {
                    c.commit(
                            List.of(r),
                            TieringSnapshotProperties.of(
                                    1, 1, round, Map.of(0, round * ROWS + 0L)));
                }
            }
            CompactionPlan plan;
            try (LakeMaintainer m = storage.createMaintainer(path)) {
                plan = m.planCompaction(new CompactionPolicy(1, 16));
            }
            assertThat(plan.units()).hasSize(1);
            CompactionTask task =
                    new CompactionTask(
                            path, 1, table, 7, plan.units().get(0), 1, plan.stats().snapshotId());
            try (LakeCompactor c = storage.createCompactor(task)) {
                compacted.addAll(c.compact().newFiles());
            }
        }
        assertThat(tiered).hasSize(3);
        assertThat(compacted).isNotEmpty();
        for (String file : concat(tiered, compacted)) {
            Map<String, Boolean> dictionary = dictionaryPages(file);
            assertThat(dictionary)
                    .as(file)
                    .containsEntry(LakeSystemColumns.OFFSET, false)
                    .containsEntry(LakeSystemColumns.TIMESTAMP, false)
                    .containsEntry("category", true)
                    // a constant column: Parquet's default, untouched
                    .containsEntry(LakeSystemColumns.BUCKET, true);
        }
    }

    /**
     * Unique offsets never leave a dictionary page (Parquet drops the dictionary at the first page,
     * after building it), so only offsets that repeat, which tiering never writes, show in the
     * footer whether the column's setting reached Parquet.
     */
    @Test
    void t54_theOffsetColumnHasNoDictionaryEvenWhereOneWouldPay() throws Exception {
        TableDescriptor table =
                TableDescriptor.builder(
                                Schema.newBuilder().column("category", DataTypes.STRING()).build())
                        .bucketCount(1)
                        .build();
        TablePath path = TablePath.of("db", "repeats");
        LakeWriteResult r;
        try (LakeStorage storage =
                        new IcebergLakeStoragePlugin()
                                .createLakeStorage(
                                        Configuration.fromMap(
                                                Map.of("warehouse", warehouse.toString())));
                LakeWriter w = createTableAndWriter(storage, path, table)) {
            for (long i = 0; i < 5_000; i++) {
                w.write(Row.of("cat" + i % 16), ChangeType.APPEND_ONLY, 0, i % 50, BASE_TS);
            }
            r = w.complete();
        }
        assertThat(dictionaryPages(r.files().get(0)))
                .containsEntry(LakeSystemColumns.OFFSET, false)
                .containsEntry(LakeSystemColumns.TIMESTAMP, false)
                .containsEntry("category", true);
    }

    private static LakeWriter createTableAndWriter(
            LakeStorage storage, TablePath path, TableDescriptor table) {
        storage.catalog().createTable(path, table);
        return storage.createWriter(new LakeWriterContext(path, 1, table, 0, 1, 1));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** Per column: whether a column chunk of the file's first row group has a dictionary page. */
    private static Map<String, Boolean> dictionaryPages(String file) throws IOException {
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        HadoopInputFile.fromPath(
                                new org.apache.hadoop.fs.Path(file),
                                new org.apache.hadoop.conf.Configuration()))) {
            BlockMetaData rowGroup = reader.getFooter().getBlocks().get(0);
            Map<String, Boolean> out = new TreeMap<>();
            for (ColumnChunkMetaData c : rowGroup.getColumns()) {
                boolean dictionary =
                        c.hasDictionaryPage()
                                || c.getEncodingStats() != null
                                        && c.getEncodingStats().hasDictionaryPages();
                out.put(c.getPath().toDotString(), dictionary);
            }
            return out;
        }
    }
}

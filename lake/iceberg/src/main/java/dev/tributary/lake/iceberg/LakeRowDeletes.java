package dev.tributary.lake.iceberg;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.DVFileWriter;
import org.apache.iceberg.deletes.DeleteGranularity;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FanoutPositionOnlyDeleteWriter;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Writes the retraction of located lake rows (T48): on a format v3 table one deletion vector per
 * data file, merged with the file's deletion vector already in the table, which the result names as
 * rewritten so the round's commit removes it (at most one DV per data file); on a v2 table
 * file-scoped position delete files.
 */
final class LakeRowDeletes {
    private LakeRowDeletes() {}

    static DeleteWriteResult write(
            Table table,
            LiveRowLocator.LiveRows rows,
            boolean deletionVectors,
            FileWriterFactory<Record> writerFactory,
            OutputFileFactory fileFactory,
            FileIO io,
            long targetFileSize)
            throws IOException {
        Map<Integer, PartitionSpec> specs = table.specs();
        if (deletionVectors) {
            Map<String, PositionDeleteIndex> previous = new HashMap<>();
            for (LiveRowLocator.FileRows f : rows.files()) {
                if (f.existingDeletes() != null) {
                    previous.put(f.file().location(), f.existingDeletes());
                }
            }
            DVFileWriter dvs = new BaseDVFileWriter(fileFactory, previous::get);
            try (DVFileWriter w = dvs) {
                for (LiveRowLocator.FileRows f : rows.files()) {
                    PartitionSpec spec = specs.get(f.file().specId());
                    for (long pos : f.positions()) {
                        w.delete(f.file().location(), pos, spec, f.file().partition());
                    }
                }
            }
            return dvs.result();
        }
        FanoutPositionOnlyDeleteWriter<Record> deletes =
                new FanoutPositionOnlyDeleteWriter<>(
                        writerFactory, fileFactory, io, targetFileSize, DeleteGranularity.FILE);
        PositionDelete<Record> delete = PositionDelete.create();
        try (FanoutPositionOnlyDeleteWriter<Record> w = deletes) {
            for (LiveRowLocator.FileRows f : rows.files()) {
                PartitionSpec spec = specs.get(f.file().specId());
                for (long pos : f.positions()) {
                    w.write(delete.set(f.file().location(), pos), spec, f.file().partition());
                }
            }
        }
        return deletes.result();
    }

    /**
     * Writes the deletes a commit adds itself (moved or carried onto a compaction's files), named
     * with {@code tag} for orphan cleanup and created through {@code io}, with the table's own
     * writer settings.
     */
    static DeleteWriteResult writeAtCommit(
            Table table, List<LiveRowLocator.FileRows> rows, AttemptFileIO io, String tag)
            throws IOException {
        boolean v3 = TableUtil.formatVersion(table) >= 3;
        OutputFileFactory files =
                OutputFileFactory.builderFor(table, 0, 0)
                        .operationId(tag + "-" + UUID.randomUUID())
                        .format(v3 ? FileFormat.PUFFIN : FileFormat.PARQUET)
                        .ioSupplier(() -> io)
                        .build();
        return write(
                table,
                new LiveRowLocator.LiveRows(null, rows, 0),
                v3,
                new GenericFileWriterFactory.Builder(table)
                        .deleteFileFormat(FileFormat.PARQUET)
                        .writerProperties(IcebergParquetProperties.of(table))
                        .build(),
                files,
                io,
                PropertyUtil.propertyAsLong(
                        table.properties(),
                        TableProperties.DELETE_TARGET_FILE_SIZE_BYTES,
                        TableProperties.DELETE_TARGET_FILE_SIZE_BYTES_DEFAULT));
    }
}

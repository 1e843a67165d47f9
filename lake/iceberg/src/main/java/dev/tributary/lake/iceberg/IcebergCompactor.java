package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.maintenance.LakeCompactionResult;
import dev.tributary.lake.api.maintenance.LakeCompactor;
import dev.tributary.lake.api.write.AttemptFileNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Compacts one bucket (one {@code bucket[N]} partition value) of an Iceberg table as of the grant's
 * base snapshot, in each identity partition apart (T32) where it holds more than {@code max-files}
 * files: its small data files are read with their deletes applied (Iceberg's own delete filter) and
 * rewritten into files of the table's target size. In a PK table with delete files, every data file
 * of the bucket is rewritten, so readers stop merging equality and position deletes on every scan;
 * a deletion vector or file-scoped position delete is dropped with its data file, any other delete
 * file once no remaining data file is old enough for it to apply (an equality delete applies to
 * files of lower data sequence number, a position delete to files of lower or equal one). The new
 * files take the base snapshot's sequence number, so equality deletes tiering commits after the
 * base still apply to them; the deletion vectors and position deletes rounds add meanwhile for the
 * files this compaction rewrites are carried into the new files at its commit ({@link
 * IcebergCompactionDeletes}), which relies on the new files holding the replaced files' live rows
 * in the order of {@code replaced}.
 */
final class IcebergCompactor implements LakeCompactor {
    private static final int INTERRUPT_CHECK_ROWS = 1024;

    private final Table table;
    private final CompactionTask task;
    private final String tag;

    /** Every file this compaction creates: a failed or aborted one deletes them all (T22/T23). */
    private final AttemptFileIO files;

    IcebergCompactor(Table table, CompactionTask task) {
        this.table = table;
        this.task = task;
        this.tag = AttemptFileNames.maintenanceTag(task.tableId(), task.maintenanceId());
        this.files = new AttemptFileIO(table.io());
    }

    /**
     * Compacts the bucket. A failure, whatever the format library threw (Hadoop's local file system
     * throws an Error, {@code FSError}, on a full disk), deletes every file written so far and is a
     * {@link StorageException} unless it already was a typed exception.
     */
    @Override
    public LakeCompactionResult compact() {
        try {
            return compactBucket();
        } catch (Throwable e) {
            IcebergLakeWriter.rethrowIfFatal(e);
            files.discard(
                    "failed compaction " + task.maintenanceId() + " of '" + task.tablePath() + "'");
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new StorageException(
                    "compacting "
                            + task.unit()
                            + " of Iceberg table '"
                            + task.tablePath()
                            + "' failed: "
                            + e,
                    e);
        }
    }

    private LakeCompactionResult compactBucket() {
        Snapshot base =
                task.baseSnapshotId() >= 0
                        ? table.snapshot(task.baseSnapshotId())
                        : table.currentSnapshot();
        if (base == null) {
            if (task.baseSnapshotId() >= 0) {
                throw new StorageException(
                        "snapshot "
                                + task.baseSnapshotId()
                                + " of Iceberg table '"
                                + task.tablePath()
                                + "' that compaction "
                                + task.maintenanceId()
                                + " was planned on is gone; the bucket is planned again");
            }
            return empty();
        }
        Map<Integer, PartitionSpec> specs = table.specs();
        PartitionSpec spec = table.spec();
        // the unit is bucket b of one lake partition, so a rewritten file only ever holds rows of
        // that partition
        List<FileScanTask> inUnit = new ArrayList<>();
        try (CloseableIterable<FileScanTask> planned =
                table.newScan().useSnapshot(base.snapshotId()).planFiles()) {
            for (FileScanTask t : planned) {
                if (IcebergBuckets.unitOf(t.file(), specs).equals(task.unit())) {
                    inUnit.add(t);
                }
            }
        } catch (IOException e) {
            throw new StorageException("planning Iceberg files failed: " + e.getMessage(), e);
        }
        List<DeleteFile> deletes = new ArrayList<>();
        for (DeleteFile d : IcebergBuckets.liveDeleteFiles(table, base)) {
            if (IcebergBuckets.unitOf(d, specs).equals(task.unit())) {
                deletes.add(d);
            }
        }
        long target =
                PropertyUtil.propertyAsLong(
                        table.properties(),
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
        OutputFileFactory fileFactory =
                OutputFileFactory.builderFor(table, task.bucket(), (int) task.maintenanceId())
                        .operationId(tag + "-" + UUID.randomUUID())
                        .format(FileFormat.PARQUET)
                        .ioSupplier(() -> files)
                        .build();
        Rewrite r = plan(inUnit, deletes, spec, target);
        if (r == null) {
            return empty();
        }
        List<DataFile> added =
                r.rewrite.isEmpty() ? List.of() : write(r.rewrite, spec, target, fileFactory);
        List<DataFile> replaced = new ArrayList<>();
        int filesBefore = 0;
        long bytesBefore = 0;
        for (FileScanTask t : r.rewrite) {
            replaced.add(t.file());
            filesBefore++;
            bytesBefore += t.file().fileSizeInBytes();
        }
        for (DeleteFile d : r.removable) {
            filesBefore++;
            bytesBefore += d.fileSizeInBytes();
        }
        List<DeleteFile> removable = r.removable;
        if (replaced.isEmpty() && removable.isEmpty()) {
            return empty();
        }
        long bytesAfter = 0;
        List<String> paths = new ArrayList<>();
        for (DataFile f : added) {
            bytesAfter += f.fileSizeInBytes();
            paths.add(f.location());
        }
        IcebergCompaction payload =
                new IcebergCompaction(
                        base.snapshotId(), base.sequenceNumber(), replaced, removable, added);
        return new LakeCompactionResult(
                IcebergLakeStoragePlugin.IDENTIFIER,
                task.tablePath(),
                task.tableId(),
                task.maintenanceId(),
                task.bucket(),
                filesBefore,
                bytesBefore,
                added.size(),
                bytesAfter,
                paths,
                payload.encode(table.specs()));
    }

    /** What the unit rewrites and which of its delete files go. */
    private record Rewrite(List<FileScanTask> rewrite, List<DeleteFile> removable) {}

    /**
     * The rewrite of the unit: null when it holds at most {@code max-files} files (data and delete)
     * or there is nothing worth rewriting.
     */
    private Rewrite plan(
            List<FileScanTask> inBucket,
            List<DeleteFile> deletes,
            PartitionSpec spec,
            long target) {
        if (inBucket.size() + deletes.size() <= task.maxFiles()) {
            return null;
        }
        boolean applyDeletes = !deletes.isEmpty();
        List<FileScanTask> rewrite = new ArrayList<>();
        for (FileScanTask t : inBucket) {
            boolean ours =
                    t.file().specId() == spec.specId() && t.file().format() == FileFormat.PARQUET;
            if (ours && (applyDeletes || t.file().fileSizeInBytes() < target)) {
                rewrite.add(t);
            }
        }
        Set<String> rewritten = new HashSet<>();
        rewrite.forEach(t -> rewritten.add(t.file().location()));
        long oldestKept = Long.MAX_VALUE;
        for (FileScanTask t : inBucket) {
            if (!rewritten.contains(t.file().location())) {
                oldestKept = Math.min(oldestKept, t.file().dataSequenceNumber());
            }
        }
        List<DeleteFile> removable = new ArrayList<>();
        for (DeleteFile d : deletes) {
            long seq = d.dataSequenceNumber();
            // a deletion vector or file-scoped position delete applies to its one data file
            String dataFile = d.referencedDataFile();
            boolean appliesToKept =
                    dataFile != null
                            ? !rewritten.contains(dataFile)
                            : d.content() == FileContent.EQUALITY_DELETES
                                    ? oldestKept < seq
                                    : oldestKept <= seq;
            if (!appliesToKept) {
                removable.add(d);
            }
        }
        if (rewrite.size() < 2 && removable.isEmpty()) {
            return null;
        }
        // in location order, which a round's commit can tell from the compaction's snapshot alone
        // (CompactionRowMap)
        rewrite.sort(Comparator.comparing(t -> t.file().location()));
        return new Rewrite(rewrite, removable);
    }

    /** Reads {@code tasks} with their deletes applied and writes the rows into new files. */
    private List<DataFile> write(
            List<FileScanTask> tasks,
            PartitionSpec spec,
            long target,
            OutputFileFactory fileFactory) {
        Schema schema = table.schema();
        // every task is of one (partition, bucket): the files' partition is the new files' one
        StructLike partition = tasks.get(0).file().partition();
        RollingDataWriter<Record> writer =
                new RollingDataWriter<>(
                        new GenericFileWriterFactory.Builder(table)
                                .dataFileFormat(FileFormat.PARQUET)
                                .writerProperties(IcebergParquetProperties.of(table))
                                .build(),
                        fileFactory,
                        files,
                        target,
                        spec,
                        partition);
        try {
            long rows = 0;
            for (FileScanTask t : tasks) {
                DeleteFilter<Record> deletes =
                        new GenericDeleteFilter(table.io(), t, schema, schema);
                Schema readSchema = deletes.requiredSchema();
                try (CloseableIterable<Record> records =
                        deletes.filter(
                                Parquet.read(table.io().newInputFile(t.file().location()))
                                        .project(readSchema)
                                        .createReaderFunc(
                                                fileSchema ->
                                                        GenericParquetReaders.buildReader(
                                                                readSchema, fileSchema, Map.of()))
                                        .build())) {
                    for (Record r : records) {
                        writer.write(r);
                        if (++rows % INTERRUPT_CHECK_ROWS == 0 && Thread.interrupted()) {
                            Thread.currentThread().interrupt();
                            throw new RetriableException(
                                    "compaction of "
                                            + task.unit()
                                            + " of Iceberg table '"
                                            + task.tablePath()
                                            + "' was interrupted");
                        }
                    }
                }
            }
            writer.close();
            return writer.result().dataFiles();
        } catch (IOException | RuntimeException e) {
            // compact() deletes every file written so far, this writer's too, without closing it
            if (e instanceof RetriableException r) {
                throw r;
            }
            throw new StorageException(
                    "compacting "
                            + task.unit()
                            + " of Iceberg table '"
                            + task.tablePath()
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
    }

    private LakeCompactionResult empty() {
        return LakeCompactionResult.empty(
                IcebergLakeStoragePlugin.IDENTIFIER,
                task.tablePath(),
                task.tableId(),
                task.maintenanceId(),
                task.bucket());
    }

    @Override
    public void abort() {
        files.discard(
                "aborted compaction " + task.maintenanceId() + " of '" + task.tablePath() + "'");
    }

    @Override
    public void close() {}
}

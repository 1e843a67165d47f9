package dev.tributary.lake.iceberg;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Schema;
import dev.tributary.lake.api.catalog.LakeSchemaDiff;
import dev.tributary.lake.api.write.AttemptFileNames;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.lake.api.write.LakeWriterState;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one split into an Iceberg table. Log tables get data files; PK tables get data files and
 * deletes: a key rewritten within the split is retracted by position (Iceberg's own position
 * deletes, deletion vectors on v3); any other retracted key, with {@code table.datalake.pk-deletes}
 * {@code position} (T48), by the position of its live row in the lake, found at {@link #complete}
 * by a {@link LiveRowLocator} (deletion vectors on v3, merged with the file's existing one;
 * position delete files on v2), and with {@code equality} by an equality delete on the identifier
 * fields. Everything is committed atomically with the rest of the round by {@link
 * IcebergLakeCommitter}. A KV snapshot split of a PK table (its first round, T54) holds each key
 * once, all inserts, for a lake bucket no round has written: it gets data files only, written as a
 * log table's are, with no key map and no deletes.
 *
 * <p>Failures (T22): any failure of the lake's I/O, whatever it throws - Hadoop's local file system
 * throws an {@link Error}, {@code FSError}, when a write fails on a full disk - is a {@link
 * StorageException} that fails only this writer's round; the writer is then failed and can only be
 * aborted. Abort and close never throw: they delete every file the attempt created, without writing
 * anything more.
 */
final class IcebergLakeWriter implements LakeWriter {
    private static final Logger LOG = LoggerFactory.getLogger(IcebergLakeWriter.class);

    private final Table table;
    private final LakeWriterContext context;
    private final TributaryTaskWriter writer;
    private final AttemptFileIO files;
    private final IcebergValues.Converter[] converters;

    /**
     * Lake column of each Tributary column, then of the system columns: placed by name, so columns
     * another engine added (left NULL) or moved do not shift anything.
     */
    private final int[] positions;

    private final IcebergValues.FieldReader[] readers;
    private final int[] keyPositions;
    private final GenericRecord record;
    private final GenericRecord key;

    private LakeWriterState state = LakeWriterState.OPEN;

    /** Set by a failed write or complete: the Iceberg writer's state is unknown, only abort. */
    private Throwable failure;

    private Object[] lastRetractedKey;
    private WriteResult completed;
    private long rows;
    private long minTs = Long.MAX_VALUE;
    private long maxTs = Long.MIN_VALUE;

    IcebergLakeWriter(Table table, LakeWriterContext context) {
        this.table = table;
        this.context = context;
        Schema schema = context.table().schema();
        this.converters = new IcebergValues.Converter[schema.fieldCount()];
        this.readers = new IcebergValues.FieldReader[schema.fieldCount()];
        for (int i = 0; i < converters.length; i++) {
            converters[i] = IcebergValues.converterFor(schema.typeAt(i));
            readers[i] = IcebergValues.readerFor(schema.typeAt(i));
        }
        org.apache.iceberg.Schema icebergSchema = table.schema();
        this.positions =
                LakeSchemaDiff.positions(
                        context.table(),
                        icebergSchema.columns().stream().map(f -> f.name()).toList());
        this.record = GenericRecord.create(icebergSchema);

        org.apache.iceberg.Schema keySchema = null;
        int[] keyIds = new int[0];
        // a snapshot split has nothing to delete and each key once: no key map, no delete writers
        if (context.table().hasPrimaryKey() && !context.isKvSnapshot()) {
            List<String> pk = schema.primaryKey();
            keySchema = icebergSchema.select(pk);
            keyIds = pk.stream().mapToInt(n -> icebergSchema.findField(n).fieldId()).toArray();
            int[] keyIndexes = schema.primaryKeyIndexes();
            this.keyPositions = new int[keyIndexes.length];
            for (int k = 0; k < keyIndexes.length; k++) {
                keyPositions[k] = positions[keyIndexes[k]];
            }
            this.key = GenericRecord.create(keySchema);
        } else {
            this.keyPositions = new int[0];
            this.key = null;
        }
        GenericFileWriterFactory.Builder factory =
                new GenericFileWriterFactory.Builder(table)
                        .dataFileFormat(FileFormat.PARQUET)
                        .deleteFileFormat(FileFormat.PARQUET)
                        .writerProperties(IcebergParquetProperties.of(table));
        boolean byPosition =
                keySchema != null
                        && IcebergSchemas.pkDeletes(context.table())
                                == TableOptions.PkDeleteMode.POSITION;
        if (keySchema != null) {
            factory.equalityFieldIds(keyIds).equalityDeleteRowSchema(keySchema);
        }
        GenericFileWriterFactory writerFactory = factory.build();
        this.files = new AttemptFileIO(table.io());
        OutputFileFactory fileFactory = fileFactory(FileFormat.PARQUET);
        long targetSize =
                PropertyUtil.propertyAsLong(
                        table.properties(),
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
        boolean v3 = TableUtil.formatVersion(table) >= 3;
        this.writer =
                new TributaryTaskWriter(
                        table.spec(),
                        writerFactory,
                        fileFactory,
                        files,
                        targetSize,
                        keySchema != null && v3,
                        icebergSchema,
                        keySchema,
                        byPosition ? locator(table, context) : null,
                        new TributaryTaskWriter.LakeDeleteTarget(
                                table,
                                writerFactory,
                                v3,
                                v3 ? fileFactory(FileFormat.PUFFIN) : fileFactory));
    }

    /**
     * New files of this attempt, named for orphan cleanup (T23), created through {@link #files}.
     */
    private OutputFileFactory fileFactory(FileFormat format) {
        return OutputFileFactory.builderFor(table, context.bucket(), context.roundId())
                .operationId(AttemptFileNames.tag(context) + "-" + UUID.randomUUID())
                .format(format)
                .ioSupplier(() -> files)
                .build();
    }

    /**
     * Finds the live rows of keys the split retracts (T48): through the store's lake row index when
     * the split has one and it is the cheaper way, else by reading the split's bucket of the lake.
     */
    private static LiveRowLocator locator(Table table, LakeWriterContext context) {
        IcebergBucketRows bucket =
                IcebergBucketRows.of(table, context.table(), context.bucket(), context.partition());
        IcebergLakeRowLocator lake = new IcebergLakeRowLocator(bucket);
        return context.rowLocator() == null
                ? lake
                : new IndexedLiveRowLocator(
                        bucket,
                        context.rowLocator(),
                        lake,
                        Configuration.fromMap(context.table().properties())
                                .get(TableOptions.DATALAKE_PK_DELETES_INDEX_MIN_ROWS));
    }

    @Override
    public void write(
            Row row, ChangeType changeType, int bucket, long offset, long timestampMillis) {
        requireUsable("write");
        context.checkArity(row.arity());
        checkChangeType(changeType);
        int columns = converters.length;
        for (int i = 0; i < columns; i++) {
            Object v = i < row.arity() ? row.getField(i) : null;
            try {
                record.set(positions[i], v == null ? null : converters[i].convert(v));
            } catch (ClassCastException e) {
                throw context.valueError(i, v, e);
            }
        }
        writeRecord(changeType, bucket, offset, timestampMillis);
    }

    @Override
    public void write(
            EncodedRow row, ChangeType changeType, int bucket, long offset, long timestampMillis) {
        requireUsable("write");
        context.checkArity(row.arity());
        checkChangeType(changeType);
        for (int i = 0; i < readers.length; i++) {
            boolean present = i < row.arity() && !row.isNullAt(i);
            record.set(positions[i], present ? readers[i].read(row, i) : null);
        }
        writeRecord(changeType, bucket, offset, timestampMillis);
    }

    /** Adds the system columns to {@link #record} and writes it. */
    private void writeRecord(ChangeType changeType, int bucket, long offset, long timestampMillis) {
        int columns = readers.length;
        record.set(positions[columns], bucket);
        record.set(positions[columns + 1], offset);
        record.set(
                positions[columns + 2],
                OffsetDateTime.ofInstant(Instant.ofEpochMilli(timestampMillis), ZoneOffset.UTC));
        try {
            if (key == null) {
                writer.write(record);
            } else {
                writeChange(changeType);
            }
        } catch (Throwable e) {
            throw failed("writing to Iceberg table '" + context.tablePath() + "' failed", e);
        }
        rows++;
        minTs = Math.min(minTs, timestampMillis);
        maxTs = Math.max(maxTs, timestampMillis);
    }

    private void checkChangeType(ChangeType t) {
        if (key == null && t != ChangeType.APPEND_ONLY && t != ChangeType.INSERT) {
            throw new InvalidInputException(
                    (context.isKvSnapshot()
                                    ? "a KV snapshot split of primary-key table '"
                                            + context.tablePath()
                                            + "' (bucket "
                                            + context.bucket()
                                            + ") accepts only inserts, each key once, got "
                                    : "log table '"
                                            + context.tablePath()
                                            + "' accepts only append records, got ")
                            + t.shortString());
        }
    }

    /**
     * Applies one changelog record of a PK table. The store's changelog announces a new key with +I
     * and precedes every +U with the -U of the same key, so +I and such a +U are plain writes and
     * only retractions produce deletes (of the key's lake row or an equality delete, or a position
     * delete when the key was written earlier in this split). A +U without its -U is handled as a
     * full upsert.
     */
    private void writeChange(ChangeType t) throws IOException {
        Object[] keyValues = new Object[keyPositions.length];
        for (int k = 0; k < keyPositions.length; k++) {
            keyValues[k] = record.get(keyPositions[k]);
            key.set(k, keyValues[k]);
        }
        switch (t) {
            case APPEND_ONLY, INSERT -> writer.insert(record, key);
            case UPDATE_AFTER -> {
                if (java.util.Arrays.equals(keyValues, lastRetractedKey)) {
                    writer.insert(record, key);
                } else {
                    writer.upsert(record, key);
                }
            }
            case UPDATE_BEFORE, DELETE -> writer.deleteKey(record, key);
        }
        lastRetractedKey = t == ChangeType.UPDATE_BEFORE ? keyValues : null;
    }

    @Override
    public LakeWriteResult complete() {
        requireUsable("complete");
        try {
            completed = writer.complete();
        } catch (Throwable e) {
            throw failed("closing Iceberg files of '" + context.tablePath() + "' failed", e);
        }
        state = LakeWriterState.COMPLETED;
        if (writer.keysNotInLake() > 0) {
            LOG.debug(
                    "{} retracted keys of bucket {} of '{}' had no live row in the lake",
                    writer.keysNotInLake(),
                    context.bucket(),
                    context.tablePath());
        }
        List<String> paths = new ArrayList<>();
        long bytes = 0;
        List<ContentFile<?>> all = new ArrayList<>(List.of(completed.dataFiles()));
        all.addAll(List.of(completed.deleteFiles()));
        for (ContentFile<?> f : all) {
            paths.add(f.location());
            bytes += f.fileSizeInBytes();
        }
        return new LakeWriteResult(
                IcebergLakeStoragePlugin.IDENTIFIER,
                context.tablePath(),
                context.tableId(),
                context.epoch(),
                context.roundId(),
                context.bucket(),
                rows,
                paths,
                bytes,
                minTs,
                maxTs,
                paths.isEmpty()
                        ? new byte[0]
                        : IcebergWriteFiles.encode(
                                completed, writer.lakeBaseSnapshotId(), table.specs()));
    }

    @Override
    public void abort() {
        if (state == LakeWriterState.ABORTED || state == LakeWriterState.CLOSED) {
            return;
        }
        state = LakeWriterState.ABORTED;
        // not Iceberg's abort: it closes the open files first, writing them out in full only to
        // delete them, and on a full disk fails again; a completed attempt's files are all here too
        int left = files.discard("aborted writer of '" + context.tablePath() + "'");
        if (left > 0) {
            LOG.warn(
                    "{} files of an aborted attempt on Iceberg table '{}' are left; the table's next"
                            + " commit deletes them",
                    left,
                    context.tablePath());
        }
    }

    @Override
    public void close() {
        if (state == LakeWriterState.OPEN) {
            abort();
        }
        state = LakeWriterState.CLOSED;
    }

    private void requireUsable(String action) {
        state.require(LakeWriterState.OPEN, action);
        if (failure != null) {
            throw new IllegalStateException(
                    "cannot " + action + " a lake writer that failed; abort it", failure);
        }
    }

    /** Marks the writer failed; the failure as a StorageException (a JVM error is rethrown). */
    private StorageException failed(String what, Throwable e) {
        rethrowIfFatal(e);
        failure = e;
        return new StorageException(what + ": " + e, e);
    }

    /**
     * Rethrows what the JVM cannot recover from; everything else a lake library throws, Errors
     * included, is that library's failure and fails only the round.
     */
    static void rethrowIfFatal(Throwable t) {
        if (t instanceof VirtualMachineError e) {
            throw e;
        }
    }
}

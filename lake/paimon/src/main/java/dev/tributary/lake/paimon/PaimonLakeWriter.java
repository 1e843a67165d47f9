package dev.tributary.lake.paimon;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Schema;
import dev.tributary.lake.api.catalog.LakeSchemaDiff;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.lake.api.write.LakeWriterState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.TableWriteImpl;
import org.apache.paimon.types.RowKind;

/**
 * Writes one split into a Paimon table through Paimon's own table writer, which routes each row to
 * its Paimon bucket with Paimon's bucket function, so the table stays valid for every Paimon reader
 * whatever the Tributary table's bucket function. With {@code table.bucket.function=paimon} every
 * row of a split lands in the split's own bucket: one data file per split (plus rollovers at the
 * target file size) instead of one per Paimon bucket (T36).
 *
 * <p>A KV snapshot split (a PK table's first round, T54) bypasses Paimon's merge writer: {@link
 * PaimonSnapshotWriter} writes one sorted run per Paimon bucket (streamed when the split arrives in
 * Paimon's key order, sorted once otherwise), unless the table has options that writer does not
 * handle ({@link PaimonSnapshotWriter#unsupportedReason}).
 *
 * <p>In a primary-key table with deletion vectors (T48) Paimon's readers skip level-0 files, so the
 * writer of such a table ({@link PaimonSchemas#roundsCompact}) is not write-only: before it
 * completes it waits for Paimon's lookup compaction to move every level-0 file it wrote up a level
 * (writing the deletion vectors of the rows they replace), as Paimon's own Flink sink does with
 * {@code lookup-wait}, so that the round commits only rows readers see.
 */
final class PaimonLakeWriter implements LakeWriter {
    private final FileStoreTable table;
    private final LakeWriterContext context;

    /**
     * Paimon's table writer; null for a KV snapshot split that {@link #snapshot} writes (unless it
     * hands rows back, see {@link PaimonSnapshotWriter#finish}).
     */
    private StreamTableWrite write;

    /** Whether rounds compact their level-0 files before completing (deletion vectors, T48). */
    private final boolean compacting;

    /** Local disk of Paimon's lookup compaction; null unless {@link #compacting}. */
    private IOManager ioManager;

    /** Threads of Paimon's compaction; null unless {@link #compacting}. */
    private ExecutorService compactExecutor;

    private final PaimonSnapshotWriter snapshot;
    private final PaimonValues.Converter[] converters;
    private final PaimonValues.FieldReader[] readers;
    private final int lakeArity;

    /** Fields of each row handed on: the lake columns, plus a spare one for {@link #snapshot}. */
    private final int rowArity;

    /**
     * Lake column of each Tributary column, then of the system columns: placed by name, so columns
     * another engine added (left NULL) or moved do not shift anything.
     */
    private final int[] positions;

    private final int bucketPosition;
    private final int offsetPosition;
    private final int timestampPosition;
    private final boolean primaryKeyTable;

    /** See {@link HadoopXmlFreeClassLoader}; null for warehouses on Hadoop-backed file systems. */
    private final ClassLoader flushLoader;

    private LakeWriterState state = LakeWriterState.OPEN;
    private boolean writeClosed;
    private List<CommitMessage> completed = List.of();
    private long rows;
    private long minTs = Long.MAX_VALUE;
    private long maxTs = Long.MIN_VALUE;

    PaimonLakeWriter(FileStoreTable table, LakeWriterContext context) {
        this.table = table;
        this.context = context;
        Schema schema = context.table().schema();
        this.converters = new PaimonValues.Converter[schema.fieldCount()];
        this.readers = new PaimonValues.FieldReader[schema.fieldCount()];
        for (int i = 0; i < converters.length; i++) {
            converters[i] = PaimonValues.converterFor(schema.typeAt(i));
            readers[i] = PaimonValues.readerFor(schema.typeAt(i));
        }
        this.lakeArity = table.rowType().getFieldCount();
        this.positions = LakeSchemaDiff.positions(context.table(), table.rowType().getFieldNames());
        this.bucketPosition = positions[converters.length];
        this.offsetPosition = positions[converters.length + 1];
        this.timestampPosition = positions[converters.length + 2];
        this.primaryKeyTable = !table.primaryKeys().isEmpty();
        this.flushLoader =
                table.fileIO() instanceof LocalFileIO
                        ? new HadoopXmlFreeClassLoader(contextLoader())
                        : null;
        this.compacting = PaimonSchemas.roundsCompact(context.table(), table);
        this.snapshot =
                context.isKvSnapshot() && PaimonSnapshotWriter.unsupportedReason(table).isEmpty()
                        ? new PaimonSnapshotWriter(
                                table,
                                context,
                                PaimonSchemas.bucketsAligned(context.table(), table))
                        : null;
        this.rowArity = snapshot != null ? snapshot.rowArity() : lakeArity;
        this.write = snapshot != null ? null : newWrite();
    }

    private StreamTableWrite newWrite() {
        StreamTableWrite w =
                table.newStreamWriteBuilder()
                        .withCommitUser(LakeCommitter.DEFAULT_COMMIT_USER)
                        .newWrite();
        if (compacting) {
            // Paimon's lookup compaction keeps local lookup files of the bucket's runs
            ioManager = IOManager.create(System.getProperty("java.io.tmpdir"));
            ClassLoader loader = flushLoader != null ? flushLoader : contextLoader();
            compactExecutor =
                    Executors.newSingleThreadExecutor(
                            r -> {
                                Thread t =
                                        new Thread(
                                                r,
                                                "paimon-round-compaction-" + context.tablePath());
                                t.setDaemon(true);
                                t.setContextClassLoader(loader);
                                return t;
                            });
            w.withIOManager(ioManager);
            ((TableWriteImpl<?>) w).withCompactExecutor(compactExecutor);
        }
        return w;
    }

    /** Hands a row of a KV snapshot split that {@link #snapshot} does not write to Paimon's. */
    private void writeThroughPaimon(InternalRow row) throws Exception {
        if (write == null) {
            write = newWrite();
        }
        write.write(row);
    }

    @Override
    public void write(
            Row row, ChangeType changeType, int bucket, long offset, long timestampMillis) {
        state.require(LakeWriterState.OPEN, "write");
        context.checkArity(row.arity());
        GenericRow g = new GenericRow(toRowKind(changeType), rowArity);
        for (int i = 0; i < row.arity(); i++) {
            Object v = row.getField(i);
            if (v != null) {
                try {
                    g.setField(positions[i], converters[i].convert(v));
                } catch (ClassCastException e) {
                    throw context.valueError(i, v, e);
                }
            }
        }
        write(g, bucket, offset, timestampMillis);
    }

    @Override
    public void write(
            EncodedRow row, ChangeType changeType, int bucket, long offset, long timestampMillis) {
        state.require(LakeWriterState.OPEN, "write");
        context.checkArity(row.arity());
        GenericRow g = new GenericRow(toRowKind(changeType), rowArity);
        for (int i = 0; i < row.arity(); i++) {
            if (!row.isNullAt(i)) {
                g.setField(positions[i], readers[i].read(row, i));
            }
        }
        write(g, bucket, offset, timestampMillis);
    }

    /** Adds the system columns and hands the row to Paimon's writer. */
    private void write(GenericRow g, int bucket, long offset, long timestampMillis) {
        g.setField(bucketPosition, bucket);
        g.setField(offsetPosition, offset);
        g.setField(timestampPosition, Timestamp.fromEpochMillis(timestampMillis));
        try {
            if (snapshot != null) {
                snapshot.add(g);
            } else {
                write.write(g);
            }
        } catch (InvalidInputException e) {
            throw e;
        } catch (Exception e) {
            throw new StorageException(
                    "writing to Paimon table '"
                            + context.tablePath()
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
        rows++;
        minTs = Math.min(minTs, timestampMillis);
        maxTs = Math.max(maxTs, timestampMillis);
    }

    private RowKind toRowKind(ChangeType t) {
        if (context.isKvSnapshot() && t != ChangeType.INSERT) {
            throw new InvalidInputException(
                    "a KV snapshot split of table '"
                            + context.tablePath()
                            + "' holds only inserts (each key once), got a "
                            + t.shortString()
                            + " record");
        }
        if (!primaryKeyTable) {
            if (t != ChangeType.APPEND_ONLY && t != ChangeType.INSERT) {
                throw new InvalidInputException(
                        "log table '"
                                + context.tablePath()
                                + "' accepts only append records, got "
                                + t.shortString());
            }
            return RowKind.INSERT;
        }
        return switch (t) {
            case APPEND_ONLY, INSERT -> RowKind.INSERT;
            case UPDATE_BEFORE -> RowKind.UPDATE_BEFORE;
            case UPDATE_AFTER -> RowKind.UPDATE_AFTER;
            case DELETE -> RowKind.DELETE;
        };
    }

    @Override
    public LakeWriteResult complete() {
        state.require(LakeWriterState.OPEN, "complete");
        completed = flush();
        state = LakeWriterState.COMPLETED;
        List<String> files = new ArrayList<>();
        long bytes = 0;
        for (CommitMessage m : completed) {
            CommitMessageImpl msg = (CommitMessageImpl) m;
            DataFilePathFactory paths =
                    table.store()
                            .pathFactory()
                            .createDataFilePathFactory(msg.partition(), msg.bucket());
            for (DataFileMeta meta : PaimonWrittenFiles.of(msg)) {
                files.add(paths.toPath(meta).toString());
                bytes += meta.fileSize();
            }
        }
        return new LakeWriteResult(
                PaimonLakeStoragePlugin.IDENTIFIER,
                context.tablePath(),
                context.tableId(),
                context.epoch(),
                context.roundId(),
                context.bucket(),
                rows,
                files,
                bytes,
                minTs,
                maxTs,
                files.isEmpty() ? new byte[0] : PaimonCommitMessages.encode(completed));
    }

    private static ClassLoader contextLoader() {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        return cl != null ? cl : PaimonLakeWriter.class.getClassLoader();
    }

    private List<CommitMessage> flush() {
        return HadoopXmlFreeClassLoader.callWith(flushLoader, this::prepareCommit);
    }

    private List<CommitMessage> prepareCommit() {
        try {
            List<CommitMessage> out = new ArrayList<>();
            if (snapshot != null) {
                out.addAll(snapshot.finish(compacting ? this::writeThroughPaimon : null));
            }
            if (write == null) {
                return out;
            }
            // deletion vectors: wait for the compaction of level 0, as lookup-wait does
            for (CommitMessage m : write.prepareCommit(compacting, context.epoch())) {
                CommitMessageImpl msg = (CommitMessageImpl) m;
                if (msg.isEmpty()) {
                    continue;
                }
                List<String> levelZero = PaimonWrittenFiles.levelZeroAfter(msg);
                if (compacting && !levelZero.isEmpty()) {
                    throw new StorageException(
                            "Paimon's compaction left files "
                                    + levelZero
                                    + " of bucket "
                                    + msg.bucket()
                                    + " of '"
                                    + context.tablePath()
                                    + "' at level 0, which readers of a table with deletion"
                                    + " vectors skip; the round is not committed");
                }
                out.add(m);
            }
            return out;
        } catch (InvalidInputException | StorageException e) {
            throw e;
        } catch (Exception e) {
            throw new StorageException(
                    "flushing Paimon files of '"
                            + context.tablePath()
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Deletes what this writer wrote, without writing anything more: an open writer is closed
     * unflushed (Paimon's writers then drop their buffers and delete the files they had already
     * rolled), a completed one has its files aborted. The writer is ABORTED before any I/O, so a
     * failing file system fails this call once and never makes {@link #close()} try again (T22); a
     * file it could not delete carries its attempt's name and goes at the table's next commit
     * (T23).
     */
    @Override
    public void abort() {
        if (state == LakeWriterState.ABORTED || state == LakeWriterState.CLOSED) {
            return;
        }
        LakeWriterState was = state;
        state = LakeWriterState.ABORTED;
        try {
            if (was == LakeWriterState.OPEN) {
                if (snapshot != null) {
                    // the runs a failed complete() closed before failing
                    snapshot.abort();
                }
                closeWrite();
            } else if (!completed.isEmpty()) {
                // not Paimon's abort: a compacting round may move committed files up a level
                PaimonWrittenFiles.delete(table, completed);
            }
        } catch (Exception e) {
            throw new StorageException(
                    "deleting aborted Paimon files of '"
                            + context.tablePath()
                            + "' failed (the table's next commit deletes them): "
                            + e.getMessage(),
                    e);
        }
    }

    /** Closes Paimon's writer once; unflushed data is dropped. */
    private void closeWrite() {
        if (writeClosed) {
            return;
        }
        writeClosed = true;
        HadoopXmlFreeClassLoader.callWith(
                flushLoader,
                () -> {
                    try {
                        if (snapshot != null) {
                            snapshot.close();
                        }
                        if (write != null) {
                            write.close();
                        }
                        if (compactExecutor != null) {
                            compactExecutor.shutdownNow();
                        }
                        if (ioManager != null) {
                            ioManager.close();
                        }
                    } catch (Exception e) {
                        throw new StorageException(
                                "closing a Paimon writer of '"
                                        + context.tablePath()
                                        + "' failed: "
                                        + e.getMessage(),
                                e);
                    }
                    return null;
                });
    }

    @Override
    public void close() {
        if (state == LakeWriterState.CLOSED) {
            return;
        }
        RuntimeException failure = null;
        if (state == LakeWriterState.OPEN) {
            try {
                abort();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        state = LakeWriterState.CLOSED;
        try {
            closeWrite();
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}

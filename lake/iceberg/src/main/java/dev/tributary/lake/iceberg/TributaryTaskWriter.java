package dev.tributary.lake.iceberg;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.BaseTaskWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.util.StructLikeSet;
import org.apache.iceberg.util.StructLikeUtil;

/**
 * Iceberg's task writer for one split: plain rolling data files for log tables and for KV snapshot
 * splits of PK tables ({@link #write}), or, for log splits of PK tables, data files plus deletes: a
 * retraction of a key written earlier by this same writer is Iceberg's own position delete (or
 * deletion vector) of that row; a retraction of any other key is, with a {@link LiveRowLocator}
 * (T48, {@code table.datalake.pk-deletes=position}), collected and at {@link #complete} turned into
 * deletion vectors (v3) or position deletes (v2) of the key's live row in the lake, and without one
 * an equality delete by key (equality deletes do not apply within their own commit, hence the
 * position deletes for keys of this split). One writer per partition of the table's spec, chosen by
 * Iceberg's own partitioning of each row: with the table's bucket function aligned to the {@code
 * bucket[N]} spec a split has one partition (T36); otherwise its rows fan out over many. An
 * equality delete applies only to data files of its own partition (Iceberg spec), so a key's
 * deletes go to the partition of the key's row; the bucket column is part of the key, so that is
 * where every row of the key lives.
 */
final class TributaryTaskWriter extends BaseTaskWriter<Record> {
    private final Schema schema;
    private final Schema keySchema;
    private final PartitionKey partitionKey;
    private final InternalRecordWrapper wrapper;
    private final FileIO io;
    private final long targetFileSize;
    private final Map<StructLike, RollingFileWriter> appendWriters = new LinkedHashMap<>();
    private final Map<StructLike, DeltaWriter> deltaWriters = new LinkedHashMap<>();

    /** Finds the lake rows of retracted keys; null: such retractions are equality deletes. */
    private final LiveRowLocator locator;

    /** What the lake rows' deletes are written with. */
    private final LakeDeleteTarget lakeDeletes;

    private final InternalRecordWrapper keyWrapper;

    /**
     * With a locator: the keys this writer wrote and did not retract since, as Iceberg's delta
     * writers hold them (a retraction of one is theirs to turn into a position delete).
     */
    private final StructLikeSet writtenKeys;

    /** With a locator: retracted keys whose row, if any, is in the lake. */
    private final StructLikeSet lakeKeys;

    private Long lakeBaseSnapshotId;
    private long keysNotInLake;

    TributaryTaskWriter(
            PartitionSpec spec,
            FileWriterFactory<Record> writerFactory,
            OutputFileFactory fileFactory,
            FileIO io,
            long targetFileSize,
            boolean deletionVectors,
            Schema schema,
            Schema keySchema,
            LiveRowLocator locator,
            LakeDeleteTarget lakeDeletes) {
        super(
                spec,
                FileFormat.PARQUET,
                writerFactory,
                fileFactory,
                io,
                targetFileSize,
                deletionVectors);
        this.schema = schema;
        this.keySchema = keySchema;
        this.io = io;
        this.targetFileSize = targetFileSize;
        this.partitionKey = spec.isUnpartitioned() ? null : new PartitionKey(spec, schema);
        // transforms take Iceberg's internal values (days, micros), generic records hold java.time
        this.wrapper = new InternalRecordWrapper(schema.asStruct());
        this.locator = locator;
        this.lakeDeletes = lakeDeletes;
        boolean byPosition = locator != null && keySchema != null;
        this.keyWrapper = byPosition ? new InternalRecordWrapper(keySchema.asStruct()) : null;
        this.writtenKeys = byPosition ? StructLikeSet.create(keySchema.asStruct()) : null;
        this.lakeKeys = byPosition ? StructLikeSet.create(keySchema.asStruct()) : null;
    }

    /**
     * The table and writer factory the lake rows' deletes are written with.
     *
     * @param deletionVectors v3: deletion vectors; v2: position delete files
     * @param fileFactory names the delete files (Puffin files for deletion vectors)
     */
    record LakeDeleteTarget(
            org.apache.iceberg.Table table,
            FileWriterFactory<Record> writerFactory,
            boolean deletionVectors,
            OutputFileFactory fileFactory) {}

    @Override
    public void write(Record row) throws IOException {
        StructLike p = partitionOf(row);
        RollingFileWriter w = appendWriters.get(p);
        if (w == null) {
            p = copy(p);
            w = new RollingFileWriter(p);
            appendWriters.put(p, w);
        }
        w.write(row);
    }

    /** Adds the row of a key that holds no row (or whose row was just retracted). */
    void insert(Record row, Record key) throws IOException {
        DeltaWriter w = deltaWriter(row);
        written(key);
        w.write(row);
    }

    /** Upsert: retract whatever the key had, then add the row. */
    void upsert(Record row, Record key) throws IOException {
        DeltaWriter w = deltaWriter(row);
        retract(w, key);
        written(key);
        w.write(row);
    }

    /** Deletes the current row of {@code row}'s key, wherever in the row's partition it was. */
    void deleteKey(Record row, Record key) throws IOException {
        retract(deltaWriter(row), key);
    }

    private void written(Record key) {
        if (writtenKeys != null) {
            writtenKeys.add(StructLikeUtil.copy(keyWrapper.wrap(key)));
        }
    }

    private void retract(DeltaWriter w, Record key) throws IOException {
        if (writtenKeys == null || writtenKeys.remove(keyWrapper.wrap(key))) {
            // a row of this split (Iceberg's position delete), or an equality delete
            w.deleteKey(key);
        } else {
            lakeKeys.add(StructLikeUtil.copy(keyWrapper.wrap(key)));
        }
    }

    /**
     * Closes the files and, when the split retracted keys it did not write, writes the deletes of
     * those keys' live rows in the lake.
     */
    @Override
    public WriteResult complete() throws IOException {
        WriteResult inSplit = super.complete();
        if (lakeKeys == null || lakeKeys.isEmpty()) {
            return inSplit;
        }
        LiveRowLocator.LiveRows rows = locator.locate(lakeKeys);
        lakeBaseSnapshotId = rows.baseSnapshotId();
        keysNotInLake = rows.keysNotFound();
        if (rows.files().isEmpty()) {
            return inSplit;
        }
        DeleteWriteResult d =
                LakeRowDeletes.write(
                        lakeDeletes.table(),
                        rows,
                        lakeDeletes.deletionVectors(),
                        lakeDeletes.writerFactory(),
                        lakeDeletes.fileFactory(),
                        io,
                        targetFileSize);
        return WriteResult.builder()
                .add(inSplit)
                .addDeleteFiles(d.deleteFiles())
                .addReferencedDataFiles(d.referencedDataFiles())
                .addRewrittenDeleteFiles(d.rewrittenDeleteFiles())
                .build();
    }

    /**
     * The snapshot the lake rows of retracted keys were found in, null when none were looked up
     * (set by {@link #complete}).
     */
    Long lakeBaseSnapshotId() {
        return lakeBaseSnapshotId;
    }

    /** Retracted keys that had no live row in the lake (set by {@link #complete}). */
    long keysNotInLake() {
        return keysNotInLake;
    }

    private DeltaWriter deltaWriter(Record row) {
        StructLike p = partitionOf(row);
        DeltaWriter w = deltaWriters.get(p);
        if (w == null) {
            p = copy(p);
            w = new DeltaWriter(p, schema, keySchema);
            deltaWriters.put(p, w);
        }
        return w;
    }

    /** The row's partition (a reused key: copy before keeping it); null when unpartitioned. */
    private StructLike partitionOf(Record row) {
        if (partitionKey == null) {
            return null;
        }
        partitionKey.partition(wrapper.wrap(row));
        return partitionKey;
    }

    private static StructLike copy(StructLike p) {
        return p == null ? null : ((PartitionKey) p).copy();
    }

    @Override
    public void close() throws IOException {
        // every partition's writer is closed even if one fails, so no file is left open
        List<Closeable> writers = new ArrayList<>(appendWriters.values());
        writers.addAll(deltaWriters.values());
        appendWriters.clear();
        deltaWriters.clear();
        IOException failure = null;
        for (Closeable w : writers) {
            try {
                w.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        super.close();
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Iceberg keeps the keys written by this writer in a map that compares them as Iceberg's
     * internal values (days for a DATE, microseconds for a TIMESTAMP): keys and rows are looked up
     * through wrappers that convert, or a retraction of a key written earlier in the split would
     * not find it and would become an equality delete, which does not apply within its own commit.
     */
    private final class DeltaWriter extends BaseEqualityDeltaWriter {
        private final InternalRecordWrapper rowWrapper;
        private final InternalRecordWrapper keyWrapper;

        DeltaWriter(StructLike partition, Schema schema, Schema keySchema) {
            super(
                    partition,
                    schema,
                    keySchema,
                    org.apache.iceberg.deletes.DeleteGranularity.FILE,
                    dvFileWriter());
            this.rowWrapper = new InternalRecordWrapper(schema.asStruct());
            this.keyWrapper = new InternalRecordWrapper(keySchema.asStruct());
        }

        @Override
        protected StructLike asStructLike(Record data) {
            return rowWrapper.wrap(data);
        }

        @Override
        protected StructLike asStructLikeKey(Record key) {
            return keyWrapper.wrap(key);
        }
    }
}

package dev.tributary.lake.paimon;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.KeyValue;
import org.apache.paimon.KeyValueFileStore;
import org.apache.paimon.codegen.CodeGenUtils;
import org.apache.paimon.codegen.RecordComparator;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.io.KeyValueFileWriterFactory;
import org.apache.paimon.io.RollingFileWriter;
import org.apache.paimon.manifest.FileSource;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.sort.BinaryExternalSortBuffer;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.PrimaryKeyTableUtils;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.RowKeyExtractor;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.MutableObjectIterator;
import org.apache.paimon.utils.ProjectedRow;

/**
 * Writes a KV snapshot split of a primary-key table (T54) as one sorted run per Paimon bucket,
 * straight into Paimon's key-value data files: the rows are sorted once by (Paimon bucket, key) in
 * a bounded buffer that spills to local disk, then each bucket's rows go through Paimon's own
 * rolling key-value file writer, with no merge function, no de-duplication and no level-0 flushes.
 * A snapshot split holds each key of its bucket once, all inserts, so a key appearing twice is
 * refused.
 *
 * <p>The run lands where it keeps the bucket's LSM tree valid for every reader: at the highest
 * level when the split is the only writer of its Paimon bucket (store bucket b is Paimon bucket b,
 * T36) and the bucket holds no file yet: a single run of unique keys there is what a full
 * compaction would leave, so Paimon reads it without merging. Otherwise (another bucket function,
 * so several splits of the round fill the same Paimon bucket, or files already in the bucket) at
 * level 0, where every file is a run of its own. Sequence numbers continue after the bucket's
 * highest, so a later round's updates and deletes of these keys win: Paimon's writers restore a
 * bucket's next sequence number from its files' maximum.
 *
 * <p>A table with deletion vectors (T48) has readers that skip level 0, and a run at level 0 would
 * need deletion vectors for the rows it replaces: there the writer writes only top-level runs (an
 * empty bucket of its own holds nothing to delete) and hands every other bucket's rows back to
 * Paimon's merge writer ({@link #finish}).
 *
 * <p>A snapshot that arrives in Paimon's key order (a store bucket whose KV keys are stored in the
 * lake's key order, T54) is not sorted at all: once its first {@link #ORDER_PROBE_ROWS} rows are
 * buffered and found ascending in the split's own bucket (which holds no file yet), the writer
 * streams them and every later row straight into the top-level run, checking each key against the
 * one before. A row out of order after that ends the streamed run; the split's remaining rows are
 * sorted as above and become a second run one level below it, which keeps the bucket valid for
 * every reader (one sorted run per level, newer runs lower, and no key in both, since a snapshot
 * holds each key once; a key twice across the two runs is the one promise the writer then does not
 * check).
 */
final class PaimonSnapshotWriter implements AutoCloseable {
    /**
     * Rows of a split buffered and checked for key order before the writer streams it: enough that
     * a shuffled split is told apart before anything is written, few enough to cost nothing.
     */
    static final int ORDER_PROBE_ROWS = 1024;

    /** Where the split's rows go. */
    private enum Phase {
        /** Into the sort buffer, while every row so far ascends in the split's own bucket. */
        PROBING,
        /** Straight into the top-level run of the split's own bucket. */
        STREAMING,
        /** Into the sort buffer, sorted at {@link #finish}. */
        SORTING
    }

    private final FileStoreTable table;
    private final LakeWriterContext context;
    private final boolean alignedBuckets;
    private final KeyValueFileWriterFactory.Builder factories;
    private final CoreOptions options;
    private final RowKeyExtractor extractor;
    private final BinaryExternalSortBuffer buffer;
    private final IOManager ioManager;
    private final RecordComparator keyComparator;
    private final int bucketField;
    private final int[] keyFields;
    private final int rowArity;
    private final InternalRow.FieldGetter[] getters;

    private final RecordComparator keyOrder;
    private final ProjectedRow keyOfRow;
    private final ProjectedRow valueOfRow;
    private final KeyValue kv = new KeyValue();

    /**
     * Two key serializers, alternating: each keeps the last key it made until its next one, so the
     * last key taken stays intact for the next check (and for Paimon's file writer, which holds the
     * last key it wrote as the file's maximum) without copying it.
     */
    private final InternalRowSerializer[] keys;

    private int keySlot;
    private BinaryRow lastKey;
    private Phase phase;
    private long probed;

    /** The bucket whose top-level run was streamed (-1 if none) and its next sequence number. */
    private int streamedBucket = -1;

    private long streamedSequence;

    private BinaryRow partition;
    private boolean foreignBucket;
    private RollingFileWriter<KeyValue, DataFileMeta> open;
    private final List<CommitMessage> written = new ArrayList<>();

    /**
     * Why the writer cannot write {@code table}'s snapshot splits (they then go through Paimon's
     * merge writer, which is valid for any table, only slower), or empty if it can: fixed buckets,
     * the deduplicate merge engine, no changelog producer (it would need changelog files of these
     * rows), one file format for every level.
     */
    static Optional<String> unsupportedReason(FileStoreTable table) {
        CoreOptions o = table.coreOptions();
        if (table.primaryKeys().isEmpty()) {
            return Optional.of("it has no primary key");
        }
        if (table.bucketMode() != BucketMode.HASH_FIXED) {
            return Optional.of("its bucket mode is " + table.bucketMode());
        }
        if (o.mergeEngine() != CoreOptions.MergeEngine.DEDUPLICATE) {
            return Optional.of("its merge engine is " + o.mergeEngine());
        }
        if (o.changelogProducer() != CoreOptions.ChangelogProducer.NONE) {
            return Optional.of("it has changelog producer " + o.changelogProducer());
        }
        if (o.rowTrackingEnabled()) {
            return Optional.of("it has row tracking");
        }
        if (!o.fileFormatPerLevel().isEmpty()) {
            return Optional.of("it sets a file format per level");
        }
        return Optional.empty();
    }

    /**
     * @param table the writer's table, with the writer's dynamic options (file prefixes)
     * @param alignedBuckets whether store bucket b is Paimon bucket b, so that no other split of
     *     the round writes this split's Paimon bucket
     */
    PaimonSnapshotWriter(FileStoreTable table, LakeWriterContext context, boolean alignedBuckets) {
        this.table = table;
        this.context = context;
        this.alignedBuckets = alignedBuckets;
        this.options = table.coreOptions();
        KeyValueFileStore store = (KeyValueFileStore) table.store();
        RowType valueType = table.schema().logicalRowType();
        RowType keyType =
                new RowType(
                        PrimaryKeyTableUtils.PrimaryKeyFieldsExtractor.EXTRACTOR.keyFields(
                                table.schema()));
        String format = options.fileFormatString();
        this.factories =
                KeyValueFileWriterFactory.builder(
                        table.fileIO(),
                        table.schema().id(),
                        keyType,
                        valueType,
                        FileFormat.fileFormat(options),
                        f -> {
                            if (!f.equals(format)) {
                                throw new IllegalStateException(
                                        "no path factory for file format " + f);
                            }
                            return store.pathFactory();
                        },
                        options.targetFileSize(true));
        this.extractor = table.createRowKeyExtractor();
        this.rowArity = valueType.getFieldCount() + 1;
        this.bucketField = valueType.getFieldCount();
        this.getters = new InternalRow.FieldGetter[bucketField];
        for (int i = 0; i < bucketField; i++) {
            getters[i] = InternalRow.createFieldGetter(valueType.getTypeAt(i), i);
        }
        List<String> names = valueType.getFieldNames();
        this.keyFields =
                table.schema().trimmedPrimaryKeys().stream().mapToInt(names::indexOf).toArray();
        List<DataField> sortFields = new ArrayList<>(valueType.getFields());
        sortFields.add(new DataField(Integer.MAX_VALUE, "_TRIBUTARY_BUCKET", DataTypes.INT()));
        RowType sortType = new RowType(sortFields);
        int[] sortKey = new int[keyFields.length + 1];
        sortKey[0] = bucketField;
        System.arraycopy(keyFields, 0, sortKey, 1, keyFields.length);
        this.keyComparator =
                CodeGenUtils.newRecordComparator(sortType.getFieldTypes(), keyFields, true);
        this.keyOrder = CodeGenUtils.newRecordComparator(keyType.getFieldTypes());
        this.keyOfRow = ProjectedRow.from(keyFields);
        this.valueOfRow = ProjectedRow.from(IntStream.range(0, bucketField).toArray());
        this.keys =
                new InternalRowSerializer[] {
                    new InternalRowSerializer(keyType), new InternalRowSerializer(keyType)
                };
        // a second run goes one level below the streamed one, which must not be level 0
        this.phase = alignedBuckets && options.numLevels() >= 3 ? Phase.PROBING : Phase.SORTING;
        this.ioManager = IOManager.create(System.getProperty("java.io.tmpdir"));
        this.buffer =
                BinaryExternalSortBuffer.create(
                        ioManager,
                        sortType,
                        sortKey,
                        options.writeBufferSize(),
                        options.pageSize(),
                        options.localSortMaxNumFileHandles(),
                        options.spillCompressOptions(),
                        options.writeBufferSpillDiskSize(),
                        true);
    }

    /** The arity of the rows {@link #add} takes: the table's columns and one spare field. */
    int rowArity() {
        return rowArity;
    }

    /** Buffers one row of {@link #rowArity()} fields, the table's columns set. */
    void add(GenericRow row) throws IOException {
        extractor.setRecord(row);
        if (table.partitionKeys().isEmpty()) {
            partition = BinaryRow.EMPTY_ROW;
        } else if (partition == null) {
            partition = extractor.partition().copy();
        } else if (!partition.equals(extractor.partition())) {
            throw new InvalidInputException(
                    "a KV snapshot split of table '"
                            + context.tablePath()
                            + "' holds rows of two partitions; a split reads one partition");
        }
        int bucket = extractor.bucket();
        boolean own = bucket == context.bucket();
        if (phase == Phase.STREAMING) {
            if (own && ascends(row)) {
                writeStreamed(row);
                return;
            }
            endStream();
        } else if (phase == Phase.PROBING && !(own && ascends(row))) {
            phase = Phase.SORTING;
        }
        foreignBucket |= !own;
        row.setField(bucketField, bucket);
        // a full buffer spills a sorted run to local disk and takes the row
        if (!buffer.write(row)) {
            throw new StorageException(
                    "the sort buffer of a KV snapshot split of '"
                            + context.tablePath()
                            + "' refused a row");
        }
        if (phase == Phase.PROBING && ++probed == ORDER_PROBE_ROWS) {
            startStream();
        }
    }

    /**
     * Whether the row's key is above the last key taken, which it then becomes. A key equal to the
     * last one is refused while streaming (the sorted path finds it at {@link #finish}).
     */
    private boolean ascends(InternalRow row) {
        BinaryRow key = keys[keySlot].toBinaryRow(keyOfRow.replaceRow(row));
        if (lastKey != null) {
            int c = keyOrder.compare(lastKey, key);
            if (c == 0 && phase == Phase.STREAMING) {
                throw keyTwice();
            }
            if (c >= 0) {
                return false;
            }
        }
        lastKey = key;
        keySlot ^= 1;
        return true;
    }

    /**
     * The probed rows ascend: opens the top-level run of the split's bucket and writes them into
     * it, unless the bucket holds files already (then the split is sorted as any other).
     */
    private void startStream() throws IOException {
        if (!existingFiles(context.bucket()).isEmpty()) {
            phase = Phase.SORTING;
            return;
        }
        phase = Phase.STREAMING;
        streamedBucket = context.bucket();
        open =
                factories
                        .build(partition, streamedBucket, options)
                        .createRollingMergeTreeFileWriter(maxLevel(), FileSource.APPEND);
        MutableObjectIterator<BinaryRow> it = buffer.sortedIterator();
        BinaryRow reuse = new BinaryRow(rowArity);
        lastKey = null;
        for (BinaryRow row = it.next(reuse); row != null; row = it.next(reuse)) {
            if (!ascends(row)) {
                throw new IllegalStateException("probed rows of a snapshot split out of order");
            }
            writeStreamed(row);
        }
        buffer.clear();
    }

    /** Writes a row whose key {@link #ascends} just took into the streamed run. */
    private void writeStreamed(InternalRow row) throws IOException {
        kv.replace(lastKey, streamedSequence++, RowKind.INSERT, valueOfRow.replaceRow(row));
        open.write(kv);
    }

    /** A row out of order: the streamed run ends, the split's other rows are sorted. */
    private void endStream() throws IOException {
        closeRun(streamedBucket);
        phase = Phase.SORTING;
    }

    private InvalidInputException keyTwice() {
        return new InvalidInputException(
                "a KV snapshot split of table '"
                        + context.tablePath()
                        + "' bucket "
                        + context.bucket()
                        + " holds one key twice; a snapshot holds each key once");
    }

    /** Takes a row the writer does not write itself (see {@link #finish}). */
    interface Fallback {
        void write(InternalRow row) throws Exception;
    }

    /**
     * Sorts the buffered rows and writes one run per Paimon bucket; returns their commit messages.
     *
     * @param fallback null to write every bucket's run, at level 0 where the top level is not free;
     *     otherwise (deletion vectors) the rows of such a bucket go to it instead, each copied into
     *     an insert row of the table's columns
     */
    List<CommitMessage> finish(Fallback fallback) throws Exception {
        if (phase == Phase.STREAMING) {
            endStream();
        }
        MutableObjectIterator<BinaryRow> it = buffer.sortedIterator();
        BinaryRow[] reuse = {new BinaryRow(rowArity), new BinaryRow(rowArity)};
        BinaryRow previous = null;
        boolean handBack = false;
        int bucket = -1;
        long sequence = 0;
        int level = 0;
        int next = 0;
        for (BinaryRow row = it.next(reuse[next]); row != null; row = it.next(reuse[next])) {
            int rowBucket = row.getInt(bucketField);
            if (rowBucket != bucket) {
                closeRun(bucket);
                bucket = rowBucket;
                if (bucket == streamedBucket) {
                    // the rows after the streamed run's end, a run of their own below it
                    sequence = streamedSequence;
                    level = maxLevel() - 1;
                } else {
                    List<DataFileMeta> existing = existingFiles(bucket);
                    sequence = DataFileMeta.getMaxSequenceNumber(existing) + 1;
                    level = alignedBuckets && !foreignBucket && existing.isEmpty() ? maxLevel() : 0;
                }
                handBack = level == 0 && fallback != null;
                open =
                        handBack
                                ? null
                                : factories
                                        .build(partition, bucket, options)
                                        .createRollingMergeTreeFileWriter(level, FileSource.APPEND);
            } else if (keyComparator.compare(previous, row) == 0) {
                throw keyTwice();
            }
            if (handBack) {
                // Paimon's writer de-duplicates, so a key twice is still refused above
                fallback.write(insertCopy(row));
            } else {
                kv.replace(
                        keyOfRow.replaceRow(row),
                        sequence++,
                        RowKind.INSERT,
                        valueOfRow.replaceRow(row));
                open.write(kv);
            }
            previous = row;
            next ^= 1;
        }
        closeRun(bucket);
        buffer.clear();
        return List.copyOf(written);
    }

    /** An insert row of the table's columns with the values of a buffered row. */
    private GenericRow insertCopy(BinaryRow row) {
        GenericRow g = new GenericRow(RowKind.INSERT, bucketField);
        for (int i = 0; i < bucketField; i++) {
            g.setField(i, getters[i].getFieldOrNull(row));
        }
        return g;
    }

    /** The highest level of the bucket's LSM tree, where a full compaction puts its run. */
    private int maxLevel() {
        return options.numLevels() - 1;
    }

    private List<DataFileMeta> existingFiles(int bucket) {
        List<DataFileMeta> files = new ArrayList<>();
        for (ManifestEntry e :
                table.store().newScan().withPartitionBucket(partition, bucket).plan().files()) {
            files.add(e.file());
        }
        return files;
    }

    private void closeRun(int bucket) throws IOException {
        if (open == null) {
            return;
        }
        RollingFileWriter<KeyValue, DataFileMeta> w = open;
        open = null;
        try {
            w.close();
        } catch (IOException | RuntimeException e) {
            w.abort();
            throw e;
        }
        written.add(
                new CommitMessageImpl(
                        partition,
                        bucket,
                        options.bucket(),
                        new DataIncrement(w.result(), List.of(), List.of()),
                        CompactIncrement.emptyIncrement()));
    }

    /** Deletes the files written so far (also of runs already closed) and drops the buffer. */
    void abort() {
        if (open != null) {
            open.abort();
            open = null;
        }
        for (CommitMessage m : written) {
            CommitMessageImpl msg = (CommitMessageImpl) m;
            KeyValueFileWriterFactory f = factories.build(msg.partition(), msg.bucket(), options);
            for (DataFileMeta file : msg.newFilesIncrement().newFiles()) {
                f.deleteFile(file);
            }
        }
        written.clear();
        buffer.clear();
    }

    /** Frees the buffer and its spill files; files written are the caller's. */
    @Override
    public void close() {
        try {
            if (open != null) {
                open.abort();
                open = null;
            }
            buffer.clear();
            ioManager.close();
        } catch (Exception e) {
            throw new StorageException(
                    "releasing the sort buffer of a KV snapshot split of '"
                            + context.tablePath()
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
    }
}

package dev.tributary.tiering.read;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatches;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.row.RowCodec;
import dev.tributary.tiering.service.RecordCursor;
import java.util.Iterator;

/**
 * A {@link RecordCursor} over a stream of log batch chunks (each chunk holds whole batches, as the
 * store and the wire carry them). Batches are checksum-verified before use; a row is decoded only
 * when asked for, and rows written under an older schema decode with NULL in columns added since. A
 * record's size is its share of its batch's encoded bytes, so throughput figures count what really
 * crossed the wire.
 *
 * <p>A log cursor is restricted to the offsets {@code [from, to)}, which must arrive without gaps,
 * or the read fails rather than silently losing records. A snapshot cursor yields every row as an
 * {@link ChangeType#INSERT} at the snapshot's log offset minus one, with timestamp -1.
 */
public final class BatchCursor implements RecordCursor {
    private final Iterator<byte[]> chunks;
    private final EncodedRow row;
    private final long from;
    private final long to;
    private final long snapshotOffset;
    private final Runnable onClose;
    private Iterator<LogBatch> batches;
    private LogBatch.Cursor records;
    private int recordSize;

    /** Records of the current batch that carry one byte more, so sizes add up to the batch's. */
    private int largerRecords;

    private int currentSize;
    private long expected;
    private boolean exhausted;

    private BatchCursor(
            Iterator<byte[]> chunks,
            RowCodec codec,
            long from,
            long to,
            long snapshotOffset,
            Runnable onClose) {
        this.chunks = chunks;
        this.row = codec.view();
        this.from = from;
        this.to = to;
        this.snapshotOffset = snapshotOffset;
        this.onClose = onClose;
        this.expected = from;
    }

    /**
     * The log records of {@code [from, to)}.
     *
     * @param chunks byte arrays of concatenated log batches, in offset order
     * @param onClose releases the underlying stream (may be a no-op)
     */
    public static BatchCursor ofLog(
            Iterator<byte[]> chunks, RowCodec codec, long from, long to, Runnable onClose) {
        return new BatchCursor(chunks, codec, from, to, -1, onClose);
    }

    /** The rows of a KV snapshot consistent at {@code snapshotLogOffset}. */
    public static BatchCursor ofSnapshot(
            Iterator<byte[]> chunks, RowCodec codec, long snapshotLogOffset, Runnable onClose) {
        return new BatchCursor(chunks, codec, 0, Long.MAX_VALUE, snapshotLogOffset, onClose);
    }

    private boolean snapshot() {
        return snapshotOffset >= 0;
    }

    @Override
    public boolean next() {
        if (exhausted) {
            return false;
        }
        while (true) {
            if (records != null && records.next()) {
                currentSize = recordSize + (largerRecords-- > 0 ? 1 : 0);
                if (snapshot()) {
                    return true;
                }
                long offset = records.offset();
                if (offset < from) {
                    continue;
                }
                if (offset >= to) {
                    exhausted = true;
                    return false;
                }
                if (offset != expected) {
                    throw new CorruptDataException(
                            "log read expected offset " + expected + " but got " + offset);
                }
                expected++;
                return true;
            }
            if (batches != null && batches.hasNext()) {
                LogBatch batch = batches.next();
                batch.ensureValid();
                if (!snapshot() && batch.nextOffset() <= from) {
                    records = null;
                    continue;
                }
                records = batch.cursor();
                int count = Math.max(1, batch.recordCount());
                recordSize = batch.sizeInBytes() / count;
                largerRecords = batch.sizeInBytes() % count;
                continue;
            }
            if (!chunks.hasNext()) {
                exhausted = true;
                if (!snapshot() && expected < to) {
                    throw new CorruptDataException(
                            "log read of [" + from + ", " + to + ") ended at offset " + expected);
                }
                return false;
            }
            batches = LogBatches.of(chunks.next()).iterator();
        }
    }

    @Override
    public long offset() {
        return snapshot() ? snapshotOffset - 1 : records.offset();
    }

    @Override
    public long timestamp() {
        return snapshot() ? -1 : records.timestamp();
    }

    @Override
    public ChangeType changeType() {
        return snapshot() ? ChangeType.INSERT : records.changeType();
    }

    @Override
    public EncodedRow row() {
        return row.pointTo(records.rowBuffer(), records.rowOffset(), records.rowLength());
    }

    @Override
    public int sizeInBytes() {
        return currentSize;
    }

    @Override
    public void close() {
        onClose.run();
    }
}

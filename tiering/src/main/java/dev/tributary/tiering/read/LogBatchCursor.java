package dev.tributary.tiering.read;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatches;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.tiering.service.RecordCursor;
import java.util.Iterator;

/**
 * A {@link RecordCursor} over a stream of log batch chunks (each chunk holds whole batches, as the
 * store and the wire carry them), restricted to the offsets {@code [from, to)}. Batches are
 * checksum-verified before use; rows written under an older schema decode with NULL in columns
 * added since. Offsets must increase without gaps inside the range, or the read fails rather than
 * silently losing records.
 */
public final class LogBatchCursor implements RecordCursor {
    private final Iterator<byte[]> chunks;
    private final RowCodec codec;
    private final long from;
    private final long to;
    private final Runnable onClose;
    private Iterator<LogBatch> batches;
    private LogBatch.Cursor records;
    private int recordSize;
    private long expected;
    private boolean exhausted;

    /**
     * @param chunks byte arrays of concatenated log batches, in offset order
     * @param onClose releases the underlying stream (may be a no-op)
     */
    public LogBatchCursor(
            Iterator<byte[]> chunks, RowCodec codec, long from, long to, Runnable onClose) {
        this.chunks = chunks;
        this.codec = codec;
        this.from = from;
        this.to = to;
        this.onClose = onClose;
        this.expected = from;
    }

    @Override
    public boolean next() {
        if (exhausted) {
            return false;
        }
        while (true) {
            if (records != null && records.next()) {
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
                if (batch.nextOffset() <= from) {
                    records = null;
                    continue;
                }
                records = batch.cursor();
                recordSize = Math.max(1, batch.sizeInBytes() / batch.recordCount());
                continue;
            }
            if (!chunks.hasNext()) {
                exhausted = true;
                if (expected < to) {
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
        return records.offset();
    }

    @Override
    public long timestamp() {
        return records.timestamp();
    }

    @Override
    public ChangeType changeType() {
        return records.changeType();
    }

    @Override
    public Row row() {
        return records.row(codec);
    }

    @Override
    public int sizeInBytes() {
        return recordSize;
    }

    @Override
    public void close() {
        onClose.run();
    }
}

package dev.tributary.common.record;

import dev.tributary.common.exception.CorruptDataException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Splits a byte range holding whole {@link LogBatch}es back to back, such as the bytes a log read
 * returns. Typical use by a reader of a bucket:
 *
 * <pre>{@code
 * for (LogBatch batch : LogBatches.of(bytes)) {
 *     batch.ensureValid();
 *     for (LogRecord r : batch.records(schemaFor(batch.schemaId()))) {
 *         if (r.offset() >= from) { ... }
 *     }
 * }
 * }</pre>
 */
public final class LogBatches {
    private LogBatches() {}

    /** The batches of the whole array. */
    public static Iterable<LogBatch> of(byte[] bytes) {
        return of(bytes, 0, bytes.length);
    }

    /**
     * The batches in {@code [offset, offset + length)}. Iteration throws {@link
     * CorruptDataException} if the range ends inside a batch.
     */
    public static Iterable<LogBatch> of(byte[] bytes, int offset, int length) {
        int end = offset + length;
        return () ->
                new Iterator<>() {
                    private int pos = offset;

                    @Override
                    public boolean hasNext() {
                        return pos < end;
                    }

                    @Override
                    public LogBatch next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        LogBatch batch = LogBatch.wrap(bytes, pos, end - pos);
                        pos += batch.sizeInBytes();
                        return batch;
                    }
                };
    }
}

package dev.tributary.storage;

import dev.tributary.common.id.TableBucket;

/**
 * Where an acknowledged write landed in its bucket's log.
 *
 * @param bucket the bucket written
 * @param baseOffset offset of the first record written
 * @param endOffset offset after the last record written; equals {@code baseOffset} when the batch
 *     wrote nothing (a primary-key batch that only deleted missing keys)
 * @param absentDeletes indexes, in the write batch, of the deletes whose key had no row (nothing
 *     was deleted); ascending, empty for log tables
 */
public record AppendResult(
        TableBucket bucket, long baseOffset, long endOffset, int[] absentDeletes) {
    static final int[] NONE = new int[0];

    public AppendResult(TableBucket bucket, long baseOffset, long endOffset) {
        this(bucket, baseOffset, endOffset, NONE);
    }

    /** Offset of the last record written, or {@code baseOffset - 1} if none. */
    public long lastOffset() {
        return endOffset - 1;
    }

    /** Records written to the log (a PK update writes two: -U and +U). */
    public long recordCount() {
        return endOffset - baseOffset;
    }
}

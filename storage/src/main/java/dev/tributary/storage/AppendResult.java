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
 *     was deleted); ascending, empty for log tables (and for a duplicate whose first answer the
 *     store no longer knows, after a restart)
 * @param duplicate the batch repeated its writer's last batch (a retry, T42): nothing was written
 *     now, and the offsets are where the first attempt wrote it
 */
public record AppendResult(
        TableBucket bucket,
        long baseOffset,
        long endOffset,
        int[] absentDeletes,
        boolean duplicate) {
    static final int[] NONE = new int[0];

    public AppendResult(TableBucket bucket, long baseOffset, long endOffset) {
        this(bucket, baseOffset, endOffset, NONE, false);
    }

    public AppendResult(TableBucket bucket, long baseOffset, long endOffset, int[] absentDeletes) {
        this(bucket, baseOffset, endOffset, absentDeletes, false);
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

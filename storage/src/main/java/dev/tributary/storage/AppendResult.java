package dev.tributary.storage;

import dev.tributary.common.id.TableBucket;

/**
 * Where an acknowledged write landed in its bucket's log.
 *
 * @param bucket the bucket written
 * @param baseOffset offset of the first record written
 * @param endOffset offset after the last record written; equals {@code baseOffset} when the batch
 *     wrote nothing (a primary-key batch that only deleted missing keys)
 */
public record AppendResult(TableBucket bucket, long baseOffset, long endOffset) {
    /** Offset of the last record written, or {@code baseOffset - 1} if none. */
    public long lastOffset() {
        return endOffset - 1;
    }

    /** Records written to the log (a PK update writes two: -U and +U). */
    public long recordCount() {
        return endOffset - baseOffset;
    }
}

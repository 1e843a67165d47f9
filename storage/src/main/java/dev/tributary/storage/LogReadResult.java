package dev.tributary.storage;

/**
 * Whole log batches read from one bucket, in the stored format ({@link
 * dev.tributary.common.record.LogBatch}), ready to stream unchanged.
 *
 * @param records zero or more whole batches back to back; the first may start below the requested
 *     offset (batches are never split), so readers skip records under it
 * @param nextOffset the offset to read from next (after the last returned record, or the requested
 *     offset if nothing was returned)
 * @param highWatermark the bucket's end offset: records below it are acknowledged and readable
 * @param logStartOffset the first offset still stored
 */
public record LogReadResult(
        byte[] records, long nextOffset, long highWatermark, long logStartOffset) {
    public boolean isEmpty() {
        return records.length == 0;
    }
}

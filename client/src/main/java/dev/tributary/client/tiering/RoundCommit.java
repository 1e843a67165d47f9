package dev.tributary.client.tiering;

import dev.tributary.common.id.PartitionBucket;
import java.util.List;
import java.util.Map;

/**
 * A round's request for a fenced lake commit (T19).
 *
 * @param tieredOffsets new tiered offset per (partition, bucket), only for buckets that advanced
 * @param writeResults serialized lake write results to commit atomically (may be empty: the round
 *     then only records offsets that moved, T27)
 * @param discardedWriteResults results written by this attempt that must not be committed (beyond a
 *     gap left by force-finish); the coordinator deletes their files (T23)
 * @param recordsRead records the round read from the store
 * @param bytesRead encoded bytes of those records as the store served them
 */
public record RoundCommit(
        long tableId,
        long epoch,
        long roundId,
        Map<PartitionBucket, Long> tieredOffsets,
        List<byte[]> writeResults,
        List<byte[]> discardedWriteResults,
        boolean forceFinished,
        long recordsRead,
        long bytesRead) {
    public RoundCommit {
        tieredOffsets = Map.copyOf(tieredOffsets);
        writeResults = List.copyOf(writeResults);
        discardedWriteResults = List.copyOf(discardedWriteResults);
    }

    public Attempt attempt() {
        return new Attempt(tableId, epoch);
    }

    /** True when the round has nothing to tell the lake: no files and no offsets moved. */
    public boolean isEmpty() {
        return writeResults.isEmpty() && tieredOffsets.isEmpty();
    }
}

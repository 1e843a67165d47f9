package dev.tributary.tiering.service;

import java.util.List;
import java.util.Map;

/**
 * A round's request for a fenced lake commit.
 *
 * @param tieredOffsets new tiered offset per bucket, only for buckets that advanced
 * @param writeResults serialized lake write results to commit atomically (may be empty)
 * @param discardedWriteResults results written by this attempt but not committable (beyond a gap
 *     left by force-finish); the coordinator may delete their files right away
 * @param maxTimestamps largest record timestamp tiered per bucket (for lag), buckets without data
 *     omitted
 */
public record CommitRequest(
        long tableId,
        long epoch,
        long roundId,
        Map<Integer, Long> tieredOffsets,
        List<byte[]> writeResults,
        List<byte[]> discardedWriteResults,
        Map<Integer, Long> maxTimestamps,
        boolean forceFinished,
        long records,
        long bytes) {
    public CommitRequest {
        tieredOffsets = Map.copyOf(tieredOffsets);
        writeResults = List.copyOf(writeResults);
        discardedWriteResults = List.copyOf(discardedWriteResults);
        maxTimestamps = Map.copyOf(maxTimestamps);
    }

    /** True when nothing is written to the lake (the round only reports progress or nothing). */
    public boolean isEmpty() {
        return writeResults.isEmpty();
    }
}

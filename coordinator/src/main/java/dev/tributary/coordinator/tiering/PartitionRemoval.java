package dev.tributary.coordinator.tiering;

import dev.tributary.common.id.PartitionBucket;
import java.util.Map;
import java.util.Set;

/**
 * When a dropping partition of a lake-enabled table may go (T33): never before every bucket of it
 * is in the lake up to the store's final end offset, and never while a round or commit of its table
 * runs, since that round's commit would write the partition's offsets back.
 */
final class PartitionRemoval {
    private PartitionRemoval() {}

    /** Why the partition cannot go yet, or {@code null} when it can. */
    static String blocker(
            TableTiering t, long partitionId, Map<Integer, Long> endOffsets, Set<Long> committing) {
        if (t.state == TieringState.TIERING
                || t.commitPending()
                || t.reconciling
                || committing.contains(t.tableId())) {
            return "a tiering round of " + t.table.path() + " is running";
        }
        for (Map.Entry<Integer, Long> e : endOffsets.entrySet()) {
            if (e.getValue() <= 0) {
                continue;
            }
            long tiered = t.record.tieredOffset(new PartitionBucket(partitionId, e.getKey()));
            if (tiered < e.getValue()) {
                return "bucket "
                        + e.getKey()
                        + " is tiered to "
                        + Math.max(0, tiered)
                        + " of "
                        + e.getValue()
                        + " records";
            }
        }
        return null;
    }
}

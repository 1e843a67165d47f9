package dev.tributary.server.status;

import java.util.Map;

/**
 * One partition's lake lag (T35), next to its table's in {@link TableStatusView}. Only the HTTP API
 * and the CLI show it: metrics stay per table, so their label cardinality does not grow with the
 * partitions.
 *
 * @param partitionId the partition's id
 * @param name its Hive-style name, {@code dt=2026-12-01}
 * @param state ACTIVE or DROPPING
 * @param lagMillis age of the partition's oldest record not yet in the lake (0 when caught up);
 *     {@code null} when it could not be measured (then {@code lagError} says why)
 * @param lagRecords the partition's records not yet in the lake; {@code null} when not measured
 * @param lagError why the lag could not be measured, {@code null} when it was
 * @param tieredOffsets per bucket, the exclusive end offset in the lake
 * @param endOffsets per bucket, the store's end offset
 */
public record PartitionLagView(
        long partitionId,
        String name,
        String state,
        Long lagMillis,
        Long lagRecords,
        String lagError,
        Map<Integer, Long> tieredOffsets,
        Map<Integer, Long> endOffsets) {

    public PartitionLagView {
        tieredOffsets = Map.copyOf(tieredOffsets);
        endOffsets = Map.copyOf(endOffsets);
        if ((lagError == null) != (lagMillis != null && lagRecords != null)) {
            throw new IllegalArgumentException("a lag is either measured or has an error");
        }
    }

    /** Whether the lag was measured. */
    public boolean lagKnown() {
        return lagError == null;
    }
}

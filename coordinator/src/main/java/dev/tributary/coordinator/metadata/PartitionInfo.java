package dev.tributary.coordinator.metadata;

import dev.tributary.common.id.PartitionSpec;
import java.util.Objects;

/**
 * One partition of a partitioned table (T30). Immutable; a state change gives a new instance.
 *
 * @param tableId the table
 * @param partitionId unique over all tables, never reused: a dropped and re-added partition gets a
 *     new id, so it never shares buckets or offsets with its predecessor
 * @param spec its values and Hive-style name, in the table's canonical form
 * @param state ACTIVE or DROPPING (T33)
 * @param createdTimeMillis wall-clock creation time
 * @param dropRequestedMillis when it became DROPPING, -1 while ACTIVE
 * @param dropLakePartition DROPPING only: drop the lake table's partition too when it goes
 */
public record PartitionInfo(
        long tableId,
        long partitionId,
        PartitionSpec spec,
        PartitionState state,
        long createdTimeMillis,
        long dropRequestedMillis,
        boolean dropLakePartition) {

    public PartitionInfo {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(state, "state");
        if (partitionId < 0) {
            throw new IllegalArgumentException("partition id must be >= 0: " + partitionId);
        }
    }

    /** A new ACTIVE partition. */
    public static PartitionInfo create(
            long tableId, long partitionId, PartitionSpec spec, long nowMillis) {
        return new PartitionInfo(
                tableId, partitionId, spec, PartitionState.ACTIVE, nowMillis, -1, false);
    }

    public String name() {
        return spec.name();
    }

    public boolean isDropping() {
        return state == PartitionState.DROPPING;
    }

    /**
     * This partition, DROPPING since {@code nowMillis}.
     *
     * @throws IllegalStateException if it is not ACTIVE
     */
    public PartitionInfo dropping(long nowMillis, boolean dropLake) {
        if (!state.canMoveTo(PartitionState.DROPPING)) {
            throw new IllegalStateException(
                    "partition " + spec + " of table " + tableId + " is already " + state);
        }
        return new PartitionInfo(
                tableId,
                partitionId,
                spec,
                PartitionState.DROPPING,
                createdTimeMillis,
                nowMillis,
                dropLake);
    }

    /** A DROPPING partition whose lake partition is also to be dropped. */
    public PartitionInfo withDropLakePartition() {
        return new PartitionInfo(
                tableId, partitionId, spec, state, createdTimeMillis, dropRequestedMillis, true);
    }
}

package dev.tributary.coordinator.metadata;

/**
 * The life of a partition (T30, T33): it is ACTIVE from its creation; a drop by a user or by
 * auto-partition retention makes it DROPPING when its table is lake-enabled (it refuses writes but
 * is still tiered), and it is removed once every bucket of it is tiered to its end offset. A
 * partition of a table without the lake is removed at once. Removal is not a state: the partition
 * is gone from the registry.
 */
public enum PartitionState {
    ACTIVE,
    DROPPING;

    /** True when {@code next} may follow this state. */
    public boolean canMoveTo(PartitionState next) {
        return this == ACTIVE && next == DROPPING;
    }
}

package dev.tributary.client.admin;

/**
 * What a partition drop did (T33).
 *
 * @param partition the partition, {@code DROPPING} unless it is gone
 * @param removed true when the partition is gone from the store already; false when it waits for
 *     tiering to reach its end
 */
public record PartitionDrop(PartitionInfo partition, boolean removed) {}

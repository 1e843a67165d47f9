package dev.tributary.coordinator.tiering;

/**
 * What a round wrote to the lake.
 *
 * @param rows rows written
 * @param bytes bytes written
 * @param files files written
 */
public record RoundStats(long rows, long bytes, long files) {
    public static final RoundStats EMPTY = new RoundStats(0, 0, 0);
}

package dev.tributary.tiering.api;

/**
 * What a job read from the store for one round. What the lake got (rows, bytes, files) comes from
 * the lake commit itself, never from the job.
 *
 * @param recordsRead log or snapshot records the job read and wrote
 * @param bytesRead encoded bytes of those records as the store served them
 */
public record RoundStats(long recordsRead, long bytesRead) {
    public static final RoundStats EMPTY = new RoundStats(0, 0);
}

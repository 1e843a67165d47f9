package dev.tributary.server.status;

import java.util.List;

/**
 * The lag history as served by {@code GET /api/tiering/history}: one series per lake table, in
 * columns (sample {@code i} is {@code timeMillis[i], lagMillis[i], lagRecords[i]}) because a day of
 * samples for many tables is mostly numbers and columns keep the JSON small.
 *
 * @param intervalMillis the sampling period
 * @param retentionMillis how far back the series go
 * @param lastSampleMillis server time of the newest sample; -1 before the first
 */
public record LagHistoryView(
        long intervalMillis, long retentionMillis, long lastSampleMillis, List<Series> tables) {

    /**
     * One table's samples.
     *
     * @param freshnessMillis the table's freshness as of the newest sample (the dashed line)
     * @param state the tiering state as of the newest sample
     * @param timeMillis sample times, ascending
     * @param lagMillis age of the oldest record not yet in the lake at each sample
     * @param lagRecords records not yet in the lake at each sample
     */
    public record Series(
            long tableId,
            String table,
            long freshnessMillis,
            String state,
            long[] timeMillis,
            long[] lagMillis,
            long[] lagRecords) {}
}

package dev.tributary.coordinator.store;

import dev.tributary.coordinator.status.RoundSummary;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The durable tiering progress of one table: where each bucket's lake copy ends, when the last
 * round committed and which lake snapshot holds it. Written atomically after each lake commit, so
 * the coordinator resumes exactly there after a restart (T12, T21).
 *
 * @param tableId the table
 * @param tieredOffsets per bucket, the exclusive end offset already in the lake; a bucket absent
 *     here was never tiered
 * @param lastTieredTimeMillis wall time of the last commit, -1 if none
 * @param enabledSinceMillis wall time tiering was (last) switched on; the first round waits one
 *     freshness interval from here (T11)
 * @param lakeSnapshotId the last committed lake snapshot, -1 if none
 * @param epoch epoch of the round that produced {@code lakeSnapshotId}, 0 if none
 * @param roundId id of that round, 0 if none
 * @param continueImmediately the last round was force-finished, so the rest is due at once
 * @param lastRound summary of the last round, or {@code null}
 */
public record TieringRecord(
        long tableId,
        SortedMap<Integer, Long> tieredOffsets,
        long lastTieredTimeMillis,
        long enabledSinceMillis,
        long lakeSnapshotId,
        long epoch,
        long roundId,
        boolean continueImmediately,
        RoundSummary lastRound) {

    public TieringRecord {
        tieredOffsets = Collections.unmodifiableSortedMap(new TreeMap<>(tieredOffsets));
    }

    /** A table that was never tiered, enabled at {@code enabledSinceMillis}. */
    public static TieringRecord initial(long tableId, long enabledSinceMillis) {
        return new TieringRecord(
                tableId, new TreeMap<>(), -1, enabledSinceMillis, -1, 0, 0, false, null);
    }

    /** The tiered offset of a bucket, or -1 if it was never tiered. */
    public long tieredOffset(int bucket) {
        Long o = tieredOffsets.get(bucket);
        return o == null ? -1 : o;
    }

    /** The time the freshness interval is measured from (T11, T12). */
    public long freshnessBaseMillis() {
        return Math.max(lastTieredTimeMillis, enabledSinceMillis);
    }

    public TieringRecord withEnabledSince(long millis) {
        return new TieringRecord(
                tableId,
                tieredOffsets,
                lastTieredTimeMillis,
                millis,
                lakeSnapshotId,
                epoch,
                roundId,
                continueImmediately,
                lastRound);
    }

    /** The record after a committed round. */
    public TieringRecord afterCommit(
            Map<Integer, Long> newOffsets,
            long committedAtMillis,
            long snapshotId,
            long roundEpoch,
            long round,
            boolean forceFinished,
            RoundSummary summary) {
        TreeMap<Integer, Long> merged = new TreeMap<>(tieredOffsets);
        merged.putAll(newOffsets);
        return new TieringRecord(
                tableId,
                merged,
                committedAtMillis,
                enabledSinceMillis,
                snapshotId,
                roundEpoch,
                round,
                forceFinished,
                summary);
    }
}

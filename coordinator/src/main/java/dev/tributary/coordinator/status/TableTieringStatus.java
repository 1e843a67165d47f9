package dev.tributary.coordinator.status;

import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.store.TieredOffsets;
import dev.tributary.coordinator.tiering.TieringState;
import java.time.Duration;
import java.util.List;
import java.util.SortedMap;

/**
 * One lake table's tiering status (T28). Lake lag is computed by the server from {@code
 * tieredOffsets} and {@code lastTieredTimeMillis} together with the store's end offsets and record
 * timestamps.
 *
 * @param tableId the table id
 * @param path the table path
 * @param group the table's tiering group
 * @param state the current state
 * @param epoch the current epoch
 * @param jobId the job working on it, or {@code null}
 * @param queuePosition 0-based position in its group's queue, -1 unless pending
 * @param pendingSinceMillis wall time it entered Pending, -1 unless pending or tiering
 * @param roundStartMillis wall time the current round was handed out, -1 unless tiering
 * @param commitInFlight whether its lake commit is running now
 * @param nextDueMillis wall time its next timer fires (scheduled or backoff), -1 if none
 * @param freshness the table's freshness
 * @param lastRound the last committed (or empty) round, as durably recorded, or {@code null}
 * @param recentRounds the last rounds that ended, committed, empty or failed, oldest first
 * @param consecutiveFailures failures since the last successful round
 * @param totalFailures failures since the coordinator started
 * @param lastFailure the last failure's message, or {@code null}
 * @param offsets per (partition, bucket), the exclusive end offset in the lake
 * @param lastTieredTimeMillis wall time of the last commit, -1 if none
 * @param lakeSnapshotId the last lake snapshot, -1 if none
 * @param maintenance the table's lake maintenance (T38, T39), or {@code null} when the coordinator
 *     runs none
 */
public record TableTieringStatus(
        long tableId,
        TablePath path,
        String group,
        TieringState state,
        long epoch,
        String jobId,
        int queuePosition,
        long pendingSinceMillis,
        long roundStartMillis,
        boolean commitInFlight,
        long nextDueMillis,
        Duration freshness,
        RoundSummary lastRound,
        List<RoundSummary> recentRounds,
        long consecutiveFailures,
        long totalFailures,
        String lastFailure,
        TieredOffsets offsets,
        long lastTieredTimeMillis,
        long lakeSnapshotId,
        TableMaintenanceStatus maintenance) {
    public TableTieringStatus {
        recentRounds = List.copyOf(recentRounds);
    }

    /** The tiered offsets of an unpartitioned table's buckets. */
    public SortedMap<Integer, Long> tieredOffsets() {
        return offsets.partition(dev.tributary.common.id.TableBucket.NO_PARTITION);
    }
}

package dev.tributary.server.status;

import java.util.List;
import java.util.Map;

/**
 * One table's tiering status as shown by the CLI, HTTP JSON and metrics (T28): the coordinator's
 * record plus the lake lag computed against the store.
 *
 * @param lagMillis age of the oldest record not yet in the lake (0 when caught up)
 * @param lagRecords records in the store not yet in the lake
 * @param nextEventAtMillis when the table next becomes pending (scheduled or backing off), or when
 *     its running round is force-finished; -1 if none
 * @param warnings conditions that do not stop tiering but that the user should fix (e.g. a bucket
 *     function that is not the lake format's, T36)
 */
public record TableStatusView(
        long tableId,
        String table,
        String group,
        String state,
        long epoch,
        int queuePosition,
        String jobId,
        long freshnessMillis,
        long lastTieredAtMillis,
        long lakeSnapshotId,
        RoundView lastRound,
        long lagMillis,
        long lagRecords,
        long consecutiveFailures,
        long totalFailures,
        String lastFailure,
        long nextEventAtMillis,
        Map<Integer, Long> tieredOffsets,
        Map<Integer, Long> endOffsets,
        List<String> warnings) {

    /** The last finished round. */
    public record RoundView(
            long roundId,
            long epoch,
            long startedAtMillis,
            long durationMillis,
            long rows,
            long bytes,
            long files,
            boolean forceFinished,
            long lakeSnapshotId) {}
}

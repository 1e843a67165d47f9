package dev.tributary.coordinator.status;

/**
 * What one committed (or empty) round did, for status pages and lag (T28).
 *
 * @param epoch the round's tiering epoch
 * @param roundId the round's id
 * @param startMillis wall time the table was handed to a job
 * @param endMillis wall time the commit was recorded
 * @param rows rows written to the lake
 * @param bytes bytes written to the lake
 * @param files files written to the lake
 * @param forceFinished whether the round was cut by the freshness ceiling (T13)
 * @param lakeSnapshotId lake snapshot the round committed, -1 for an empty round
 */
public record RoundSummary(
        long epoch,
        long roundId,
        long startMillis,
        long endMillis,
        long rows,
        long bytes,
        long files,
        boolean forceFinished,
        long lakeSnapshotId) {

    public long durationMillis() {
        return endMillis - startMillis;
    }
}

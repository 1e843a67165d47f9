package dev.tributary.server.status;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.tributary.common.id.EpochFormat;
import dev.tributary.coordinator.status.RoundSummary;
import java.util.List;
import java.util.Map;

/**
 * One table's tiering status as shown by the CLI, HTTP JSON and metrics (T28): the coordinator's
 * record plus the lake lag computed against the store.
 *
 * @param lagMillis age of the oldest record not yet in the lake (0 when caught up); {@code null}
 *     when it could not be measured (then {@code lagError} says why)
 * @param lagRecords records in the store not yet in the lake; {@code null} when not measured
 * @param lagError why the lag could not be measured, {@code null} when it was
 * @param lastRound the last committed (or empty) round, as durably recorded
 * @param rounds the last rounds that ended (committed, empty or failed), oldest first
 * @param nextEventAtMillis when the table next becomes pending (scheduled or backing off), or when
 *     its running round is force-finished; -1 if none
 * @param warnings conditions that do not stop tiering but that the user should fix (e.g. a bucket
 *     function that is not the lake format's, T36)
 * @param partitions a partitioned table's lag per partition, ordered by name (T35); empty for an
 *     unpartitioned table. The table's lag is over all of them: records summed, the oldest age. The
 *     table's {@code endOffsets} are then summed over its partitions per bucket number (write rates
 *     are measured from them) and its {@code tieredOffsets} are empty: each partition's are in its
 *     view
 * @param maintenance the table's lake maintenance (T38, T39), {@code null} when the server runs
 *     none
 * @param objectStore the table's object-store requests and bytes (T47): {@code total} since the
 *     server started, {@code last_round}, {@code last_maintenance_pass}, {@code last_orphan_sweep};
 *     counted in the server's JVM (with a remote Flink cluster, the job's own requests are not in
 *     it); {@code null} when not counted
 * @param pkDeletes how a primary-key table retracts rows in the lake and how much of it the store's
 *     lake row index describes (T48); {@code null} for a log table
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
        List<RoundView> rounds,
        Long lagMillis,
        Long lagRecords,
        String lagError,
        long consecutiveFailures,
        long totalFailures,
        String lastFailure,
        long nextEventAtMillis,
        Map<Integer, Long> tieredOffsets,
        Map<Integer, Long> endOffsets,
        List<String> warnings,
        List<PartitionLagView> partitions,
        MaintenanceView maintenance,
        Map<String, Object> objectStore,
        PkDeletesView pkDeletes) {

    public TableStatusView {
        rounds = List.copyOf(rounds);
        warnings = List.copyOf(warnings);
        partitions = List.copyOf(partitions);
        if ((lagError == null) != (lagMillis != null && lagRecords != null)) {
            throw new IllegalArgumentException("a lag is either measured or has an error");
        }
    }

    /** Whether the lag was measured. */
    public boolean lagKnown() {
        return lagError == null;
    }

    /** The epoch as people read it (incarnation:counter); {@code epoch} stays exact. */
    @JsonProperty("epochText")
    public String epochText() {
        return EpochFormat.format(epoch);
    }

    /**
     * One ended round.
     *
     * @param jobId the job that ran it, null when unknown
     * @param queueWaitMillis how long the table waited for a job, -1 when unknown
     * @param outcome COMMITTED, NOTHING_NEW, FAILED or ADOPTED
     * @param rows rows, bytes and files the lake commit added (-1 when unknown)
     * @param recordsRead what the job read from the store (-1 when unknown)
     * @param failure the failure message of a FAILED round
     */
    public record RoundView(
            long roundId,
            long epoch,
            String jobId,
            long queueWaitMillis,
            String outcome,
            long startedAtMillis,
            long durationMillis,
            long rows,
            long bytes,
            long files,
            long recordsRead,
            long bytesRead,
            boolean forceFinished,
            long lakeSnapshotId,
            String failure) {

        /** The epoch as people read it (incarnation:counter). */
        @JsonProperty("epochText")
        public String epochText() {
            return EpochFormat.format(epoch);
        }

        static RoundView of(RoundSummary r) {
            return r == null
                    ? null
                    : new RoundView(
                            r.roundId(),
                            r.epoch(),
                            r.jobId(),
                            r.queueWaitMillis(),
                            r.outcome().name(),
                            r.startMillis(),
                            r.durationMillis(),
                            r.rows(),
                            r.bytes(),
                            r.files(),
                            r.recordsRead(),
                            r.bytesRead(),
                            r.forceFinished(),
                            r.lakeSnapshotId(),
                            r.failure());
        }
    }
}

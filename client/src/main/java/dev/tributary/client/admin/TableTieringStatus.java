package dev.tributary.client.admin;

import dev.tributary.common.id.TablePath;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.PartitionLagPb;
import dev.tributary.rpc.proto.RoundSummaryPb;
import dev.tributary.rpc.proto.TableTieringStatusPb;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The coordinator's view of one table's tiering (spec T28).
 *
 * @param tableId table id
 * @param path table path
 * @param state NEW, SCHEDULED, PENDING, TIERING, TIERED or FAILED
 * @param epoch current tiering epoch
 * @param queuePosition 0-based position in the pending queue, -1 when not queued
 * @param lastRound the last committed (or empty) round, if any
 * @param lagMillis age of the oldest record not yet in the lake (0 when caught up); empty when the
 *     server could not measure it ({@code lagError} says why)
 * @param lagRecords records not yet in the lake; empty when not measured
 * @param lagError why the lag could not be measured
 * @param failures consecutive failed rounds
 * @param lastFailure message of the last failure
 * @param freshnessMillis the table's freshness setting
 * @param lastTieredAtMillis when the last round committed (0: never)
 * @param jobId the job holding the table while TIERING
 * @param nextEventAtMillis next timer: becoming pending, or force-finish (0: none)
 * @param recentRounds the last rounds that ended (committed, empty or failed), oldest first
 * @param warnings conditions that do not stop tiering but that the user should fix (e.g. a bucket
 *     function that is not the lake format's, T36)
 * @param partitionCount the number of partitions of a partitioned table, 0 for an unpartitioned one
 * @param partitions each partition's lag, by name (T35); empty unless asked for with {@link
 *     Admin#tieringStatus(TablePath, boolean)} or {@link Admin#tieringStatus(boolean)}
 * @param maintenance the table's lake maintenance (compaction, snapshot expiry; T38, T39), empty
 *     when the server runs none
 * @param pkDeletes how a primary-key table retracts rows in the lake and how much of it the
 *     server's lake row index describes (T48); empty for a log table and from older servers
 */
public record TableTieringStatus(
        long tableId,
        TablePath path,
        String state,
        long epoch,
        int queuePosition,
        Optional<Round> lastRound,
        OptionalLong lagMillis,
        OptionalLong lagRecords,
        Optional<String> lagError,
        long failures,
        Optional<String> lastFailure,
        long freshnessMillis,
        long lastTieredAtMillis,
        Optional<String> jobId,
        long nextEventAtMillis,
        List<Round> recentRounds,
        List<String> warnings,
        int partitionCount,
        List<PartitionLag> partitions,
        Optional<LakeMaintenance> maintenance,
        Optional<PkDeletes> pkDeletes) {

    public TableTieringStatus {
        partitions = List.copyOf(partitions);
        recentRounds = List.copyOf(recentRounds);
        warnings = List.copyOf(warnings);
    }

    /** A status without {@code pkDeletes} (a log table, or from a server before T48's). */
    public TableTieringStatus(
            long tableId,
            TablePath path,
            String state,
            long epoch,
            int queuePosition,
            Optional<Round> lastRound,
            OptionalLong lagMillis,
            OptionalLong lagRecords,
            Optional<String> lagError,
            long failures,
            Optional<String> lastFailure,
            long freshnessMillis,
            long lastTieredAtMillis,
            Optional<String> jobId,
            long nextEventAtMillis,
            List<Round> recentRounds,
            List<String> warnings,
            int partitionCount,
            List<PartitionLag> partitions,
            Optional<LakeMaintenance> maintenance) {
        this(
                tableId,
                path,
                state,
                epoch,
                queuePosition,
                lastRound,
                lagMillis,
                lagRecords,
                lagError,
                failures,
                lastFailure,
                freshnessMillis,
                lastTieredAtMillis,
                jobId,
                nextEventAtMillis,
                recentRounds,
                warnings,
                partitionCount,
                partitions,
                maintenance,
                Optional.empty());
    }

    /**
     * One ended round.
     *
     * @param jobId the job that ran it, if known
     * @param queueWaitMillis how long the table waited in the queue for a job, -1 when unknown
     * @param outcome COMMITTED, NOTHING_NEW, FAILED or ADOPTED
     * @param rows rows the lake commit added (-1 when unknown)
     * @param bytes bytes of the data files the lake commit added (-1 when unknown)
     * @param files data files the lake commit added (-1 when unknown)
     * @param recordsRead records the job read from the store (-1 when unknown)
     * @param bytesRead bytes the job read from the store (-1 when unknown)
     * @param lakeSnapshotId the lake snapshot it committed, -1 if none
     * @param failure why a FAILED round failed
     */
    public record Round(
            long roundId,
            long epoch,
            Optional<String> jobId,
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
            Optional<String> failure) {

        static Round fromPb(RoundSummaryPb r) {
            return new Round(
                    r.getRoundId(),
                    r.getEpoch(),
                    r.hasJobId() ? Optional.of(r.getJobId()) : Optional.empty(),
                    r.getQueueWaitMillis(),
                    r.getOutcome(),
                    r.getStartedAtMillis(),
                    r.getDurationMillis(),
                    r.getRows(),
                    r.getBytes(),
                    r.getFiles(),
                    r.getRecordsRead(),
                    r.getBytesRead(),
                    r.getForceFinished(),
                    r.getLakeSnapshotId(),
                    r.hasFailure() ? Optional.of(r.getFailure()) : Optional.empty());
        }
    }

    public static TableTieringStatus fromPb(TableTieringStatusPb pb) {
        List<Round> recent = new ArrayList<>();
        pb.getRecentRoundsList().forEach(r -> recent.add(Round.fromPb(r)));
        return new TableTieringStatus(
                pb.getTableId(),
                ProtoConverters.fromPb(pb.getPath()),
                pb.getState(),
                pb.getEpoch(),
                pb.getQueuePosition(),
                pb.hasLastRound() ? Optional.of(Round.fromPb(pb.getLastRound())) : Optional.empty(),
                pb.hasLagMillis() ? OptionalLong.of(pb.getLagMillis()) : OptionalLong.empty(),
                pb.hasLagRecords() ? OptionalLong.of(pb.getLagRecords()) : OptionalLong.empty(),
                pb.hasLagError() ? Optional.of(pb.getLagError()) : Optional.empty(),
                pb.getFailures(),
                pb.hasLastFailure() ? Optional.of(pb.getLastFailure()) : Optional.empty(),
                pb.getFreshnessMillis(),
                pb.getLastTieredAtMillis(),
                pb.hasJobId() ? Optional.of(pb.getJobId()) : Optional.empty(),
                pb.getNextEventAtMillis(),
                recent,
                List.copyOf(pb.getWarningsList()),
                pb.getPartitionCount(),
                pb.getPartitionsList().stream().map(PartitionLag::fromPb).toList(),
                pb.hasMaintenance()
                        ? Optional.of(LakeMaintenance.fromPb(pb.getMaintenance()))
                        : Optional.empty(),
                pb.hasPkDeletes()
                        ? Optional.of(PkDeletes.fromPb(pb.getPkDeletes()))
                        : Optional.empty());
    }

    /**
     * One partition's lake lag (T35).
     *
     * @param partitionId the partition's id
     * @param name its name, {@code dt=2026-12-01}
     * @param state ACTIVE, or DROPPING while it waits to be tiered before it goes (T33)
     * @param lagMillis age of its oldest record not yet in the lake (0 when caught up); empty when
     *     the server could not measure it
     * @param lagRecords its records not yet in the lake; empty when not measured
     * @param records the records in its logs (sum of the end offsets of its buckets)
     */
    public record PartitionLag(
            long partitionId,
            String name,
            String state,
            OptionalLong lagMillis,
            OptionalLong lagRecords,
            long records) {

        static PartitionLag fromPb(PartitionLagPb p) {
            boolean known = p.hasLagMillis();
            return new PartitionLag(
                    p.getPartitionId(),
                    p.getName(),
                    p.getState(),
                    known ? OptionalLong.of(p.getLagMillis()) : OptionalLong.empty(),
                    known ? OptionalLong.of(p.getLagRecords()) : OptionalLong.empty(),
                    p.getEndOffsetSum());
        }
    }
}

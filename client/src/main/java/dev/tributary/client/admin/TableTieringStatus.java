package dev.tributary.client.admin;

import dev.tributary.common.id.TablePath;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.RoundSummaryPb;
import dev.tributary.rpc.proto.TableTieringStatusPb;
import java.util.List;
import java.util.Optional;

/**
 * The coordinator's view of one table's tiering (spec T28).
 *
 * @param tableId table id
 * @param path table path
 * @param state NEW, SCHEDULED, PENDING, TIERING, TIERED or FAILED
 * @param epoch current tiering epoch
 * @param queuePosition 0-based position in the pending queue, -1 when not queued
 * @param lastRound the last finished round, if any
 * @param lagMillis age of the oldest record not yet in the lake (0 when caught up)
 * @param lagRecords records not yet in the lake
 * @param failures consecutive failed rounds
 * @param lastFailure message of the last failure
 * @param freshnessMillis the table's freshness setting
 * @param lastTieredAtMillis when the last round committed (0: never)
 * @param jobId the job holding the table while TIERING
 * @param nextEventAtMillis next timer: becoming pending, or force-finish (0: none)
 * @param warnings conditions that do not stop tiering but that the user should fix (e.g. a bucket
 *     function that is not the lake format's, T36)
 */
public record TableTieringStatus(
        long tableId,
        TablePath path,
        String state,
        long epoch,
        int queuePosition,
        Optional<Round> lastRound,
        long lagMillis,
        long lagRecords,
        long failures,
        Optional<String> lastFailure,
        long freshnessMillis,
        long lastTieredAtMillis,
        Optional<String> jobId,
        long nextEventAtMillis,
        List<String> warnings) {

    /** One finished round. */
    public record Round(
            long roundId,
            long epoch,
            long startedAtMillis,
            long durationMillis,
            long rows,
            long bytes,
            long files,
            boolean forceFinished) {}

    public static TableTieringStatus fromPb(TableTieringStatusPb pb) {
        Optional<Round> round = Optional.empty();
        if (pb.hasLastRound()) {
            RoundSummaryPb r = pb.getLastRound();
            round =
                    Optional.of(
                            new Round(
                                    r.getRoundId(),
                                    r.getEpoch(),
                                    r.getStartedAtMillis(),
                                    r.getDurationMillis(),
                                    r.getRows(),
                                    r.getBytes(),
                                    r.getFiles(),
                                    r.getForceFinished()));
        }
        return new TableTieringStatus(
                pb.getTableId(),
                ProtoConverters.fromPb(pb.getPath()),
                pb.getState(),
                pb.getEpoch(),
                pb.getQueuePosition(),
                round,
                pb.getLagMillis(),
                pb.getLagRecords(),
                pb.getFailures(),
                pb.hasLastFailure() ? Optional.of(pb.getLastFailure()) : Optional.empty(),
                pb.getFreshnessMillis(),
                pb.getLastTieredAtMillis(),
                pb.hasJobId() ? Optional.of(pb.getJobId()) : Optional.empty(),
                pb.getNextEventAtMillis(),
                List.copyOf(pb.getWarningsList()));
    }
}

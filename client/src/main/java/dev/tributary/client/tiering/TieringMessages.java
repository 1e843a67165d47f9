package dev.tributary.client.tiering;

import dev.tributary.client.admin.TableInfo;
import dev.tributary.common.exception.TributaryException;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The values exchanged through {@link TieringGateway}. */
public final class TieringMessages {
    private TieringMessages() {}

    /** What the coordinator told a job when it registered. */
    public record RegisteredJob(String jobId, Duration heartbeatInterval, Duration heartbeatTimeout)
            implements Serializable {}

    /** One table attempt: the table and its tiering epoch. */
    public record TableEpoch(long tableId, long epoch) implements Serializable {}

    /**
     * A round that ended without a commit: nothing to write (T27), force-finished before writing
     * anything (T13), or failed (T22). A committed round needs no report.
     *
     * @param reason why it failed; null otherwise
     */
    public record RoundReport(long tableId, long epoch, String reason) implements Serializable {
        public static RoundReport of(long tableId, long epoch) {
            return new RoundReport(tableId, epoch, null);
        }
    }

    /**
     * One heartbeat of a job.
     *
     * @param group the job's tiering group (T26); empty or null for the default
     * @param inFlight tables the job is working on, with the epochs it works under
     * @param finished rounds that had nothing to commit (T27)
     * @param forceFinished rounds cut by the freshness ceiling before writing anything (T13)
     * @param failed rounds that failed (T22)
     * @param requestTable ask for the next pending table
     * @param waitForTableMillis with {@code requestTable}: if no table is pending, the server holds
     *     the answer up to this long (capped at the heartbeat interval) and answers as soon as one
     *     becomes pending, so an idle reader gets work at once (T3); 0 answers at once
     */
    public record Heartbeat(
            String jobId,
            String group,
            List<TableEpoch> inFlight,
            List<RoundReport> finished,
            List<RoundReport> forceFinished,
            List<RoundReport> failed,
            boolean requestTable,
            long waitForTableMillis)
            implements Serializable {

        /** A heartbeat answered at once. */
        public Heartbeat(
                String jobId,
                String group,
                List<TableEpoch> inFlight,
                List<RoundReport> finished,
                List<RoundReport> forceFinished,
                List<RoundReport> failed,
                boolean requestTable) {
            this(jobId, group, inFlight, finished, forceFinished, failed, requestTable, 0);
        }
    }

    /** A table attempt the coordinator no longer accepts; the job must drop its work on it. */
    public record FencedTable(long tableId, long epoch, TributaryException error) {}

    /** The coordinator's answer to a heartbeat. */
    public record HeartbeatResult(List<FencedTable> fenced, Optional<RoundPlan> plan) {}

    /**
     * One bucket's part of a round: a log range {@code [fromOffset, cutoffOffset)}, or, when {@code
     * snapshotId} is set, a whole KV snapshot whose log offset becomes the tiered offset (T7).
     */
    public record BucketPlan(
            int bucket,
            long fromOffset,
            long cutoffOffset,
            Optional<Long> snapshotId,
            Optional<Long> snapshotLogOffset)
            implements Serializable {
        public boolean isSnapshot() {
            return snapshotId.isPresent();
        }
    }

    /**
     * A round of one table handed to a job: epoch and round id to tag every write result with
     * (T20), and the buckets with data to tier (T1).
     *
     * @param forceFinishAtMillis when the round is cut short if still running (T13)
     */
    public record RoundPlan(
            TableInfo table,
            long epoch,
            long roundId,
            long plannedAtMillis,
            long forceFinishAtMillis,
            List<BucketPlan> buckets) {}

    /** Figures of one round for the status page (T28). */
    public record RoundStats(
            long rows, long bytes, long files, boolean forceFinished, long startedAtMillis)
            implements Serializable {}

    /**
     * A round's fenced commit request.
     *
     * @param endOffsets each read bucket's new tiered offset
     * @param committables the round's lake write results, each serialized by the lake SPI's {@code
     *     LakeWriteResultSerializer} (which carries its own version)
     */
    public record RoundCommit(
            String jobId,
            long tableId,
            long epoch,
            long roundId,
            Map<Integer, Long> endOffsets,
            List<byte[]> committables,
            RoundStats stats) {}

    /** A lease that keeps a KV snapshot from retention until released or expired (T9). */
    public record SnapshotLease(String leaseId, long expiresAtMillis) implements Serializable {}
}

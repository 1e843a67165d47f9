package dev.tributary.client.tiering;

import static dev.tributary.client.internal.RpcClient.call;

import com.google.protobuf.ByteString;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.internal.RpcClient;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.tiering.TieringMessages.BucketPlan;
import dev.tributary.client.tiering.TieringMessages.FencedTable;
import dev.tributary.client.tiering.TieringMessages.Heartbeat;
import dev.tributary.client.tiering.TieringMessages.HeartbeatResult;
import dev.tributary.client.tiering.TieringMessages.RegisteredJob;
import dev.tributary.client.tiering.TieringMessages.RoundCommit;
import dev.tributary.client.tiering.TieringMessages.RoundPlan;
import dev.tributary.client.tiering.TieringMessages.RoundReport;
import dev.tributary.client.tiering.TieringMessages.SnapshotLease;
import dev.tributary.client.tiering.TieringMessages.TableEpoch;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.types.Schema;
import dev.tributary.rpc.error.ErrorCode;
import dev.tributary.rpc.proto.BucketOffsetPb;
import dev.tributary.rpc.proto.BucketSplitPlanPb;
import dev.tributary.rpc.proto.CommitRoundRequest;
import dev.tributary.rpc.proto.CommitRoundResponse;
import dev.tributary.rpc.proto.FencedTablePb;
import dev.tributary.rpc.proto.HeartbeatRequest;
import dev.tributary.rpc.proto.HeartbeatResponse;
import dev.tributary.rpc.proto.ListOffsetsRequest;
import dev.tributary.rpc.proto.ListSnapshotsRequest;
import dev.tributary.rpc.proto.RegisterJobRequest;
import dev.tributary.rpc.proto.RegisterJobResponse;
import dev.tributary.rpc.proto.ReleaseSnapshotLeaseRequest;
import dev.tributary.rpc.proto.RenewSnapshotLeaseRequest;
import dev.tributary.rpc.proto.RoundPlanPb;
import dev.tributary.rpc.proto.RoundReportPb;
import dev.tributary.rpc.proto.RoundStatsPb;
import dev.tributary.rpc.proto.SnapshotInfoPb;
import dev.tributary.rpc.proto.SnapshotLeasePb;
import dev.tributary.rpc.proto.TableEpochPb;
import dev.tributary.rpc.proto.TakeSnapshotLeaseRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Internal: the tiering job's view of the coordinator and the buckets. Not part of the public
 * client API; it changes with the tiering protocol. Thread safe; calls block and throw the typed
 * exception the server raised ({@link dev.tributary.common.exception.FencedException} for a stale
 * attempt).
 *
 * <p>A job: {@link #registerJob} once, then {@link #heartbeat} every {@link
 * RegisteredJob#heartbeatInterval()} (with {@code requestTable} whenever a reader is idle); read
 * each split of a plan with {@link #readLog} or, for snapshot splits, {@link #takeSnapshotLease} +
 * {@link #readSnapshot} + {@link #releaseSnapshotLease}; finish with {@link #commitRound}.
 */
public final class TieringGateway {
    private final RpcClient rpc;

    public TieringGateway(RpcClient rpc) {
        this.rpc = rpc;
    }

    /**
     * Registers (or re-registers) a job.
     *
     * @param group the {@code table.datalake.tiering.group} it serves; empty for the default
     */
    public RegisteredJob registerJob(String jobId, String group) {
        RegisterJobResponse r =
                call(
                        () ->
                                rpc.tiering()
                                        .registerJob(
                                                RegisterJobRequest.newBuilder()
                                                        .setJobId(jobId)
                                                        .setGroup(group == null ? "" : group)
                                                        .build()));
        return new RegisteredJob(
                r.getJobId(),
                Duration.ofMillis(r.getHeartbeatIntervalMillis()),
                Duration.ofMillis(r.getHeartbeatTimeoutMillis()));
    }

    /** Reports progress and, if asked, receives the next table's round plan. */
    public HeartbeatResult heartbeat(Heartbeat hb) {
        HeartbeatRequest.Builder req =
                HeartbeatRequest.newBuilder()
                        .setJobId(hb.jobId())
                        .setGroup(hb.group() == null ? "" : hb.group())
                        .setRequestTable(hb.requestTable())
                        .setWaitForTableMillis(hb.waitForTableMillis());
        for (TableEpoch t : hb.inFlight()) {
            req.addInFlight(TableEpochPb.newBuilder().setTableId(t.tableId()).setEpoch(t.epoch()));
        }
        hb.finished().forEach(r -> req.addFinished(toPb(r)));
        hb.forceFinished().forEach(r -> req.addForceFinished(toPb(r)));
        hb.failed().forEach(r -> req.addFailed(toPb(r)));
        HeartbeatResponse resp = call(() -> rpc.tiering().heartbeat(req.build()));
        List<FencedTable> fenced = new ArrayList<>();
        for (FencedTablePb f : resp.getFencedList()) {
            fenced.add(
                    new FencedTable(
                            f.getTableId(),
                            f.getEpoch(),
                            ErrorCode.fromCode(f.getErrorCode()).toException(f.getMessage())));
        }
        Optional<RoundPlan> plan =
                resp.hasPlan() ? Optional.of(fromPb(resp.getPlan())) : Optional.empty();
        return new HeartbeatResult(fenced, plan);
    }

    /**
     * Commits a round to the lake, fenced by (table, epoch) (T19).
     *
     * @return the lake snapshot id, empty when the round wrote nothing (T27)
     * @throws dev.tributary.common.exception.FencedException when the attempt is stale; nothing was
     *     committed
     */
    public OptionalLong commitRound(RoundCommit commit) {
        CommitRoundRequest.Builder req =
                CommitRoundRequest.newBuilder()
                        .setJobId(commit.jobId())
                        .setTableId(commit.tableId())
                        .setEpoch(commit.epoch())
                        .setRoundId(commit.roundId())
                        .setStats(
                                RoundStatsPb.newBuilder()
                                        .setRows(commit.stats().rows())
                                        .setBytes(commit.stats().bytes())
                                        .setFiles(commit.stats().files())
                                        .setForceFinished(commit.stats().forceFinished())
                                        .setStartedAtMillis(commit.stats().startedAtMillis()));
        for (Map.Entry<Integer, Long> e : new TreeMap<>(commit.endOffsets()).entrySet()) {
            req.addEndOffsets(
                    BucketOffsetPb.newBuilder().setBucket(e.getKey()).setOffset(e.getValue()));
        }
        for (byte[] c : commit.committables()) {
            req.addCommittables(ByteString.copyFrom(c));
        }
        CommitRoundResponse r = call(() -> rpc.tiering().commitRound(req.build()));
        return r.hasLakeSnapshotId()
                ? OptionalLong.of(r.getLakeSnapshotId())
                : OptionalLong.empty();
    }

    /** Leases a KV snapshot so retention keeps it while a split reads it (T9). */
    public SnapshotLease takeSnapshotLease(TableBucket bucket, long snapshotId, String holder) {
        return fromPb(
                call(
                        () ->
                                rpc.tiering()
                                        .takeSnapshotLease(
                                                TakeSnapshotLeaseRequest.newBuilder()
                                                        .setTableId(bucket.tableId())
                                                        .setBucket(bucket.bucket())
                                                        .setSnapshotId(snapshotId)
                                                        .setHolder(holder)
                                                        .build())));
    }

    /**
     * Extends a live lease; a {@link dev.tributary.common.exception.NotFoundException} means it
     * expired.
     */
    public SnapshotLease renewSnapshotLease(TableBucket bucket, String leaseId) {
        return fromPb(
                call(
                        () ->
                                rpc.tiering()
                                        .renewSnapshotLease(
                                                RenewSnapshotLeaseRequest.newBuilder()
                                                        .setTableId(bucket.tableId())
                                                        .setBucket(bucket.bucket())
                                                        .setLeaseId(leaseId)
                                                        .build())));
    }

    public void releaseSnapshotLease(TableBucket bucket, String leaseId) {
        call(
                () ->
                        rpc.tiering()
                                .releaseSnapshotLease(
                                        ReleaseSnapshotLeaseRequest.newBuilder()
                                                .setTableId(bucket.tableId())
                                                .setBucket(bucket.bucket())
                                                .setLeaseId(leaseId)
                                                .build()));
    }

    /**
     * Streams {@code [from, to)} of one bucket's log (flow-controlled), decoding rows with {@code
     * schema} (the plan's table schema; older rows read NULL in added columns). Close the iterator
     * to stop early (force-finish).
     */
    public RecordIterator readLog(TableBucket bucket, long from, long to, Schema schema) {
        return RecordIterator.ofLog(rpc, bucket.tableId(), bucket.bucket(), from, to, id -> schema);
    }

    /** Streams every row of a KV snapshot as INSERT records. */
    public RecordIterator readSnapshot(TableBucket bucket, long snapshotId, Schema schema) {
        return RecordIterator.ofSnapshot(
                rpc, bucket.tableId(), bucket.bucket(), snapshotId, id -> schema);
    }

    /** Each bucket's end offset. */
    public Map<Integer, Long> endOffsets(long tableId) {
        Map<Integer, Long> out = new TreeMap<>();
        for (BucketOffsetPb b :
                call(() ->
                                rpc.read()
                                        .listOffsets(
                                                ListOffsetsRequest.newBuilder()
                                                        .setTableId(tableId)
                                                        .build()))
                        .getEndOffsetsList()) {
            out.put(b.getBucket(), b.getOffset());
        }
        return out;
    }

    /** Each bucket's latest KV snapshot id (buckets without a snapshot are absent). */
    public Map<Integer, Long> latestSnapshots(long tableId) {
        Map<Integer, Long> out = new TreeMap<>();
        for (SnapshotInfoPb s :
                call(() ->
                                rpc.read()
                                        .listSnapshots(
                                                ListSnapshotsRequest.newBuilder()
                                                        .setTableId(tableId)
                                                        .build()))
                        .getSnapshotsList()) {
            out.put(s.getBucket(), s.getSnapshotId());
        }
        return out;
    }

    private static RoundReportPb toPb(RoundReport r) {
        RoundReportPb.Builder b =
                RoundReportPb.newBuilder().setTableId(r.tableId()).setEpoch(r.epoch());
        if (r.reason() != null) {
            b.setReason(r.reason());
        }
        return b.build();
    }

    private static SnapshotLease fromPb(SnapshotLeasePb pb) {
        return new SnapshotLease(pb.getLeaseId(), pb.getExpiresAtMillis());
    }

    private static RoundPlan fromPb(RoundPlanPb pb) {
        List<BucketPlan> buckets = new ArrayList<>();
        for (BucketSplitPlanPb b : pb.getBucketsList()) {
            buckets.add(
                    new BucketPlan(
                            b.getBucket(),
                            b.getFromOffset(),
                            b.getCutoffOffset(),
                            b.hasSnapshotId() ? Optional.of(b.getSnapshotId()) : Optional.empty(),
                            b.hasSnapshotLogOffset()
                                    ? Optional.of(b.getSnapshotLogOffset())
                                    : Optional.empty()));
        }
        return new RoundPlan(
                TableInfo.fromPb(pb.getTable()),
                pb.getEpoch(),
                pb.getRoundId(),
                pb.getPlannedAtMillis(),
                pb.getForceFinishAtMillis(),
                buckets);
    }
}

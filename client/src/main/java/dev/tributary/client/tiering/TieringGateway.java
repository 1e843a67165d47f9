package dev.tributary.client.tiering;

import com.google.protobuf.ByteString;
import dev.tributary.client.internal.BucketLeaders;
import dev.tributary.client.internal.CoordinatorRoute;
import dev.tributary.client.internal.RpcClient;
import dev.tributary.client.scan.LogChunkStream;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.types.Schema;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.BucketOffsetPb;
import dev.tributary.rpc.proto.BucketSplitPlanPb;
import dev.tributary.rpc.proto.CommitMaintenanceRequest;
import dev.tributary.rpc.proto.CommitMaintenanceResponse;
import dev.tributary.rpc.proto.CommitRoundRequest;
import dev.tributary.rpc.proto.FencedTablePb;
import dev.tributary.rpc.proto.HeartbeatResponse;
import dev.tributary.rpc.proto.ListOffsetsRequest;
import dev.tributary.rpc.proto.ListSnapshotsRequest;
import dev.tributary.rpc.proto.LocateLakeRowsRequest;
import dev.tributary.rpc.proto.LocateLakeRowsResponse;
import dev.tributary.rpc.proto.MaintenanceAttemptPb;
import dev.tributary.rpc.proto.MaintenanceGrantPb;
import dev.tributary.rpc.proto.MaintenanceReportPb;
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
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.CommitOrder;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.LeaseGrant;
import dev.tributary.tiering.api.LocatedLakeRows;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceGrant;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.MaintenanceReport;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import dev.tributary.tiering.api.TableAck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Internal: the tiering job's view of the coordinator and the buckets, over gRPC. Not part of the
 * public client API; it changes with the tiering protocol. It maps the protocol's records ({@code
 * dev.tributary.tiering.api}, the one vocabulary the coordinator, the server and the job share) to
 * and from the wire ({@code tiering.proto}). Thread safe; calls throw the typed exception the
 * server raised.
 *
 * <p>A job: {@link #registerJob} once and follow the {@link JobSettings} it returns, then {@link
 * #heartbeat} every {@link JobSettings#heartbeatInterval()} (asking for a table, with a long-poll
 * wait, whenever a reader is idle); read each split with {@link #readLog} or, for snapshot splits,
 * {@link #takeSnapshotLease} + {@link #readSnapshot} + {@link #releaseSnapshotLease}; finish with
 * {@link #commitRound}, or report the round in a heartbeat. A job with maintenance slots may get a
 * compaction grant instead of a round when no table is pending (T38): it names the grant in its
 * heartbeats until it ends it with {@link #commitMaintenance} or a report.
 */
public final class TieringGateway {
    private final CoordinatorRoute coordinator;
    private final BucketLeaders leaders;

    /**
     * @param coordinator the channel of coordinator calls (follows {@code NOT_COORDINATOR})
     * @param leaders the channel of each bucket's reads
     */
    public TieringGateway(CoordinatorRoute coordinator, BucketLeaders leaders) {
        this.coordinator = coordinator;
        this.leaders = leaders;
    }

    /** A request about one bucket's local state (leases, lake rows), at the bucket's server. */
    private <T> T atHolder(TableBucket bucket, java.util.function.Function<RpcClient, T> request) {
        return leaders.callHolder(BucketLeaders.Key.of(bucket), bucket.bucket(), request);
    }

    /**
     * Registers (or re-registers) a job that does not say how many readers it runs.
     *
     * @param group the {@code table.datalake.tiering.group} it serves; empty for the default
     */
    public JobSettings registerJob(String jobId, String group) {
        return registerJob(jobId, group, 0);
    }

    /**
     * Registers (or re-registers) a job.
     *
     * @param group the {@code table.datalake.tiering.group} it serves; empty for the default
     * @param parallelism the job's readers (its Flink parallelism), 0 when unknown; the coordinator
     *     reports it and the tiering planner simulates it (T44)
     */
    public JobSettings registerJob(String jobId, String group, int parallelism) {
        RegisterJobResponse r =
                coordinator.call(
                        c ->
                                c.tiering()
                                        .registerJob(
                                                RegisterJobRequest.newBuilder()
                                                        .setJobId(jobId)
                                                        .setGroup(group == null ? "" : group)
                                                        .setParallelism(parallelism)
                                                        .build()));
        return new JobSettings(
                r.getJobId(),
                group == null || group.isEmpty() ? null : group,
                Duration.ofMillis(r.getHeartbeatIntervalMillis()),
                Duration.ofMillis(r.getHeartbeatTimeoutMillis()),
                commitOrder(r.getCommitOrder()),
                Duration.ofMillis(r.getCommitTimeoutMillis()),
                r.getMaintenanceSlots(),
                Duration.ofMillis(r.getMaintenanceTimeoutMillis()));
    }

    /**
     * Renews in-flight attempts and compaction grants, reports ended rounds and failed grants and,
     * if asked, receives the next table's round or a compaction grant (T38). With {@code
     * requestTable} and a {@code waitForTableMillis}, the server holds the answer up to that long
     * (capped at the heartbeat interval) and answers as soon as a table becomes pending, so an idle
     * reader gets work at once (T3).
     */
    public HeartbeatResult heartbeat(dev.tributary.tiering.api.HeartbeatRequest request) {
        boolean requestTable = request.requestTable();
        dev.tributary.rpc.proto.HeartbeatRequest.Builder req =
                dev.tributary.rpc.proto.HeartbeatRequest.newBuilder()
                        .setJobId(request.jobId())
                        .setGroup(request.group() == null ? "" : request.group())
                        .setRequestTable(requestTable)
                        .setAcceptMaintenance(requestTable && request.acceptMaintenance())
                        .setWaitForTableMillis(requestTable ? request.waitForTableMillis() : 0);
        request.inFlight().forEach(a -> req.addInFlight(toPb(a)));
        for (RoundReport r : request.reports()) {
            RoundReportPb pb = toPb(r);
            switch (r.outcome()) {
                case FINISHED -> req.addFinished(pb);
                case FORCE_FINISHED -> req.addForceFinished(pb);
                case FAILED -> req.addFailed(pb);
            }
        }
        request.maintenanceInFlight().forEach(a -> req.addMaintenanceInFlight(toPb(a)));
        for (MaintenanceReport r : request.maintenanceReports()) {
            MaintenanceReportPb.Builder b =
                    MaintenanceReportPb.newBuilder()
                            .setAttempt(toPb(r.attempt()))
                            .setReason(r.reason() == null ? "failed" : r.reason());
            r.discardedResults().forEach(c -> b.addDiscardedResults(ByteString.copyFrom(c)));
            req.addMaintenanceFailed(b);
        }
        Duration wait = Duration.ofMillis(requestTable ? request.waitForTableMillis() : 0);
        HeartbeatResponse resp = coordinator.call(c -> c.tiering(wait).heartbeat(req.build()));
        // only fenced attempts travel: an attempt the request named and the answer does not is
        // current
        List<TableAck> acks = new ArrayList<>();
        for (FencedTablePb f : resp.getFencedList()) {
            acks.add(
                    new TableAck(
                            f.getTableId(), f.getEpoch(), TableAck.Status.FENCED, f.getMessage()));
        }
        List<Attempt> forceFinish = new ArrayList<>();
        resp.getForceFinishList().forEach(a -> forceFinish.add(fromPb(a)));
        List<MaintenanceAttempt> fencedMaintenance = new ArrayList<>();
        resp.getFencedMaintenanceList().forEach(a -> fencedMaintenance.add(fromPb(a)));
        return new HeartbeatResult(
                acks,
                forceFinish,
                resp.hasPlan() ? fromPb(resp.getPlan()) : null,
                fencedMaintenance,
                resp.hasMaintenance() ? fromPb(resp.getMaintenance()) : null);
    }

    /**
     * Commits a compaction grant (T38). The call does not hold a thread while the lake commit runs,
     * and never fails for a compaction that does not land: the outcome says what happened.
     *
     * @param timeout the coordinator's {@link JobSettings#maintenanceTimeout()}
     */
    public CompletableFuture<MaintenanceOutcome> commitMaintenance(
            MaintenanceCommit commit, Duration timeout) {
        CommitMaintenanceRequest.Builder req =
                CommitMaintenanceRequest.newBuilder()
                        .setJobId(commit.jobId())
                        .setAttempt(toPb(commit.attempt()));
        commit.results().forEach(r -> req.addResults(ByteString.copyFrom(r)));
        return coordinator
                .callAsync(
                        c ->
                                RpcClient.callAsync(
                                        c.tieringAsync(timeout)::commitMaintenance, req.build()))
                .thenApply(TieringGateway::fromPb);
    }

    /**
     * Asks the coordinator to commit a round to the lake, fenced by its attempt (T19). The call
     * does not hold a thread while the lake commit runs.
     *
     * @param commitTimeout the coordinator's {@link JobSettings#commitTimeout()}: the call waits
     *     that long on top of the request timeout
     * @return {@link CommitOutcome#FENCED} when the attempt is stale (nothing was committed); other
     *     failures complete the future exceptionally with the typed exception
     */
    public CompletableFuture<CommitOutcome> commitRound(
            RoundCommit commit, Duration commitTimeout) {
        CommitRoundRequest.Builder req =
                CommitRoundRequest.newBuilder()
                        .setJobId(commit.jobId())
                        .setTableId(commit.tableId())
                        .setEpoch(commit.epoch())
                        .setRoundId(commit.roundId())
                        .setStats(
                                RoundStatsPb.newBuilder()
                                        .setRecordsRead(commit.stats().recordsRead())
                                        .setBytesRead(commit.stats().bytesRead())
                                        .setForceFinished(commit.forceFinished()));
        for (Map.Entry<PartitionBucket, Long> e : commit.bucketEndOffsets().entrySet()) {
            BucketOffsetPb.Builder b =
                    BucketOffsetPb.newBuilder()
                            .setBucket(e.getKey().bucket())
                            .setOffset(e.getValue());
            if (e.getKey().isPartitioned()) {
                b.setPartitionId(e.getKey().partitionId());
            }
            req.addEndOffsets(b);
        }
        commit.writeResults().forEach(c -> req.addCommittables(ByteString.copyFrom(c)));
        commit.discardedResults()
                .forEach(c -> req.addDiscardedWriteResults(ByteString.copyFrom(c)));
        return coordinator
                .callAsync(
                        c ->
                                RpcClient.callAsync(
                                        c.tieringAsync(commitTimeout)::commitRound, req.build()))
                .handle(
                        (r, e) -> {
                            if (e == null) {
                                return CommitOutcome.COMMITTED;
                            }
                            Throwable cause = e instanceof CompletionException ? e.getCause() : e;
                            if (cause instanceof FencedException) {
                                return CommitOutcome.FENCED;
                            }
                            throw e instanceof CompletionException ce
                                    ? ce
                                    : new CompletionException(e);
                        });
    }

    /** How long the server may take to answer a lake row lookup on top of the request timeout. */
    private static final Duration LOCATE_WAIT = Duration.ofMinutes(10);

    /**
     * Where the live lake rows of a bucket's keys are in lake snapshot {@code lakeSnapshotId}, from
     * the server's lake row index (T48); at most 100,000 keys per call.
     *
     * @param keys each in the lake format's key encoding (opaque to the server)
     * @return per key, in order, its row; empty when the table keeps no lake row index
     */
    public Optional<LocatedLakeRows> locateLakeRows(
            TableBucket bucket, long lakeSnapshotId, List<byte[]> keys) {
        LocateLakeRowsRequest.Builder req =
                LocateLakeRowsRequest.newBuilder()
                        .setTableId(bucket.tableId())
                        .setBucket(bucket.bucket())
                        .setLakeSnapshotId(lakeSnapshotId);
        if (bucket.isPartitioned()) {
            req.setPartitionId(bucket.partitionId());
        }
        for (byte[] k : keys) {
            req.addKeys(ByteString.copyFrom(k));
        }
        // the server may first build the bucket's index from its lake files
        LocateLakeRowsResponse r =
                atHolder(bucket, c -> c.tiering(LOCATE_WAIT).locateLakeRows(req.build()));
        if (!r.getIndexed()) {
            return Optional.empty();
        }
        if (r.getFileIndexesCount() != keys.size() || r.getPositionsCount() != keys.size()) {
            throw new CorruptDataException(
                    "the server located "
                            + r.getFileIndexesCount()
                            + " lake rows for "
                            + keys.size()
                            + " keys");
        }
        String[] files = new String[keys.size()];
        long[] positions = new long[keys.size()];
        for (int i = 0; i < files.length; i++) {
            int f = r.getFileIndexes(i);
            if (f >= r.getFilesCount()) {
                throw new CorruptDataException(
                        "the server named file " + f + " of " + r.getFilesCount());
            }
            if (f >= 0) {
                files[i] = r.getFiles(f);
                positions[i] = r.getPositions(i);
            }
        }
        return Optional.of(new LocatedLakeRows(files, positions));
    }

    /** Leases a KV snapshot so retention keeps it while a split reads it (T9). */
    public LeaseGrant takeSnapshotLease(TableBucket bucket, long snapshotId, String holder) {
        return takeLease(
                bucket,
                TakeSnapshotLeaseRequest.newBuilder().setSnapshotId(snapshotId).setHolder(holder));
    }

    /**
     * Leases the bucket's newest KV snapshot taken at or past {@code fromOffset} at the bucket's
     * leader, which takes one if it has none (T52: a snapshot split granted again after its
     * snapshot went away with its server); the grant names the snapshot and its log offset.
     */
    public LeaseGrant takeNewestSnapshotLease(TableBucket bucket, long fromOffset, String holder) {
        return takeLease(
                bucket,
                TakeSnapshotLeaseRequest.newBuilder()
                        .setNewestFromOffset(fromOffset)
                        .setHolder(holder));
    }

    private LeaseGrant takeLease(TableBucket bucket, TakeSnapshotLeaseRequest.Builder request) {
        request.setTableId(bucket.tableId()).setBucket(bucket.bucket());
        TakeSnapshotLeaseRequest built = withPartition(request, bucket).build();
        return fromPb(
                this.<SnapshotLeasePb>atHolder(bucket, c -> c.tiering().takeSnapshotLease(built)));
    }

    /**
     * Extends a live lease by the server's lease timeout; a {@link
     * dev.tributary.common.exception.NotFoundException} means it expired.
     */
    public LeaseGrant renewSnapshotLease(TableBucket bucket, String leaseId) {
        return fromPb(
                this.<SnapshotLeasePb>atHolder(
                        bucket,
                        c ->
                                c.tiering()
                                        .renewSnapshotLease(
                                                withPartition(
                                                                RenewSnapshotLeaseRequest
                                                                        .newBuilder()
                                                                        .setTableId(
                                                                                bucket.tableId())
                                                                        .setBucket(bucket.bucket())
                                                                        .setLeaseId(leaseId),
                                                                bucket)
                                                        .build())));
    }

    public void releaseSnapshotLease(TableBucket bucket, String leaseId) {
        atHolder(
                bucket,
                c ->
                        c.tiering()
                                .releaseSnapshotLease(
                                        withPartition(
                                                        ReleaseSnapshotLeaseRequest.newBuilder()
                                                                .setTableId(bucket.tableId())
                                                                .setBucket(bucket.bucket())
                                                                .setLeaseId(leaseId),
                                                        bucket)
                                                .build()));
    }

    /**
     * Streams {@code [from, to)} of one bucket's log (flow-controlled), decoding rows with {@code
     * schema} (the plan's table schema; older rows read NULL in added columns). Close the iterator
     * to stop early (force-finish).
     */
    public RecordIterator readLog(TableBucket bucket, long from, long to, Schema schema) {
        return RecordIterator.ofLog(leaders, bucket, from, to, id -> schema);
    }

    /**
     * Streams {@code [from, to)} of one bucket's log as raw log batch chunks (flow-controlled), for
     * a reader that verifies and decodes them itself. Close the stream to stop early.
     */
    public LogChunkStream readLogChunks(TableBucket bucket, long from, long to) {
        return RecordIterator.logChunks(leaders, bucket, from, to);
    }

    /**
     * Streams a KV snapshot's rows as raw log batch chunks (all INSERTs); refused ({@link
     * dev.tributary.common.exception.FencedException}) if the bucket's server holds that snapshot
     * id at another log offset than {@code expectedLogOffset} (another replica's snapshot, T52).
     */
    public LogChunkStream readSnapshotChunks(
            TableBucket bucket, long snapshotId, long expectedLogOffset) {
        return RecordIterator.snapshotChunks(leaders, bucket, snapshotId, expectedLogOffset);
    }

    /** Streams every row of a KV snapshot as INSERT records. */
    public RecordIterator readSnapshot(TableBucket bucket, long snapshotId, Schema schema) {
        return RecordIterator.ofSnapshot(leaders, bucket, snapshotId, id -> schema);
    }

    /** Each bucket's end offset, asked of each server for the buckets it holds. */
    public Map<Integer, Long> endOffsets(long tableId) {
        Map<Integer, Long> out = new TreeMap<>();
        for (var r :
                leaders.fanOut(
                        BucketLeaders.Key.table(tableId),
                        (c, buckets) ->
                                c.read()
                                        .listOffsets(
                                                ListOffsetsRequest.newBuilder()
                                                        .setTableId(tableId)
                                                        .addAllBuckets(buckets)
                                                        .build()))) {
            for (BucketOffsetPb b : r.getEndOffsetsList()) {
                out.put(b.getBucket(), b.getOffset());
            }
        }
        return out;
    }

    /**
     * Each bucket's latest KV snapshot id (buckets without a snapshot are absent), asked of each
     * server for the buckets it holds.
     */
    public Map<Integer, Long> latestSnapshots(long tableId) {
        Map<Integer, Long> out = new TreeMap<>();
        for (var r :
                leaders.fanOut(
                        BucketLeaders.Key.table(tableId),
                        (c, buckets) ->
                                c.read()
                                        .listSnapshots(
                                                ListSnapshotsRequest.newBuilder()
                                                        .setTableId(tableId)
                                                        .addAllBuckets(buckets)
                                                        .build()))) {
            for (SnapshotInfoPb s : r.getSnapshotsList()) {
                out.put(s.getBucket(), s.getSnapshotId());
            }
        }
        return out;
    }

    private static TakeSnapshotLeaseRequest.Builder withPartition(
            TakeSnapshotLeaseRequest.Builder b, TableBucket bucket) {
        return bucket.isPartitioned() ? b.setPartitionId(bucket.partitionId()) : b;
    }

    private static RenewSnapshotLeaseRequest.Builder withPartition(
            RenewSnapshotLeaseRequest.Builder b, TableBucket bucket) {
        return bucket.isPartitioned() ? b.setPartitionId(bucket.partitionId()) : b;
    }

    private static ReleaseSnapshotLeaseRequest.Builder withPartition(
            ReleaseSnapshotLeaseRequest.Builder b, TableBucket bucket) {
        return bucket.isPartitioned() ? b.setPartitionId(bucket.partitionId()) : b;
    }

    private static MaintenanceAttemptPb toPb(MaintenanceAttempt a) {
        return MaintenanceAttemptPb.newBuilder()
                .setTableId(a.tableId())
                .setMaintenanceId(a.maintenanceId())
                .build();
    }

    private static MaintenanceAttempt fromPb(MaintenanceAttemptPb pb) {
        return new MaintenanceAttempt(pb.getTableId(), pb.getMaintenanceId());
    }

    private static MaintenanceGrant fromPb(MaintenanceGrantPb pb) {
        return new MaintenanceGrant(
                pb.getTable().getTableId(),
                ProtoConverters.fromPb(pb.getTable().getPath()),
                ProtoConverters.fromPb(pb.getTable().getTableDescriptor()),
                pb.getMaintenanceId(),
                pb.getBaseSnapshotId(),
                pb.getUnitsList().stream()
                        .map(u -> new LakeBucket(u.getPartition(), u.getBucket()))
                        .toList(),
                pb.getMaxFiles(),
                Duration.ofMillis(pb.getTimeoutMillis()));
    }

    private static MaintenanceOutcome fromPb(CommitMaintenanceResponse pb) {
        MaintenanceOutcome.Kind kind =
                switch (pb.getOutcome()) {
                    case MAINTENANCE_COMMITTED -> MaintenanceOutcome.Kind.COMMITTED;
                    case MAINTENANCE_NOTHING_TO_COMMIT -> MaintenanceOutcome.Kind.NOTHING_TO_COMMIT;
                    case MAINTENANCE_YIELDED -> MaintenanceOutcome.Kind.YIELDED;
                    case MAINTENANCE_FENCED -> MaintenanceOutcome.Kind.FENCED;
                    default -> MaintenanceOutcome.Kind.FAILED;
                };
        return new MaintenanceOutcome(
                kind,
                pb.hasSnapshotId() ? pb.getSnapshotId() : -1,
                pb.hasMessage() ? pb.getMessage() : null);
    }

    private static TableEpochPb toPb(Attempt a) {
        return TableEpochPb.newBuilder().setTableId(a.tableId()).setEpoch(a.epoch()).build();
    }

    private static Attempt fromPb(TableEpochPb pb) {
        return new Attempt(pb.getTableId(), pb.getEpoch());
    }

    private static RoundReportPb toPb(RoundReport r) {
        RoundReportPb.Builder b =
                RoundReportPb.newBuilder().setTableId(r.tableId()).setEpoch(r.epoch());
        if (r.message() != null) {
            b.setReason(r.message());
        }
        r.discardedResults().forEach(c -> b.addDiscardedWriteResults(ByteString.copyFrom(c)));
        return b.build();
    }

    private static LeaseGrant fromPb(SnapshotLeasePb pb) {
        return new LeaseGrant(
                pb.getLeaseId(),
                pb.getExpiresAtMillis(),
                pb.getTtlMillis(),
                pb.getSnapshotId(),
                pb.hasLogOffset()
                        ? java.util.OptionalLong.of(pb.getLogOffset())
                        : java.util.OptionalLong.empty());
    }

    private static RoundPlan fromPb(RoundPlanPb pb) {
        Map<Long, String> names = new HashMap<>();
        pb.getPartitionsList().forEach(p -> names.put(p.getPartitionId(), p.getName()));
        List<BucketPlan> buckets = new ArrayList<>();
        for (BucketSplitPlanPb b : pb.getBucketsList()) {
            long partitionId = b.hasPartitionId() ? b.getPartitionId() : TableBucket.NO_PARTITION;
            if (b.hasPartitionId() && !names.containsKey(partitionId)) {
                throw new CorruptDataException(
                        "round plan names partition " + partitionId + " without its name");
            }
            buckets.add(
                    b.hasSnapshotId()
                            ? BucketPlan.snapshot(
                                    partitionId,
                                    b.getBucket(),
                                    b.getSnapshotId(),
                                    b.hasSnapshotLogOffset()
                                            ? b.getSnapshotLogOffset()
                                            : b.getCutoffOffset())
                            : BucketPlan.log(
                                    partitionId,
                                    b.getBucket(),
                                    b.getFromOffset(),
                                    b.getCutoffOffset()));
        }
        // a duration the job counts on its own clock from now (T13)
        if (pb.getCeilingMillis() <= 0) {
            throw new CorruptDataException(
                    "round plan of table "
                            + pb.getTable().getTableId()
                            + " has no positive ceiling ("
                            + pb.getCeilingMillis()
                            + " ms)");
        }
        return new RoundPlan(
                pb.getTable().getTableId(),
                ProtoConverters.fromPb(pb.getTable().getPath()),
                ProtoConverters.fromPb(pb.getTable().getTableDescriptor()),
                pb.getTable().getSchemaId(),
                pb.getEpoch(),
                pb.getRoundId(),
                buckets,
                Duration.ofMillis(pb.getCeilingMillis()),
                names);
    }

    private static CommitOrder commitOrder(String name) {
        try {
            return CommitOrder.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException("the coordinator sent an unknown commit order " + name);
        }
    }
}

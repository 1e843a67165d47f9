package dev.tributary.server.rpc;

import com.google.protobuf.ByteString;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.lake.api.index.LakeRowLocation;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.error.ErrorCode;
import dev.tributary.rpc.proto.BucketOffsetPb;
import dev.tributary.rpc.proto.BucketSplitPlanPb;
import dev.tributary.rpc.proto.CommitMaintenanceRequest;
import dev.tributary.rpc.proto.CommitMaintenanceResponse;
import dev.tributary.rpc.proto.CommitRoundRequest;
import dev.tributary.rpc.proto.CommitRoundResponse;
import dev.tributary.rpc.proto.FencedTablePb;
import dev.tributary.rpc.proto.HeartbeatResponse;
import dev.tributary.rpc.proto.LakeBucketPb;
import dev.tributary.rpc.proto.LocateLakeRowsRequest;
import dev.tributary.rpc.proto.LocateLakeRowsResponse;
import dev.tributary.rpc.proto.MaintenanceAttemptPb;
import dev.tributary.rpc.proto.MaintenanceGrantPb;
import dev.tributary.rpc.proto.MaintenanceOutcomePb;
import dev.tributary.rpc.proto.MaintenanceReportPb;
import dev.tributary.rpc.proto.PartitionNamePb;
import dev.tributary.rpc.proto.RegisterJobRequest;
import dev.tributary.rpc.proto.RegisterJobResponse;
import dev.tributary.rpc.proto.ReleaseSnapshotLeaseRequest;
import dev.tributary.rpc.proto.ReleaseSnapshotLeaseResponse;
import dev.tributary.rpc.proto.RenewSnapshotLeaseRequest;
import dev.tributary.rpc.proto.RoundPlanPb;
import dev.tributary.rpc.proto.RoundReportPb;
import dev.tributary.rpc.proto.SnapshotLeasePb;
import dev.tributary.rpc.proto.TableEpochPb;
import dev.tributary.rpc.proto.TableInfoPb;
import dev.tributary.rpc.proto.TakeSnapshotLeaseRequest;
import dev.tributary.rpc.proto.TieringServiceGrpc;
import dev.tributary.server.cluster.CoordinatorRole;
import dev.tributary.server.lake.LakeRowLocations;
import dev.tributary.server.store.LocalBuckets;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.kv.LeasedSnapshot;
import dev.tributary.storage.kv.SnapshotLease;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceGrant;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.MaintenanceReport;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import dev.tributary.tiering.api.RoundStats;
import dev.tributary.tiering.api.TableAck;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The tiering job's calls: translated to the coordinator's API (on the server that coordinates) and
 * the store's leases and lake row index (on the server that holds the bucket, any server).
 */
public final class TieringServiceImpl extends TieringServiceGrpc.TieringServiceImplBase {
    private final CoordinatorRole coordinator;
    private final BucketStore store;
    private final LocalBuckets held;
    private final Clock clock;
    private final Duration leaseTimeout;
    private final java.util.function.Consumer<RoundPlan> onPlanned;
    private final LakeRowLocations rowLocations;

    /**
     * @param leaseTimeout the store's {@code kv.snapshot.lease-timeout}, told to lease holders so
     *     they renew within it
     * @param onPlanned told of every round handed to a job (the tiering planner's observations)
     * @param rowLocations the lake row index's answers (T48); null without a lake
     */
    public TieringServiceImpl(
            CoordinatorRole coordinator,
            BucketStore store,
            LocalBuckets held,
            Clock clock,
            Duration leaseTimeout,
            java.util.function.Consumer<RoundPlan> onPlanned,
            LakeRowLocations rowLocations) {
        this.coordinator = coordinator;
        this.store = store;
        this.held = held;
        this.clock = clock;
        this.leaseTimeout = leaseTimeout;
        this.onPlanned = onPlanned;
        this.rowLocations = rowLocations;
    }

    @Override
    public void registerJob(RegisterJobRequest req, StreamObserver<RegisterJobResponse> out) {
        Calls.async(
                out,
                () ->
                        coordinator
                                .current()
                                .registerJob(
                                        req.getJobId(),
                                        emptyToNull(req.getGroup()),
                                        req.getParallelism())
                                .thenApply(
                                        r ->
                                                RegisterJobResponse.newBuilder()
                                                        .setJobId(r.jobId())
                                                        .setHeartbeatIntervalMillis(
                                                                r.heartbeatInterval().toMillis())
                                                        .setHeartbeatTimeoutMillis(
                                                                r.heartbeatTimeout().toMillis())
                                                        .setCommitTimeoutMillis(
                                                                r.commitTimeout().toMillis())
                                                        .setCommitOrder(r.commitOrder().name())
                                                        .setMaintenanceSlots(r.maintenanceSlots())
                                                        .setMaintenanceTimeoutMillis(
                                                                r.maintenanceTimeout().toMillis())
                                                        .build()));
    }

    @Override
    public void heartbeat(
            dev.tributary.rpc.proto.HeartbeatRequest req, StreamObserver<HeartbeatResponse> out) {
        Calls.async(
                out,
                () -> {
                    List<Attempt> inFlight = new ArrayList<>();
                    for (TableEpochPb t : req.getInFlightList()) {
                        inFlight.add(new Attempt(t.getTableId(), t.getEpoch()));
                    }
                    List<RoundReport> reports = new ArrayList<>();
                    for (RoundReportPb r : req.getFinishedList()) {
                        reports.add(report(r, RoundReport.Outcome.FINISHED));
                    }
                    for (RoundReportPb r : req.getForceFinishedList()) {
                        reports.add(report(r, RoundReport.Outcome.FORCE_FINISHED));
                    }
                    for (RoundReportPb r : req.getFailedList()) {
                        reports.add(report(r, RoundReport.Outcome.FAILED));
                    }
                    List<MaintenanceAttempt> maintenanceInFlight = new ArrayList<>();
                    for (MaintenanceAttemptPb a : req.getMaintenanceInFlightList()) {
                        maintenanceInFlight.add(fromPb(a));
                    }
                    List<MaintenanceReport> maintenanceReports = new ArrayList<>();
                    for (MaintenanceReportPb r : req.getMaintenanceFailedList()) {
                        maintenanceReports.add(
                                new MaintenanceReport(
                                        fromPb(r.getAttempt()),
                                        r.getReason(),
                                        bytes(r.getDiscardedResultsList())));
                    }
                    HeartbeatRequest request =
                            new HeartbeatRequest(
                                    req.getJobId(),
                                    emptyToNull(req.getGroup()),
                                    inFlight,
                                    reports,
                                    req.getRequestTable(),
                                    Math.max(0, req.getWaitForTableMillis()),
                                    maintenanceInFlight,
                                    maintenanceReports,
                                    req.getAcceptMaintenance());
                    return coordinator.current().heartbeat(request).thenApply(this::toPb);
                });
    }

    private static RoundReport report(RoundReportPb r, RoundReport.Outcome outcome) {
        String reason =
                outcome != RoundReport.Outcome.FAILED
                        ? null
                        : r.hasReason() ? r.getReason() : "no reason given";
        return new RoundReport(
                r.getTableId(),
                r.getEpoch(),
                outcome,
                reason,
                bytes(r.getDiscardedWriteResultsList()));
    }

    private static List<byte[]> bytes(List<ByteString> list) {
        List<byte[]> out = new ArrayList<>(list.size());
        list.forEach(b -> out.add(b.toByteArray()));
        return out;
    }

    private HeartbeatResponse toPb(HeartbeatResult r) {
        HeartbeatResponse.Builder b = HeartbeatResponse.newBuilder();
        for (TableAck ack : r.acks()) {
            if (ack.fenced()) {
                b.addFenced(
                        FencedTablePb.newBuilder()
                                .setTableId(ack.tableId())
                                .setEpoch(ack.epoch())
                                .setErrorCode(ErrorCode.FENCED.code())
                                .setMessage(ack.message() == null ? "fenced" : ack.message()));
            }
        }
        for (Attempt a : r.forceFinish()) {
            b.addForceFinish(TableEpochPb.newBuilder().setTableId(a.tableId()).setEpoch(a.epoch()));
        }
        r.roundPlan().ifPresent(p -> b.setPlan(toPb(p)));
        r.maintenanceGrant().ifPresent(g -> b.setMaintenance(toPb(g)));
        r.fencedMaintenance().forEach(a -> b.addFencedMaintenance(toPb(a)));
        return b.build();
    }

    private static MaintenanceAttempt fromPb(MaintenanceAttemptPb pb) {
        return new MaintenanceAttempt(pb.getTableId(), pb.getMaintenanceId());
    }

    private static MaintenanceAttemptPb toPb(MaintenanceAttempt a) {
        return MaintenanceAttemptPb.newBuilder()
                .setTableId(a.tableId())
                .setMaintenanceId(a.maintenanceId())
                .build();
    }

    private MaintenanceGrantPb toPb(MaintenanceGrant g) {
        MaintenanceGrantPb.Builder b =
                MaintenanceGrantPb.newBuilder()
                        .setTable(
                                TableInfoPb.newBuilder()
                                        .setTableId(g.tableId())
                                        .setPath(ProtoConverters.toPb(g.path()))
                                        .setTableDescriptor(ProtoConverters.toPb(g.descriptor())))
                        .setMaintenanceId(g.maintenanceId())
                        .setBaseSnapshotId(g.baseSnapshotId())
                        .setMaxFiles(g.maxFiles())
                        .setTimeoutMillis(g.timeout().toMillis());
        g.units()
                .forEach(
                        u ->
                                b.addUnits(
                                        LakeBucketPb.newBuilder()
                                                .setPartition(u.partition())
                                                .setBucket(u.bucket())));
        return b.build();
    }

    @Override
    public void commitMaintenance(
            CommitMaintenanceRequest req, StreamObserver<CommitMaintenanceResponse> out) {
        Calls.async(
                out,
                () ->
                        coordinator
                                .current()
                                .commitMaintenance(
                                        new MaintenanceCommit(
                                                req.getJobId(),
                                                fromPb(req.getAttempt()),
                                                bytes(req.getResultsList())))
                                .thenApply(TieringServiceImpl::toPb));
    }

    private static CommitMaintenanceResponse toPb(MaintenanceOutcome o) {
        CommitMaintenanceResponse.Builder b =
                CommitMaintenanceResponse.newBuilder()
                        .setOutcome(
                                switch (o.kind()) {
                                    case COMMITTED -> MaintenanceOutcomePb.MAINTENANCE_COMMITTED;
                                    case NOTHING_TO_COMMIT ->
                                            MaintenanceOutcomePb.MAINTENANCE_NOTHING_TO_COMMIT;
                                    case YIELDED -> MaintenanceOutcomePb.MAINTENANCE_YIELDED;
                                    case FENCED -> MaintenanceOutcomePb.MAINTENANCE_FENCED;
                                    case FAILED -> MaintenanceOutcomePb.MAINTENANCE_FAILED;
                                });
        if (o.snapshotId() >= 0) {
            b.setSnapshotId(o.snapshotId());
        }
        if (o.message() != null) {
            b.setMessage(o.message());
        }
        return b.build();
    }

    private RoundPlanPb toPb(RoundPlan p) {
        onPlanned.accept(p);
        TableInfoPb.Builder table =
                TableInfoPb.newBuilder()
                        .setTableId(p.tableId())
                        .setPath(ProtoConverters.toPb(p.path()))
                        .setSchemaId(p.schemaId())
                        .setTableDescriptor(ProtoConverters.toPb(p.descriptor()));
        // a table dropped meanwhile has none: the plan is fenced at commit anyway
        held.known(p.tableId()).ifPresent(t -> table.setCreatedAtMillis(t.createdTimeMillis()));
        RoundPlanPb.Builder b =
                RoundPlanPb.newBuilder()
                        .setTable(table)
                        .setEpoch(p.epoch())
                        .setRoundId(p.roundId())
                        .setCeilingMillis(p.freshness().toMillis());
        for (BucketPlan w : p.buckets()) {
            BucketSplitPlanPb.Builder s = BucketSplitPlanPb.newBuilder().setBucket(w.bucket());
            if (w.partitionId() != TableBucket.NO_PARTITION) {
                s.setPartitionId(w.partitionId());
            }
            if (w.isSnapshot()) {
                s.setSnapshotId(w.snapshotId())
                        .setSnapshotLogOffset(w.endOffset())
                        .setFromOffset(0)
                        .setCutoffOffset(w.endOffset());
            } else {
                s.setFromOffset(w.startOffset()).setCutoffOffset(w.endOffset());
            }
            b.addBuckets(s);
        }
        p.partitionNames()
                .forEach(
                        (id, name) ->
                                b.addPartitions(
                                        PartitionNamePb.newBuilder()
                                                .setPartitionId(id)
                                                .setName(name)));
        return b.build();
    }

    @Override
    public void commitRound(CommitRoundRequest req, StreamObserver<CommitRoundResponse> out) {
        Calls.async(
                out,
                () -> {
                    Map<PartitionBucket, Long> ends = new TreeMap<>();
                    for (BucketOffsetPb b : req.getEndOffsetsList()) {
                        PartitionBucket key;
                        try {
                            key =
                                    new PartitionBucket(
                                            ServerConverters.partitionOf(
                                                    b.hasPartitionId(), b.getPartitionId()),
                                            b.getBucket());
                        } catch (IllegalArgumentException e) {
                            throw new InvalidInputException(
                                    "a commit lists an impossible bucket: " + e.getMessage(), e);
                        }
                        if (ends.put(key, b.getOffset()) != null) {
                            throw new InvalidInputException(
                                    "bucket " + key + " is listed twice in a commit");
                        }
                    }
                    RoundCommit request =
                            new RoundCommit(
                                    req.getJobId(),
                                    req.getTableId(),
                                    req.getEpoch(),
                                    req.getRoundId(),
                                    new TreeMap<>(ends),
                                    bytes(req.getCommittablesList()),
                                    bytes(req.getDiscardedWriteResultsList()),
                                    new RoundStats(
                                            req.getStats().getRecordsRead(),
                                            req.getStats().getBytesRead()),
                                    req.getStats().getForceFinished());
                    return coordinator
                            .current()
                            .commit(request)
                            .thenApply(
                                    id -> {
                                        CommitRoundResponse.Builder r =
                                                CommitRoundResponse.newBuilder();
                                        if (id != null && id >= 0) {
                                            r.setLakeSnapshotId(id);
                                        }
                                        return r.build();
                                    });
                });
    }

    @Override
    public void takeSnapshotLease(
            TakeSnapshotLeaseRequest req, StreamObserver<SnapshotLeasePb> out) {
        Calls.unary(
                out,
                () -> {
                    TableBucket b =
                            bucket(
                                    req.getTableId(),
                                    req.hasPartitionId(),
                                    req.getPartitionId(),
                                    req.getBucket());
                    if (!req.hasNewestFromOffset()) {
                        return toPb(store.leaseSnapshot(b, req.getSnapshotId()));
                    }
                    LeasedSnapshot newest = store.leaseNewestSnapshot(b, req.getNewestFromOffset());
                    return toPb(newest.lease()).toBuilder()
                            .setLogOffset(newest.snapshot().logOffset())
                            .build();
                });
    }

    @Override
    public void renewSnapshotLease(
            RenewSnapshotLeaseRequest req, StreamObserver<SnapshotLeasePb> out) {
        Calls.unary(
                out,
                () ->
                        toPb(
                                store.renewLease(
                                        bucket(
                                                req.getTableId(),
                                                req.hasPartitionId(),
                                                req.getPartitionId(),
                                                req.getBucket()),
                                        leaseId(req.getLeaseId()))));
    }

    @Override
    public void locateLakeRows(
            LocateLakeRowsRequest req, StreamObserver<LocateLakeRowsResponse> out) {
        Calls.unary(
                out,
                () -> {
                    TableBucket b =
                            bucket(
                                    req.getTableId(),
                                    req.hasPartitionId(),
                                    req.getPartitionId(),
                                    req.getBucket());
                    List<byte[]> keys = new ArrayList<>(req.getKeysCount());
                    for (ByteString k : req.getKeysList()) {
                        keys.add(k.toByteArray());
                    }
                    Optional<LakeRowLocation[]> found =
                            rowLocations == null
                                    ? Optional.empty()
                                    : rowLocations.locate(b, req.getLakeSnapshotId(), keys);
                    LocateLakeRowsResponse.Builder r = LocateLakeRowsResponse.newBuilder();
                    if (found.isEmpty()) {
                        return r.setIndexed(false).build();
                    }
                    Map<String, Integer> files = new java.util.HashMap<>();
                    for (LakeRowLocation at : found.get()) {
                        if (at == null) {
                            r.addFileIndexes(-1).addPositions(0);
                            continue;
                        }
                        Integer i = files.get(at.file());
                        if (i == null) {
                            i = files.size();
                            files.put(at.file(), i);
                            r.addFiles(at.file());
                        }
                        r.addFileIndexes(i).addPositions(at.position());
                    }
                    return r.setIndexed(true).build();
                });
    }

    @Override
    public void releaseSnapshotLease(
            ReleaseSnapshotLeaseRequest req, StreamObserver<ReleaseSnapshotLeaseResponse> out) {
        Calls.unary(
                out,
                () -> {
                    store.releaseLease(
                            bucket(
                                    req.getTableId(),
                                    req.hasPartitionId(),
                                    req.getPartitionId(),
                                    req.getBucket()),
                            leaseId(req.getLeaseId()));
                    return ReleaseSnapshotLeaseResponse.getDefaultInstance();
                });
    }

    /**
     * A bucket of a lease or lake row request (its partition id optional), held by this server (its
     * snapshots and lake row index are here).
     *
     * @throws dev.tributary.common.exception.NotLeaderForBucketException naming its server when
     *     another one holds it
     */
    private TableBucket bucket(
            long tableId, boolean hasPartitionId, long rawPartition, int bucket) {
        long partitionId = ServerConverters.partitionOf(hasPartitionId, rawPartition);
        TableInfo t = held.table(tableId);
        if (bucket < 0 || bucket >= t.descriptor().bucketCount()) {
            throw new InvalidInputException(
                    "bucket " + bucket + " does not exist in table " + t.path());
        }
        if (t.descriptor().isPartitioned() != (partitionId != TableBucket.NO_PARTITION)) {
            throw new InvalidInputException(
                    t.descriptor().isPartitioned()
                            ? "table " + t.path() + " is partitioned: name the bucket's partition"
                            : "table " + t.path() + " is not partitioned");
        }
        held.requireHeld(t, partitionId, bucket);
        return new TableBucket(tableId, partitionId, bucket);
    }

    private SnapshotLeasePb toPb(SnapshotLease lease) {
        long remainingMillis = Math.max(0, (lease.expiresAtNanos() - clock.nanoTime()) / 1_000_000);
        return SnapshotLeasePb.newBuilder()
                .setLeaseId(Long.toString(lease.leaseId()))
                .setExpiresAtMillis(clock.currentTimeMillis() + remainingMillis)
                .setTtlMillis(leaseTimeout.toMillis())
                .setSnapshotId(lease.snapshotId())
                .build();
    }

    private static long leaseId(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new InvalidInputException("invalid lease id '" + id + "'");
        }
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}

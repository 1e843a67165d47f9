package dev.tributary.server.rpc;

import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.ClusterServerPb;
import dev.tributary.rpc.proto.CompactionRunPb;
import dev.tributary.rpc.proto.DescribeClusterResponse;
import dev.tributary.rpc.proto.PartitionInfoPb;
import dev.tributary.rpc.proto.PartitionLagPb;
import dev.tributary.rpc.proto.PkDeletesStatusPb;
import dev.tributary.rpc.proto.ReplicationHealthPb;
import dev.tributary.rpc.proto.RoundSummaryPb;
import dev.tributary.rpc.proto.ServerLivenessPb;
import dev.tributary.rpc.proto.TableInfoPb;
import dev.tributary.rpc.proto.TableMaintenancePb;
import dev.tributary.rpc.proto.TableTieringStatusPb;
import dev.tributary.server.cluster.ClusterView;
import dev.tributary.server.status.MaintenanceView;
import dev.tributary.server.status.PartitionLagView;
import dev.tributary.server.status.PkDeletesView;
import dev.tributary.server.status.TableStatusView;

/** Server-side domain to wire conversions. */
final class ServerConverters {
    /** A request's optional partition id: {@link TableBucket#NO_PARTITION} when absent. */
    static long partitionOf(boolean has, long partitionId) {
        return has ? partitionId : TableBucket.NO_PARTITION;
    }

    private ServerConverters() {}

    static DescribeClusterResponse toPb(ClusterView v) {
        DescribeClusterResponse.Builder b =
                DescribeClusterResponse.newBuilder().setClusterId(v.clusterId());
        v.coordinatorId().ifPresent(b::setCoordinatorId);
        v.raftTerm().ifPresent(b::setRaftTerm);
        v.raftLeaderId().ifPresent(b::setRaftLeaderId);
        v.replication()
                .ifPresent(
                        r ->
                                b.setReplication(
                                        ReplicationHealthPb.newBuilder()
                                                .setBuckets(r.buckets())
                                                .setUnderReplicated(r.underReplicated())
                                                .setLeaderless(r.leaderless())
                                                .setMoving(r.moving())
                                                .setNotPreferredLeader(r.notPreferredLeader())));
        for (ClusterView.Member m : v.servers()) {
            b.addServers(
                    ClusterServerPb.newBuilder()
                            .setServerId(m.registration().serverId())
                            .setRpcAddress(m.registration().rpcAddress())
                            .setHttpAddress(m.registration().httpAddress())
                            .setRegisteredAtMillis(m.registration().registeredAtMillis())
                            .setCoordinator(m.coordinator())
                            .setObserver(m.observer())
                            .setDraining(m.registration().draining())
                            .setBuckets(m.buckets())
                            .setReportedBuckets(m.reportedBuckets())
                            .setLiveness(
                                    switch (m.liveness()) {
                                        case UNKNOWN -> ServerLivenessPb.LIVENESS_UNKNOWN;
                                        case ALIVE -> ServerLivenessPb.LIVENESS_ALIVE;
                                        case EXPIRED -> ServerLivenessPb.LIVENESS_EXPIRED;
                                    }));
            if (m.millisSinceHeartbeat().isPresent()) {
                b.getServersBuilder(b.getServersCount() - 1)
                        .setMillisSinceHeartbeat(m.millisSinceHeartbeat().getAsLong());
            }
        }
        return b.build();
    }

    static TableInfoPb toPb(TableInfo t) {
        return TableInfoPb.newBuilder()
                .setTableId(t.tableId())
                .setPath(ProtoConverters.toPb(t.path()))
                .setSchemaId(t.schemaId())
                .setTableDescriptor(ProtoConverters.toPb(t.descriptor()))
                .setCreatedAtMillis(t.createdTimeMillis())
                .build();
    }

    static PartitionInfoPb toPb(PartitionInfo p) {
        return PartitionInfoPb.newBuilder()
                .setPartitionId(p.partitionId())
                .setName(p.name())
                .setState(p.state().name())
                .setCreatedAtMillis(p.createdTimeMillis())
                .setDropRequestedAtMillis(Math.max(0, p.dropRequestedMillis()))
                .setDropLakePartition(p.dropLakePartition())
                .build();
    }

    /**
     * @param withPartitions also each partition's lag (T35); otherwise only their number
     */
    static TableTieringStatusPb toPb(TableStatusView v, TableInfo table, boolean withPartitions) {
        TableTieringStatusPb.Builder b =
                TableTieringStatusPb.newBuilder()
                        .setTableId(v.tableId())
                        .setPath(ProtoConverters.toPb(table.path()))
                        .setState(v.state())
                        .setEpoch(v.epoch())
                        .setQueuePosition(v.queuePosition())
                        .setFailures(v.consecutiveFailures())
                        .setFreshnessMillis(v.freshnessMillis())
                        .setLastTieredAtMillis(Math.max(0, v.lastTieredAtMillis()))
                        .setNextEventAtMillis(Math.max(0, v.nextEventAtMillis()))
                        .addAllWarnings(v.warnings());
        if (v.lagKnown()) {
            b.setLagMillis(v.lagMillis()).setLagRecords(v.lagRecords());
        } else {
            b.setLagError(v.lagError());
        }
        if (v.lastFailure() != null) {
            b.setLastFailure(v.lastFailure());
        }
        if (v.jobId() != null) {
            b.setJobId(v.jobId());
        }
        if (v.lastRound() != null) {
            b.setLastRound(toPb(v.lastRound()));
        }
        v.rounds().forEach(r -> b.addRecentRounds(toPb(r)));
        b.setPartitionCount(v.partitions().size());
        if (withPartitions) {
            v.partitions().forEach(p -> b.addPartitions(toPb(p)));
        }
        if (v.maintenance() != null) {
            b.setMaintenance(toPb(v.maintenance()));
        }
        if (v.pkDeletes() != null) {
            b.setPkDeletes(toPb(v.pkDeletes()));
        }
        return b.build();
    }

    private static PkDeletesStatusPb toPb(PkDeletesView d) {
        return PkDeletesStatusPb.newBuilder()
                .setMode(d.mode())
                .setRowLocator(d.rowLocator() == null ? "" : d.rowLocator())
                .setBuckets(d.buckets())
                .setIndexedBuckets(d.indexedBuckets())
                .setIndexedSnapshotId(d.indexedSnapshotId() == null ? -1 : d.indexedSnapshotId())
                .setBucketsAtSnapshot(d.bucketsAtSnapshot())
                .setIndexOpen(d.indexOpen())
                .build();
    }

    private static PartitionLagPb toPb(PartitionLagView p) {
        PartitionLagPb.Builder b =
                PartitionLagPb.newBuilder()
                        .setPartitionId(p.partitionId())
                        .setName(p.name())
                        .setState(p.state())
                        .setEndOffsetSum(
                                p.endOffsets().values().stream().mapToLong(Long::longValue).sum());
        if (p.lagKnown()) {
            b.setLagMillis(p.lagMillis()).setLagRecords(p.lagRecords());
        }
        return b.build();
    }

    private static TableMaintenancePb toPb(MaintenanceView m) {
        TableMaintenancePb.Builder b =
                TableMaintenancePb.newBuilder()
                        .setState(m.state())
                        .setAutoCompaction(m.autoCompaction())
                        .setMaxFiles(m.maxFiles())
                        .setQueuePosition(m.queuePosition())
                        .setStatsAtMillis(Math.max(0, m.statsAtMillis()))
                        .putAllDataFilesPerBucket(m.dataFilesPerBucket())
                        .setMaxFilesPerBucket(m.maxFilesPerBucket())
                        .setLiveDataFiles(m.liveDataFiles())
                        .setDeleteFiles(m.deleteFiles())
                        .setLiveDataBytes(m.liveDataBytes())
                        .setSnapshotsRetained(m.snapshotsRetained())
                        .setNextPassAtMillis(Math.max(0, m.nextPassAtMillis()))
                        .setCompactions(m.compactions())
                        .setCompactionsYielded(m.compactionsYielded())
                        .setCompactionFailures(m.compactionFailures())
                        .setBytesRewritten(m.bytesRewritten())
                        .setLastExpiryAtMillis(Math.max(0, m.lastExpiryAtMillis()))
                        .setSnapshotsExpired(m.snapshotsExpired())
                        .setFilesDeleted(m.filesDeleted())
                        .setBytesReclaimed(m.bytesReclaimed());
        if (m.jobId() != null) {
            b.setJobId(m.jobId());
        }
        if (m.lastError() != null) {
            b.setLastError(m.lastError());
        }
        MaintenanceView.CompactionView c = m.lastCompaction();
        if (c != null) {
            CompactionRunPb.Builder r =
                    CompactionRunPb.newBuilder()
                            .setMaintenanceId(c.maintenanceId())
                            .setOutcome(c.outcome())
                            .setGrantedAtMillis(c.grantedAtMillis())
                            .setEndedAtMillis(c.endedAtMillis())
                            .setBuckets(c.buckets())
                            .setFilesRemoved(c.filesRemoved())
                            .setFilesAdded(c.filesAdded())
                            .setBytesRewritten(c.bytesRewritten())
                            .setBytesWritten(c.bytesWritten())
                            .setLakeSnapshotId(c.lakeSnapshotId());
            if (c.jobId() != null) {
                r.setJobId(c.jobId());
            }
            if (c.message() != null) {
                r.setMessage(c.message());
            }
            b.setLastCompaction(r);
        }
        return b.build();
    }

    private static RoundSummaryPb toPb(TableStatusView.RoundView r) {
        RoundSummaryPb.Builder b =
                RoundSummaryPb.newBuilder()
                        .setRoundId(r.roundId())
                        .setEpoch(r.epoch())
                        .setStartedAtMillis(r.startedAtMillis())
                        .setDurationMillis(r.durationMillis())
                        .setRows(r.rows())
                        .setBytes(r.bytes())
                        .setFiles(r.files())
                        .setForceFinished(r.forceFinished())
                        .setOutcome(r.outcome())
                        .setRecordsRead(r.recordsRead())
                        .setBytesRead(r.bytesRead())
                        .setLakeSnapshotId(r.lakeSnapshotId())
                        .setQueueWaitMillis(r.queueWaitMillis());
        if (r.failure() != null) {
            b.setFailure(r.failure());
        }
        if (r.jobId() != null) {
            b.setJobId(r.jobId());
        }
        return b.build();
    }
}

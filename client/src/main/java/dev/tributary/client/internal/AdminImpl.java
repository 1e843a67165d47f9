package dev.tributary.client.internal;

import dev.tributary.client.admin.Admin;
import dev.tributary.client.admin.BucketReplicaInfo;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.client.admin.LakeInfo;
import dev.tributary.client.admin.PartitionDrop;
import dev.tributary.client.admin.PartitionInfo;
import dev.tributary.client.admin.ReplicaMove;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.admin.TieringOverview;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.AlterTableRequest;
import dev.tributary.rpc.proto.ClusterServerPb;
import dev.tributary.rpc.proto.CreateDatabaseRequest;
import dev.tributary.rpc.proto.CreatePartitionRequest;
import dev.tributary.rpc.proto.CreateTableRequest;
import dev.tributary.rpc.proto.DescribeClusterRequest;
import dev.tributary.rpc.proto.DescribeClusterResponse;
import dev.tributary.rpc.proto.DescribeLakeRequest;
import dev.tributary.rpc.proto.DescribeLakeResponse;
import dev.tributary.rpc.proto.DescribeTableRequest;
import dev.tributary.rpc.proto.DropDatabaseRequest;
import dev.tributary.rpc.proto.DropPartitionRequest;
import dev.tributary.rpc.proto.DropPartitionResponse;
import dev.tributary.rpc.proto.DropTableRequest;
import dev.tributary.rpc.proto.GetBucketLeadersRequest;
import dev.tributary.rpc.proto.ListDatabasesRequest;
import dev.tributary.rpc.proto.ListPartitionsRequest;
import dev.tributary.rpc.proto.ListTablesRequest;
import dev.tributary.rpc.proto.MoveReplicasRequest;
import dev.tributary.rpc.proto.MoveReplicasResponse;
import dev.tributary.rpc.proto.RemoveServerRequest;
import dev.tributary.rpc.proto.TieringStatusRequest;
import dev.tributary.rpc.proto.TieringStatusResponse;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@link Admin} over the admin gRPC service. */
public final class AdminImpl implements Admin {
    private final CoordinatorRoute coordinator;
    private final TableMetadataCache cache;

    public AdminImpl(CoordinatorRoute coordinator, TableMetadataCache cache) {
        this.coordinator = coordinator;
        this.cache = cache;
    }

    @Override
    public void createDatabase(String name, boolean ignoreIfExists) {
        coordinator.call(
                c ->
                        c.admin()
                                .createDatabase(
                                        CreateDatabaseRequest.newBuilder()
                                                .setName(name)
                                                .setIgnoreIfExists(ignoreIfExists)
                                                .build()));
    }

    @Override
    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade) {
        coordinator.call(
                c ->
                        c.admin()
                                .dropDatabase(
                                        DropDatabaseRequest.newBuilder()
                                                .setName(name)
                                                .setIgnoreIfNotExists(ignoreIfNotExists)
                                                .setCascade(cascade)
                                                .build()));
        cache.invalidateAll();
    }

    @Override
    public List<String> listDatabases() {
        return coordinator
                .call(c -> c.admin().listDatabases(ListDatabasesRequest.getDefaultInstance()))
                .getNamesList();
    }

    @Override
    public TableInfo createTable(
            TablePath path, TableDescriptor descriptor, boolean ignoreIfExists) {
        TableInfo info =
                TableInfo.fromPb(
                        coordinator.call(
                                c ->
                                        c.admin()
                                                .createTable(
                                                        CreateTableRequest.newBuilder()
                                                                .setPath(ProtoConverters.toPb(path))
                                                                .setTableDescriptor(
                                                                        ProtoConverters.toPb(
                                                                                descriptor))
                                                                .setIgnoreIfExists(ignoreIfExists)
                                                                .build())));
        cache.put(info);
        return info;
    }

    @Override
    public PartitionInfo createPartition(
            TablePath path, PartitionSpec partition, boolean ignoreIfExists) {
        return PartitionInfo.fromPb(
                coordinator.call(
                        c ->
                                c.admin()
                                        .createPartition(
                                                CreatePartitionRequest.newBuilder()
                                                        .setPath(ProtoConverters.toPb(path))
                                                        .setPartition(partition.name())
                                                        .setIgnoreIfExists(ignoreIfExists)
                                                        .build())));
    }

    @Override
    public Optional<PartitionDrop> dropPartition(
            TablePath path,
            PartitionSpec partition,
            boolean ignoreIfNotExists,
            boolean dropLakePartition) {
        DropPartitionResponse r =
                coordinator.call(
                        c ->
                                c.admin()
                                        .dropPartition(
                                                DropPartitionRequest.newBuilder()
                                                        .setPath(ProtoConverters.toPb(path))
                                                        .setPartition(partition.name())
                                                        .setIgnoreIfNotExists(ignoreIfNotExists)
                                                        .setDropLakePartition(dropLakePartition)
                                                        .build()));
        return r.hasPartition()
                ? Optional.of(
                        new PartitionDrop(PartitionInfo.fromPb(r.getPartition()), r.getRemoved()))
                : Optional.empty();
    }

    @Override
    public List<PartitionInfo> listPartitions(TablePath path) {
        return coordinator
                .call(
                        c ->
                                c.admin()
                                        .listPartitions(
                                                ListPartitionsRequest.newBuilder()
                                                        .setPath(ProtoConverters.toPb(path))
                                                        .build()))
                .getPartitionsList()
                .stream()
                .map(PartitionInfo::fromPb)
                .toList();
    }

    @Override
    public TableInfo alterTable(TablePath path, TableAlteration alteration) {
        AlterTableRequest.Builder req =
                AlterTableRequest.newBuilder()
                        .setPath(ProtoConverters.toPb(path))
                        .putAllSetProperties(alteration.setProperties())
                        .addAllResetProperties(alteration.resetProperties());
        for (Column c : alteration.addedColumns()) {
            req.addAddColumns(ProtoConverters.toPb(c));
        }
        TableInfo info = TableInfo.fromPb(coordinator.call(c -> c.admin().alterTable(req.build())));
        cache.put(info);
        return info;
    }

    @Override
    public void dropTable(TablePath path, boolean ignoreIfNotExists, boolean dropLakeTable) {
        coordinator.call(
                c ->
                        c.admin()
                                .dropTable(
                                        DropTableRequest.newBuilder()
                                                .setPath(ProtoConverters.toPb(path))
                                                .setIgnoreIfNotExists(ignoreIfNotExists)
                                                .setDropLakeTable(dropLakeTable)
                                                .build()));
        cache.invalidate(path);
    }

    @Override
    public List<String> listTables(String database) {
        return coordinator
                .call(
                        c ->
                                c.admin()
                                        .listTables(
                                                ListTablesRequest.newBuilder()
                                                        .setDatabase(database)
                                                        .build()))
                .getTablesList();
    }

    @Override
    public TableInfo describeTable(TablePath path) {
        TableInfo info =
                TableInfo.fromPb(
                        coordinator.call(
                                c ->
                                        c.admin()
                                                .describeTable(
                                                        DescribeTableRequest.newBuilder()
                                                                .setPath(ProtoConverters.toPb(path))
                                                                .build())));
        cache.put(info);
        return info;
    }

    @Override
    public List<BucketReplicaInfo> describeBuckets(TablePath path, String partition) {
        long tableId = describeTable(path).tableId();
        GetBucketLeadersRequest.Builder req =
                GetBucketLeadersRequest.newBuilder().setTableId(tableId).setWithReplicas(true);
        if (partition != null) {
            req.setPartition(partition);
        }
        // the coordinator's channel: its metadata is the one every server applies
        return coordinator
                .call(c -> c.read().getBucketLeaders(req.build()))
                .getLeadersList()
                .stream()
                .map(BucketReplicaInfo::fromPb)
                .toList();
    }

    @Override
    public TieringOverview tieringStatus(boolean withPartitions) {
        TieringStatusResponse r =
                coordinator.call(
                        c ->
                                c.admin()
                                        .getTieringStatus(
                                                TieringStatusRequest.newBuilder()
                                                        .setPartitions(withPartitions)
                                                        .build()));
        return new TieringOverview(
                r.getTablesList().stream().map(TableTieringStatus::fromPb).toList(),
                r.getQueueLength(),
                r.getLiveJobs(),
                r.hasLake()
                        ? new TieringOverview.LakeLocation(
                                r.getLake().getFormat(),
                                r.getLake().getCatalog(),
                                r.getLake().getWarehouse())
                        : null);
    }

    @Override
    public TableTieringStatus tieringStatus(TablePath path, boolean withPartitions) {
        TieringStatusResponse r =
                coordinator.call(
                        c ->
                                c.admin()
                                        .getTieringStatus(
                                                TieringStatusRequest.newBuilder()
                                                        .setPath(ProtoConverters.toPb(path))
                                                        .setPartitions(withPartitions)
                                                        .build()));
        if (r.getTablesCount() == 0) {
            throw new NotFoundException(
                    "table " + path + " has no tiering status: is table.datalake.enabled set?");
        }
        return TableTieringStatus.fromPb(r.getTables(0));
    }

    @Override
    public LakeInfo describeLake() {
        DescribeLakeResponse r =
                coordinator.call(
                        c -> c.admin().describeLake(DescribeLakeRequest.getDefaultInstance()));
        return new LakeInfo(r.getFormat(), r.getPropertiesMap(), r.getAvailable());
    }

    @Override
    public void removeServer(int serverId) {
        coordinator.call(
                c ->
                        c.admin()
                                .removeServer(
                                        RemoveServerRequest.newBuilder()
                                                .setServerId(serverId)
                                                .build()));
    }

    @Override
    public List<ReplicaMove> moveReplicas(
            Set<Integer> drain, Set<Integer> undrain, boolean dryRun) {
        return moveReplicas(
                MoveReplicasRequest.newBuilder()
                        .addAllDrain(drain)
                        .addAllUndrain(undrain)
                        .setDryRun(dryRun)
                        .build());
    }

    @Override
    public List<ReplicaMove> cancelReplicaMoves(boolean dryRun) {
        return moveReplicas(
                MoveReplicasRequest.newBuilder().setCancel(true).setDryRun(dryRun).build());
    }

    private List<ReplicaMove> moveReplicas(MoveReplicasRequest request) {
        MoveReplicasResponse r = coordinator.call(c -> c.admin().moveReplicas(request));
        return r.getMovesList().stream()
                .map(
                        m ->
                                new ReplicaMove(
                                        ProtoConverters.fromPb(m.getTable()),
                                        m.getPartition().isEmpty()
                                                ? Optional.empty()
                                                : Optional.of(m.getPartition()),
                                        m.getBucket(),
                                        m.getFromList(),
                                        m.getToList()))
                .toList();
    }

    @Override
    public ClusterInfo describeCluster() {
        DescribeClusterResponse r =
                coordinator.call(
                        c ->
                                c.admin()
                                        .describeCluster(
                                                DescribeClusterRequest.getDefaultInstance()));
        java.util.List<ClusterInfo.Server> servers = new java.util.ArrayList<>();
        for (ClusterServerPb s : r.getServersList()) {
            servers.add(
                    new ClusterInfo.Server(
                            s.getServerId(),
                            s.getRpcAddress(),
                            s.getHttpAddress(),
                            s.getRegisteredAtMillis(),
                            s.getCoordinator(),
                            s.getObserver(),
                            s.getDraining(),
                            switch (s.getLiveness()) {
                                case LIVENESS_ALIVE -> ClusterInfo.Liveness.ALIVE;
                                case LIVENESS_EXPIRED -> ClusterInfo.Liveness.EXPIRED;
                                default -> ClusterInfo.Liveness.UNKNOWN;
                            },
                            s.hasMillisSinceHeartbeat()
                                    ? java.util.OptionalLong.of(s.getMillisSinceHeartbeat())
                                    : java.util.OptionalLong.empty(),
                            s.getBuckets(),
                            s.getReportedBuckets()));
        }
        return new ClusterInfo(
                r.getClusterId(),
                r.hasCoordinatorId()
                        ? java.util.OptionalInt.of(r.getCoordinatorId())
                        : java.util.OptionalInt.empty(),
                servers,
                r.hasRaftTerm()
                        ? java.util.OptionalLong.of(r.getRaftTerm())
                        : java.util.OptionalLong.empty(),
                r.hasRaftLeaderId()
                        ? java.util.OptionalInt.of(r.getRaftLeaderId())
                        : java.util.OptionalInt.empty(),
                r.hasReplication()
                        ? Optional.of(
                                new ClusterInfo.Replication(
                                        r.getReplication().getBuckets(),
                                        r.getReplication().getUnderReplicated(),
                                        r.getReplication().getLeaderless(),
                                        r.getReplication().getMoving(),
                                        r.getReplication().getNotPreferredLeader()))
                        : Optional.empty());
    }
}

package dev.tributary.server.rpc;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.cluster.ReplicaMoves;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.AdminServiceGrpc;
import dev.tributary.rpc.proto.AlterTableRequest;
import dev.tributary.rpc.proto.ColumnPb;
import dev.tributary.rpc.proto.CreateDatabaseRequest;
import dev.tributary.rpc.proto.CreateDatabaseResponse;
import dev.tributary.rpc.proto.CreatePartitionRequest;
import dev.tributary.rpc.proto.CreateTableRequest;
import dev.tributary.rpc.proto.DescribeClusterRequest;
import dev.tributary.rpc.proto.DescribeClusterResponse;
import dev.tributary.rpc.proto.DescribeLakeRequest;
import dev.tributary.rpc.proto.DescribeLakeResponse;
import dev.tributary.rpc.proto.DescribeTableRequest;
import dev.tributary.rpc.proto.DropDatabaseRequest;
import dev.tributary.rpc.proto.DropDatabaseResponse;
import dev.tributary.rpc.proto.DropPartitionRequest;
import dev.tributary.rpc.proto.DropPartitionResponse;
import dev.tributary.rpc.proto.DropTableRequest;
import dev.tributary.rpc.proto.DropTableResponse;
import dev.tributary.rpc.proto.LakeLocationPb;
import dev.tributary.rpc.proto.ListDatabasesRequest;
import dev.tributary.rpc.proto.ListDatabasesResponse;
import dev.tributary.rpc.proto.ListPartitionsRequest;
import dev.tributary.rpc.proto.ListPartitionsResponse;
import dev.tributary.rpc.proto.ListTablesRequest;
import dev.tributary.rpc.proto.ListTablesResponse;
import dev.tributary.rpc.proto.MoveReplicasRequest;
import dev.tributary.rpc.proto.MoveReplicasResponse;
import dev.tributary.rpc.proto.PartitionInfoPb;
import dev.tributary.rpc.proto.RemoveServerRequest;
import dev.tributary.rpc.proto.RemoveServerResponse;
import dev.tributary.rpc.proto.ReplicaMovePb;
import dev.tributary.rpc.proto.TableInfoPb;
import dev.tributary.rpc.proto.TieringStatusRequest;
import dev.tributary.rpc.proto.TieringStatusResponse;
import dev.tributary.server.cluster.ClusterMembership;
import dev.tributary.server.cluster.CoordinatorRole;
import dev.tributary.server.partition.PartitionService;
import dev.tributary.server.status.TableStatusView;
import dev.tributary.server.status.TieringStatusService;
import dev.tributary.server.store.TableService;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** DDL and the tiering status, over {@link TableService} and the coordinator. */
public final class AdminServiceImpl extends AdminServiceGrpc.AdminServiceImplBase {
    private final CoordinatorRole coordinator;
    private final TableService tables;
    private final TieringStatusService status;
    private final PartitionService partitions;
    private final DescribeLakeResponse lake;
    private final ClusterMembership cluster;

    /**
     * @param lake what {@code DescribeLake} answers: the server's lake format and its settings
     * @param cluster what {@code DescribeCluster} describes
     */
    public AdminServiceImpl(
            CoordinatorRole coordinator,
            TableService tables,
            TieringStatusService status,
            PartitionService partitions,
            DescribeLakeResponse lake,
            ClusterMembership cluster) {
        this.coordinator = coordinator;
        this.tables = tables;
        this.status = status;
        this.lake = lake;
        this.partitions = partitions;
        this.cluster = cluster;
    }

    @Override
    public void describeCluster(
            DescribeClusterRequest req, StreamObserver<DescribeClusterResponse> out) {
        Calls.unary(
                out,
                () -> {
                    // liveness and bucket counts are the coordinator's: a client is sent there
                    // when one is known; during an election any server tells what it knows
                    if (coordinator.running().isEmpty()) {
                        if (cluster.notCoordinator() instanceof NotCoordinatorException elsewhere
                                && elsewhere.leaderAddress().isPresent()) {
                            throw elsewhere;
                        }
                    }
                    return ServerConverters.toPb(cluster.describe());
                });
    }

    @Override
    public void moveReplicas(MoveReplicasRequest req, StreamObserver<MoveReplicasResponse> out) {
        Calls.unary(
                out,
                () -> {
                    if (req.getCancel() && (req.getDrainCount() > 0 || req.getUndrainCount() > 0)) {
                        throw new InvalidInputException(
                                "cancelling the moves under way drains and undrains no server:"
                                        + " cancel first, then rebalance with --drain or"
                                        + " --undrain");
                    }
                    Coordinator c = coordinator.current();
                    List<ReplicaMoves.Move> moves =
                            TableService.join(
                                    req.getCancel()
                                            ? c.cancelReplicaMoves(req.getDryRun())
                                            : c.moveReplicas(
                                                    Set.copyOf(req.getDrainList()),
                                                    Set.copyOf(req.getUndrainList()),
                                                    req.getDryRun()));
                    MoveReplicasResponse.Builder b = MoveReplicasResponse.newBuilder();
                    // each table's partition names, listed once however many of its buckets move
                    Map<Long, Map<Long, String>> names = new HashMap<>();
                    for (ReplicaMoves.Move m : moves) {
                        TableInfo t = tables.table(m.bucket().tableId());
                        long id = m.bucket().partitionId();
                        String partition =
                                id == TableBucket.NO_PARTITION
                                        ? ""
                                        : names.computeIfAbsent(t.tableId(), k -> partitionNames(t))
                                                .getOrDefault(id, "id " + id);
                        b.addMoves(
                                ReplicaMovePb.newBuilder()
                                        .setTable(ProtoConverters.toPb(t.path()))
                                        .setPartition(partition)
                                        .setBucket(m.bucket().bucket())
                                        .addAllFrom(m.from())
                                        .addAllTo(m.to()));
                    }
                    return b.build();
                });
    }

    @Override
    public void removeServer(RemoveServerRequest req, StreamObserver<RemoveServerResponse> out) {
        Calls.unary(
                out,
                () -> {
                    int id = req.getServerId();
                    Coordinator c = coordinator.current();
                    cluster.checkNotVoter(id);
                    // checked before the quorum changes, removed after: a failure in between
                    // leaves the registration, and the command can be run again
                    TableService.join(c.removeServer(id, true));
                    cluster.leaveQuorum(id);
                    TableService.join(c.removeServer(id, false));
                    return RemoveServerResponse.getDefaultInstance();
                });
    }

    /** A partitioned table's partition names by id. */
    private Map<Long, String> partitionNames(TableInfo table) {
        return partitions.list(table.path()).stream()
                .collect(Collectors.toMap(PartitionInfo::partitionId, PartitionInfo::name));
    }

    @Override
    public void describeLake(DescribeLakeRequest req, StreamObserver<DescribeLakeResponse> out) {
        Calls.unary(out, () -> lake);
    }

    @Override
    public void createPartition(CreatePartitionRequest req, StreamObserver<PartitionInfoPb> out) {
        Calls.unary(
                out,
                () ->
                        ServerConverters.toPb(
                                partitions.create(
                                        ProtoConverters.fromPb(req.getPath()),
                                        PartitionSpec.parse(req.getPartition()),
                                        req.getIgnoreIfExists())));
    }

    @Override
    public void dropPartition(DropPartitionRequest req, StreamObserver<DropPartitionResponse> out) {
        Calls.unary(
                out,
                () -> {
                    DropPartitionResponse.Builder b = DropPartitionResponse.newBuilder();
                    partitions
                            .drop(
                                    ProtoConverters.fromPb(req.getPath()),
                                    PartitionSpec.parse(req.getPartition()),
                                    req.getIgnoreIfNotExists(),
                                    req.getDropLakePartition())
                            .ifPresent(
                                    d ->
                                            b.setPartition(ServerConverters.toPb(d.partition()))
                                                    .setRemoved(d.removed()));
                    return b.build();
                });
    }

    @Override
    public void listPartitions(
            ListPartitionsRequest req, StreamObserver<ListPartitionsResponse> out) {
        Calls.unary(
                out,
                () -> {
                    TablePath path = ProtoConverters.fromPb(req.getPath());
                    TableInfo table = TableService.join(coordinator.current().describeTable(path));
                    ListPartitionsResponse.Builder b =
                            ListPartitionsResponse.newBuilder().setTableId(table.tableId());
                    if (table.descriptor().isPartitioned()) {
                        partitions
                                .list(path)
                                .forEach(p -> b.addPartitions(ServerConverters.toPb(p)));
                    }
                    return b.build();
                });
    }

    @Override
    public void createDatabase(
            CreateDatabaseRequest req, StreamObserver<CreateDatabaseResponse> out) {
        Calls.unary(
                out,
                () -> {
                    TableService.join(
                            coordinator
                                    .current()
                                    .createDatabase(req.getName(), null, req.getIgnoreIfExists()));
                    return CreateDatabaseResponse.getDefaultInstance();
                });
    }

    @Override
    public void dropDatabase(DropDatabaseRequest req, StreamObserver<DropDatabaseResponse> out) {
        Calls.unary(
                out,
                () -> {
                    tables.dropDatabase(
                            req.getName(), req.getIgnoreIfNotExists(), req.getCascade());
                    return DropDatabaseResponse.getDefaultInstance();
                });
    }

    @Override
    public void listDatabases(ListDatabasesRequest req, StreamObserver<ListDatabasesResponse> out) {
        Calls.unary(
                out,
                () ->
                        ListDatabasesResponse.newBuilder()
                                .addAllNames(
                                        TableService.join(coordinator.current().listDatabases())
                                                .stream()
                                                .map(DatabaseInfo::name)
                                                .sorted()
                                                .toList())
                                .build());
    }

    @Override
    public void createTable(CreateTableRequest req, StreamObserver<TableInfoPb> out) {
        Calls.unary(
                out,
                () -> {
                    TablePath path = ProtoConverters.fromPb(req.getPath());
                    TableDescriptor d = ProtoConverters.fromPb(req.getTableDescriptor());
                    return ServerConverters.toPb(
                            tables.createTable(path, d, req.getIgnoreIfExists()));
                });
    }

    @Override
    public void alterTable(AlterTableRequest req, StreamObserver<TableInfoPb> out) {
        Calls.unary(
                out,
                () -> {
                    List<TableChange> changes = new ArrayList<>();
                    req.getSetPropertiesMap().forEach((k, v) -> changes.add(TableChange.set(k, v)));
                    req.getResetPropertiesList().forEach(k -> changes.add(TableChange.reset(k)));
                    for (ColumnPb c : req.getAddColumnsList()) {
                        changes.add(TableChange.addColumn(ProtoConverters.fromPb(c)));
                    }
                    return ServerConverters.toPb(
                            tables.alterTable(ProtoConverters.fromPb(req.getPath()), changes));
                });
    }

    @Override
    public void dropTable(DropTableRequest req, StreamObserver<DropTableResponse> out) {
        Calls.unary(
                out,
                () -> {
                    tables.dropTable(
                            ProtoConverters.fromPb(req.getPath()),
                            req.getIgnoreIfNotExists(),
                            req.getDropLakeTable());
                    return DropTableResponse.getDefaultInstance();
                });
    }

    @Override
    public void listTables(ListTablesRequest req, StreamObserver<ListTablesResponse> out) {
        Calls.unary(
                out,
                () ->
                        ListTablesResponse.newBuilder()
                                .addAllTables(
                                        TableService.join(
                                                        coordinator
                                                                .current()
                                                                .listTables(req.getDatabase()))
                                                .stream()
                                                .map(TablePath::table)
                                                .sorted()
                                                .toList())
                                .build());
    }

    @Override
    public void describeTable(DescribeTableRequest req, StreamObserver<TableInfoPb> out) {
        Calls.unary(
                out,
                () ->
                        ServerConverters.toPb(
                                TableService.join(
                                        coordinator
                                                .current()
                                                .describeTable(
                                                        ProtoConverters.fromPb(req.getPath())))));
    }

    @Override
    public void getTieringStatus(
            TieringStatusRequest req, StreamObserver<TieringStatusResponse> out) {
        Calls.unary(
                out,
                () -> {
                    Long only = null;
                    if (req.hasPath()) {
                        only =
                                TableService.join(
                                                coordinator
                                                        .current()
                                                        .describeTable(
                                                                ProtoConverters.fromPb(
                                                                        req.getPath())))
                                        .tableId();
                    }
                    TieringStatusService.Overview o = status.overview();
                    TieringStatusResponse.Builder b =
                            TieringStatusResponse.newBuilder()
                                    .setQueueLength(o.pendingCount())
                                    .setLiveJobs(o.liveJobs())
                                    .setLake(
                                            LakeLocationPb.newBuilder()
                                                    .setFormat(status.lake().format())
                                                    .setCatalog(status.lake().catalog())
                                                    .setWarehouse(status.lake().warehouse()));
                    for (TableStatusView v : o.tables()) {
                        if (only == null || only == v.tableId()) {
                            TableInfo t = tables.table(v.tableId());
                            b.addTables(ServerConverters.toPb(v, t, req.getPartitions()));
                        }
                    }
                    return b.build();
                });
    }
}

package dev.tributary.server.rpc;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.cluster.BucketReport;
import dev.tributary.coordinator.cluster.HeartbeatAnswer;
import dev.tributary.coordinator.cluster.HeartbeatOutcome;
import dev.tributary.coordinator.cluster.ServerLiveness;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.rpc.proto.AlterInSyncReplicasRequest;
import dev.tributary.rpc.proto.AlterInSyncReplicasResponse;
import dev.tributary.rpc.proto.ClusterServiceGrpc;
import dev.tributary.rpc.proto.ServerHeartbeatRequest;
import dev.tributary.rpc.proto.ServerHeartbeatResponse;
import dev.tributary.rpc.proto.ServerStoppingRequest;
import dev.tributary.rpc.proto.ServerStoppingResponse;
import dev.tributary.server.cluster.BucketReportCodec;
import dev.tributary.server.cluster.ClusterMembership;
import dev.tributary.server.cluster.CoordinatorRole;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Server heartbeats to the coordinator and the bucket states they report (T49), answered on the
 * coordinator's event loop. A heartbeat carrying the sender's addresses is also its registration:
 * an unknown server is registered before its heartbeat is weighed, and a known one whose addresses
 * changed (a restart on other ports) only once the heartbeat was accepted, so a replaced instance
 * still beating cannot put its old addresses back.
 */
public final class ClusterServiceImpl extends ClusterServiceGrpc.ClusterServiceImplBase {
    /** More servers than any bucket's replicas (the replication factor is at most 7). */
    private static final int MAX_REPLICAS = 64;

    private final CoordinatorRole coordinator;
    private final ClusterMembership membership;

    public ClusterServiceImpl(CoordinatorRole coordinator, ClusterMembership membership) {
        this.coordinator = coordinator;
        this.membership = membership;
    }

    @Override
    public void serverHeartbeat(
            ServerHeartbeatRequest req, StreamObserver<ServerHeartbeatResponse> out) {
        Calls.async(
                out,
                () -> {
                    // on a server that does not coordinate: NOT_COORDINATOR before anything
                    Coordinator c = coordinator.current();
                    int serverId = req.getServerId();
                    String instanceId = checkedInstanceId(req.getInstanceId());
                    BucketReport report = BucketReportCodec.read(req);
                    ServerRegistration reported = reportedRegistration(req);
                    if (reported != null && !membership.isRegistered(serverId)) {
                        membership.registerPeer(reported);
                    }
                    return c.serverHeartbeat(serverId, instanceId, report)
                            .thenCompose(
                                    a -> {
                                        if (reported == null
                                                || a.outcome() != HeartbeatOutcome.ACCEPTED) {
                                            return CompletableFuture.completedFuture(a);
                                        }
                                        // T53: a server back without its data leaves every
                                        // in-sync set before its new storage is registered (it
                                        // refuses to lead until then)
                                        CompletableFuture<Integer> handled =
                                                membership.lostData(serverId, reported.storageId())
                                                        ? c.serverLostData(serverId)
                                                        : CompletableFuture.completedFuture(0);
                                        return handled.thenApply(
                                                moved -> {
                                                    membership.registerPeer(reported);
                                                    return a;
                                                });
                                    })
                            .thenApply(a -> answer(c, a, serverId, instanceId));
                });
    }

    @Override
    public void alterInSyncReplicas(
            AlterInSyncReplicasRequest req, StreamObserver<AlterInSyncReplicasResponse> out) {
        Calls.async(
                out,
                () -> {
                    Coordinator c = coordinator.current();
                    if (req.getIsrCount() == 0 || req.getIsrCount() > MAX_REPLICAS) {
                        throw new InvalidInputException(
                                "an in-sync set has 1 to "
                                        + MAX_REPLICAS
                                        + " servers, not "
                                        + req.getIsrCount());
                    }
                    TableBucket bucket =
                            new TableBucket(
                                    req.getTableId(), req.getPartitionId(), req.getBucket());
                    return c.alterInSyncReplicas(
                                    req.getServerId(),
                                    bucket,
                                    req.getLeaderEpoch(),
                                    List.copyOf(req.getIsrList()))
                            .thenApply(
                                    r ->
                                            AlterInSyncReplicasResponse.newBuilder()
                                                    .setLeader(r.leader())
                                                    .setLeaderEpoch(r.leaderEpoch())
                                                    .addAllIsr(r.isr())
                                                    .build());
                });
    }

    @Override
    public void serverStopping(
            ServerStoppingRequest req, StreamObserver<ServerStoppingResponse> out) {
        Calls.async(
                out,
                () -> {
                    Coordinator c = coordinator.current();
                    int serverId = req.getServerId();
                    String instanceId = checkedInstanceId(req.getInstanceId());
                    return c.serverStopping(serverId, instanceId)
                            .thenApply(
                                    a -> {
                                        refuseUnless(a.outcome(), serverId, instanceId);
                                        return ServerStoppingResponse.newBuilder()
                                                .setLeadersMoved(a.leadersMoved())
                                                .build();
                                    });
                });
    }

    private static ServerHeartbeatResponse answer(
            Coordinator c, HeartbeatAnswer a, int serverId, String instance) {
        refuseUnless(a.outcome(), serverId, instance);
        return ServerHeartbeatResponse.newBuilder()
                .setCoordinatorIncarnation(c.incarnation())
                .setSendFullReport(a.sendFullReport())
                .build();
    }

    /** Throws the typed refusal for an outcome other than {@code ACCEPTED}. */
    private static void refuseUnless(HeartbeatOutcome outcome, int serverId, String instance) {
        switch (outcome) {
            case ACCEPTED -> {}
            case FENCED ->
                    throw new FencedException(
                            "instance "
                                    + instance
                                    + " of server "
                                    + serverId
                                    + " was replaced by a newer instance (a restart) or stopped;"
                                    + " this process must stop acting as server "
                                    + serverId);
            case UNKNOWN_SERVER ->
                    throw new InvalidInputException(
                            "server "
                                    + serverId
                                    + " is not registered; a server registers before it"
                                    + " heartbeats");
        }
    }

    /** The registration the heartbeat describes; null when it carries no addresses. */
    private ServerRegistration reportedRegistration(ServerHeartbeatRequest req) {
        if (req.getRpcAddress().isEmpty()) {
            return null;
        }
        // the record's checks bound and validate both addresses (InvalidInputException)
        return new ServerRegistration(
                req.getServerId(),
                req.getRpcAddress(),
                req.getHttpAddress(),
                0L,
                req.getStorageId());
    }

    private static String checkedInstanceId(String id) {
        if (id.isEmpty() || id.length() > ServerLiveness.MAX_INSTANCE_ID_LENGTH) {
            throw new InvalidInputException(
                    "a server instance id has 1 to "
                            + ServerLiveness.MAX_INSTANCE_ID_LENGTH
                            + " characters, got "
                            + id.length());
        }
        return id;
    }
}

package dev.tributary.server.rpc;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.cluster.BucketReport;
import dev.tributary.coordinator.cluster.HeartbeatAnswer;
import dev.tributary.coordinator.cluster.HeartbeatOutcome;
import dev.tributary.coordinator.cluster.ServerLiveness;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.rpc.proto.ClusterServiceGrpc;
import dev.tributary.rpc.proto.ServerHeartbeatRequest;
import dev.tributary.rpc.proto.ServerHeartbeatResponse;
import dev.tributary.server.cluster.BucketReportCodec;
import dev.tributary.server.cluster.ClusterMembership;
import dev.tributary.server.cluster.CoordinatorRole;
import io.grpc.stub.StreamObserver;

/**
 * Server heartbeats to the coordinator and the bucket states they report (T49), answered on the
 * coordinator's event loop. A heartbeat carrying the sender's addresses is also its registration:
 * an unknown server is registered before its heartbeat is weighed, and a known one whose addresses
 * changed (a restart on other ports) only once the heartbeat was accepted, so a replaced instance
 * still beating cannot put its old addresses back.
 */
public final class ClusterServiceImpl extends ClusterServiceGrpc.ClusterServiceImplBase {
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
                            .thenApply(
                                    a -> {
                                        if (reported != null
                                                && a.outcome() == HeartbeatOutcome.ACCEPTED) {
                                            membership.registerPeer(reported);
                                        }
                                        return answer(c, a, serverId, instanceId);
                                    });
                });
    }

    private static ServerHeartbeatResponse answer(
            Coordinator c, HeartbeatAnswer a, int serverId, String instance) {
        return switch (a.outcome()) {
            case ACCEPTED ->
                    ServerHeartbeatResponse.newBuilder()
                            .setCoordinatorIncarnation(c.incarnation())
                            .setSendFullReport(a.sendFullReport())
                            .build();
            case FENCED ->
                    throw new FencedException(
                            "instance "
                                    + instance
                                    + " of server "
                                    + serverId
                                    + " was replaced by a newer instance (a restart); this process must"
                                    + " stop acting as server "
                                    + serverId);
            case UNKNOWN_SERVER ->
                    throw new InvalidInputException(
                            "server "
                                    + serverId
                                    + " is not registered; a server registers before it"
                                    + " heartbeats");
        };
    }

    /** The registration the heartbeat describes; null when it carries no addresses. */
    private ServerRegistration reportedRegistration(ServerHeartbeatRequest req) {
        if (req.getRpcAddress().isEmpty()) {
            return null;
        }
        // the record's checks bound and validate both addresses (InvalidInputException)
        return new ServerRegistration(
                req.getServerId(), req.getRpcAddress(), req.getHttpAddress(), 0L);
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

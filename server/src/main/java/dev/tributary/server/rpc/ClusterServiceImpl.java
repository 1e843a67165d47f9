package dev.tributary.server.rpc;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.cluster.BucketReport;
import dev.tributary.coordinator.cluster.HeartbeatAnswer;
import dev.tributary.coordinator.cluster.ServerLiveness;
import dev.tributary.rpc.proto.ClusterServiceGrpc;
import dev.tributary.rpc.proto.ServerHeartbeatRequest;
import dev.tributary.rpc.proto.ServerHeartbeatResponse;
import dev.tributary.server.cluster.BucketReportCodec;
import io.grpc.stub.StreamObserver;

/**
 * Server heartbeats to the coordinator and the bucket states they report (T49), answered on the
 * coordinator's event loop.
 */
public final class ClusterServiceImpl extends ClusterServiceGrpc.ClusterServiceImplBase {
    private final Coordinator coordinator;

    public ClusterServiceImpl(Coordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public void serverHeartbeat(
            ServerHeartbeatRequest req, StreamObserver<ServerHeartbeatResponse> out) {
        Calls.async(
                out,
                () -> {
                    int serverId = req.getServerId();
                    String instanceId = checkedInstanceId(req.getInstanceId());
                    BucketReport report = BucketReportCodec.read(req);
                    return coordinator
                            .serverHeartbeat(serverId, instanceId, report)
                            .thenApply(a -> answer(a, serverId, instanceId));
                });
    }

    private ServerHeartbeatResponse answer(HeartbeatAnswer a, int serverId, String instance) {
        return switch (a.outcome()) {
            case ACCEPTED ->
                    ServerHeartbeatResponse.newBuilder()
                            .setCoordinatorIncarnation(coordinator.incarnation())
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

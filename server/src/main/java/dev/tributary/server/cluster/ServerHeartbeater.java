package dev.tributary.server.cluster;

import dev.tributary.common.concurrent.DaemonThreads;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.coordinator.cluster.BucketReport;
import dev.tributary.coordinator.cluster.ReportedBucket;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.ClusterServiceGrpc;
import dev.tributary.rpc.proto.ServerHeartbeatRequest;
import dev.tributary.rpc.proto.ServerHeartbeatResponse;
import dev.tributary.rpc.proto.ServerStoppingRequest;
import dev.tributary.rpc.proto.ServerStoppingResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Heartbeats the coordinator for this server every {@code cluster.server.heartbeat-interval} (T49),
 * over the real gRPC {@code ClusterService}: a lone server or the server that coordinates
 * heartbeats itself over loopback, the same path as a cluster's other servers. Each heartbeat
 * carries the server's addresses (the coordinator registers a server it does not know from them)
 * and reports the server's bucket end offsets and newest KV snapshots: in full to a new coordinator
 * incarnation, then only what changed ({@link HeartbeatReports}).
 *
 * <p>The coordinator's address is asked at every beat, so the heartbeats follow a failover; while
 * no coordinator is known, or the one asked answers that it no longer coordinates, the beat is
 * skipped. A failover is followed at once rather than at the next interval: the address is also
 * checked every {@value #FOLLOW_MILLIS} ms, and a beat goes out as soon as it names another server
 * or, after an answer that the server asked is not (or not yet) coordinating, every {@value
 * #FOLLOW_MILLIS} ms until one is accepted. A new coordinator plans a bucket of another server only
 * once that server reported it, so this is what its first round after a failover waits for. An
 * unreachable coordinator is logged once per outage and when it answers again, and retried at the
 * next interval. A {@link FencedException} that is not a {@link NotCoordinatorException} means a
 * newer instance of this server replaced this one: it is logged and heartbeating stops.
 */
public final class ServerHeartbeater implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServerHeartbeater.class);

    /** How often the coordinator's address is checked between beats. */
    static final long FOLLOW_MILLIS = 100;

    private final int serverId;
    private final String instanceId;
    private final String storageId;
    private final String rpcAddress;
    private final String httpAddress;
    private final CoordinatorChannel coordinator;
    private final String token;
    private final long intervalMillis;
    private final ScheduledExecutorService timer;
    private final Supplier<? extends Collection<ReportedBucket>> buckets;
    // only touched on the timer thread
    private final HeartbeatReports reports = new HeartbeatReports();
    private int failuresInARow;
    // the last beat was answered "not the coordinator": a failover is under way
    private boolean followSoon;
    private volatile boolean fenced;

    /**
     * @param serverId this server's id
     * @param instanceId this process's random instance id
     * @param storageId the random id of this server's data directory (T53)
     * @param rpcAddress this server's registered gRPC address, {@code host:port}
     * @param httpAddress this server's HTTP address, or empty without one
     * @param coordinatorTarget {@code host:port} of the coordinator's gRPC endpoint, asked at every
     *     beat; empty while no coordinator is known
     * @param token the cluster's bearer token, or empty
     * @param interval the heartbeat interval (also each call's deadline)
     * @param buckets the state of every bucket this server holds, read from memory at each beat
     */
    public ServerHeartbeater(
            int serverId,
            String instanceId,
            String storageId,
            String rpcAddress,
            String httpAddress,
            Supplier<Optional<String>> coordinatorTarget,
            String token,
            Duration interval,
            Supplier<? extends Collection<ReportedBucket>> buckets) {
        this.serverId = serverId;
        this.buckets = buckets;
        this.instanceId = instanceId;
        this.storageId = storageId;
        this.rpcAddress = rpcAddress;
        this.httpAddress = httpAddress;
        this.coordinator = new CoordinatorChannel(coordinatorTarget, token);
        this.token = token;
        this.intervalMillis = interval.toMillis();
        ScheduledThreadPoolExecutor t =
                new ScheduledThreadPoolExecutor(1, DaemonThreads.named("tributary-heartbeat"));
        t.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.timer = t;
    }

    /** Heartbeats now, then every interval until {@link #close()} or a fence. */
    public void start() {
        timer.scheduleWithFixedDelay(this::beat, 0, intervalMillis, TimeUnit.MILLISECONDS);
        long follow = Math.min(FOLLOW_MILLIS, intervalMillis);
        timer.scheduleWithFixedDelay(this::follow, follow, follow, TimeUnit.MILLISECONDS);
    }

    /** Beats now when the coordinator moved or a failover is under way; else waits for the beat. */
    private void follow() {
        if (followSoon || coordinator.moved()) {
            beat();
        }
    }

    private void beat() {
        if (fenced) {
            return;
        }
        try {
            Optional<ClusterServiceGrpc.ClusterServiceBlockingStub> stub = coordinator.stub();
            if (stub.isEmpty()) {
                return;
            }
            // parts of a large report go one after the other; the first failure ends the beat and
            // what was not accepted is sent again at the next one
            for (BucketReport part : reports.next(buckets.get())) {
                ServerHeartbeatRequest.Builder req =
                        ServerHeartbeatRequest.newBuilder()
                                .setServerId(serverId)
                                .setInstanceId(instanceId)
                                .setStorageId(storageId)
                                .setRpcAddress(rpcAddress)
                                .setHttpAddress(httpAddress);
                ServerHeartbeatResponse answer =
                        stub.get()
                                .withDeadlineAfter(intervalMillis, TimeUnit.MILLISECONDS)
                                .serverHeartbeat(BucketReportCodec.write(part, req).build());
                reports.accepted(
                        part, answer.getCoordinatorIncarnation(), answer.getSendFullReport());
            }
            if (failuresInARow > 0) {
                LOG.info(
                        "the coordinator at {} accepts this server's heartbeats again after {}"
                                + " failed",
                        coordinator.target(),
                        failuresInARow);
            }
            failuresInARow = 0;
            followSoon = false;
        } catch (RuntimeException e) {
            TributaryException typed = GrpcErrors.fromThrowable(e);
            // the server asked answered that it does not coordinate (yet): a failover under way
            followSoon =
                    typed instanceof NotCoordinatorException
                            || (typed instanceof RetriableException
                                    && GrpcErrors.answeredByServer(e));
            if (typed instanceof NotCoordinatorException) {
                // the next beat asks where the coordinator is now
                LOG.debug("{} no longer coordinates: {}", coordinator.target(), typed.getMessage());
                return;
            }
            if (typed instanceof FencedException) {
                fenced = true;
                LOG.error(
                        "the coordinator fenced server {} instance {}; heartbeats stop: {}",
                        serverId,
                        instanceId,
                        typed.getMessage());
                timer.shutdown();
                return;
            }
            failuresInARow++;
            if (failuresInARow == 1) {
                LOG.warn(
                        "heartbeat of server {} to the coordinator at {} failed, retrying: {}",
                        serverId,
                        coordinator.target(),
                        typed.getMessage());
            } else {
                LOG.debug("heartbeat failed again ({} in a row): {}", failuresInARow, typed);
            }
        }
    }

    /**
     * Stops heartbeating and tells the coordinator that this instance is stopping (a controlled
     * shutdown, T51): the replicated buckets this server leads get in-sync followers as leaders and
     * it leaves every in-sync set now, instead of after {@code cluster.server.heartbeat-timeout}.
     * Waits at most {@code timeout} for the answer; a failure is logged, and the coordinator then
     * notices the stop at the heartbeat timeout, as after a crash.
     */
    public void stopAndRetire(Duration timeout) {
        stopBeating();
        if (fenced) {
            return;
        }
        try {
            Optional<ClusterServiceGrpc.ClusterServiceBlockingStub> stub = coordinator.stub();
            if (stub.isEmpty()) {
                LOG.warn(
                        "no coordinator known: the stop of server {} is not handed over", serverId);
                return;
            }
            ServerStoppingResponse answer =
                    stub.get()
                            .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                            .serverStopping(
                                    ServerStoppingRequest.newBuilder()
                                            .setServerId(serverId)
                                            .setInstanceId(instanceId)
                                            .build());
            LOG.info(
                    "server {} stopping: the coordinator moved the leaders of {} buckets",
                    serverId,
                    answer.getLeadersMoved());
        } catch (RuntimeException e) {
            LOG.warn(
                    "server {} stopping: the coordinator at {} was not told ({}); its buckets"
                            + " move after the heartbeat timeout",
                    serverId,
                    coordinator.target(),
                    GrpcErrors.fromThrowable(e).getMessage());
        }
    }

    /** Stops the beats; one under way ends first (the channel is then this thread's). */
    private void stopBeating() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stopBeating();
        coordinator.close();
    }
}

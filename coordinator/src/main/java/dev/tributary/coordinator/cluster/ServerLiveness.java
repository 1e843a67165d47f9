package dev.tributary.coordinator.cluster;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which registered servers the coordinator counts as alive (T49), KRaft's model: registrations are
 * metadata records, liveness is the coordinator's in-memory business. Servers heartbeat every
 * {@code cluster.server.heartbeat-interval}; one silent for {@code
 * cluster.server.heartbeat-timeout} is expired until it heartbeats again.
 *
 * <p>Each server process picks a random <em>instance id</em> at start. A heartbeat with an instance
 * id not seen before for that server is a restart: the new instance replaces the current one, and
 * later heartbeats of any replaced instance are fenced, so two processes claiming one server id
 * cannot both count as it.
 *
 * <p>Pure logic: no threads, time is a monotonic millisecond count passed in; not thread-safe (the
 * coordinator runs it on its event loop).
 */
public final class ServerLiveness {
    private static final Logger LOG = LoggerFactory.getLogger(ServerLiveness.class);

    /** Replaced instance ids remembered per server; older ones are forgotten (bounded memory). */
    static final int REPLACED_INSTANCES_KEPT = 16;

    /** Longest instance id accepted. */
    public static final int MAX_INSTANCE_ID_LENGTH = 64;

    private final long timeoutMillis;
    private final Map<Integer, Tracked> servers = new TreeMap<>();

    /**
     * @param timeout the heartbeat timeout
     */
    public ServerLiveness(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("heartbeat timeout must be positive: " + timeout);
        }
        this.timeoutMillis = timeout.toMillis();
    }

    /**
     * Tracks the registered servers: each one not tracked yet starts {@link LivenessState#UNKNOWN}
     * with its timeout counted from {@code nowMillis}; servers no longer registered are dropped.
     */
    public void syncRegistered(Collection<Integer> registered, long nowMillis) {
        Set<Integer> ids = Set.copyOf(registered);
        servers.keySet().retainAll(ids);
        for (int id : ids) {
            servers.computeIfAbsent(id, i -> new Tracked(nowMillis));
        }
    }

    /** Whether {@code serverId} is tracked (registered as far as this tracker knows). */
    public boolean tracks(int serverId) {
        return servers.containsKey(serverId);
    }

    /**
     * A heartbeat from {@code instanceId} of server {@code serverId}.
     *
     * @param nowMillis monotonic milliseconds
     */
    public HeartbeatOutcome heartbeat(int serverId, String instanceId, long nowMillis) {
        Objects.requireNonNull(instanceId, "instanceId");
        Tracked s = servers.get(serverId);
        if (s == null) {
            return HeartbeatOutcome.UNKNOWN_SERVER;
        }
        if (s.replaced.contains(instanceId)) {
            return HeartbeatOutcome.FENCED;
        }
        if (s.instanceId != null && !s.instanceId.equals(instanceId)) {
            LOG.info(
                    "server {} restarted: instance {} replaces {}",
                    serverId,
                    instanceId,
                    s.instanceId);
            s.replace(s.instanceId);
        }
        s.instanceId = instanceId;
        s.lastHeartbeatMillis = nowMillis;
        if (s.state != LivenessState.ALIVE) {
            if (s.state == LivenessState.EXPIRED) {
                LOG.info("server {} is alive again (instance {})", serverId, instanceId);
            }
            s.state = s.state.moveTo(LivenessState.ALIVE);
        }
        return HeartbeatOutcome.ACCEPTED;
    }

    /**
     * Instance {@code instanceId} of server {@code serverId} is stopping (a controlled shutdown):
     * the server is expired now, as if its heartbeat timeout had passed, and that instance's later
     * heartbeats are fenced, so a beat still in flight cannot make it alive again. Its restart, a
     * new instance, counts as alive at its first heartbeat.
     *
     * @return {@link HeartbeatOutcome#ACCEPTED} when the server is expired now; {@code FENCED} when
     *     that instance was already replaced or stopped; {@code UNKNOWN_SERVER} when the id is not
     *     tracked
     */
    public HeartbeatOutcome retire(int serverId, String instanceId) {
        Objects.requireNonNull(instanceId, "instanceId");
        Tracked s = servers.get(serverId);
        if (s == null) {
            return HeartbeatOutcome.UNKNOWN_SERVER;
        }
        if (s.replaced.contains(instanceId)
                || (s.instanceId != null && !s.instanceId.equals(instanceId))) {
            return HeartbeatOutcome.FENCED;
        }
        s.replace(instanceId);
        if (s.state != LivenessState.EXPIRED) {
            s.state = s.state.moveTo(LivenessState.EXPIRED);
        }
        LOG.info("server {} is stopping (instance {}): expired now", serverId, instanceId);
        return HeartbeatOutcome.ACCEPTED;
    }

    /**
     * Expires the servers silent for the heartbeat timeout or longer (since their last heartbeat,
     * or since they were first tracked if they never heartbeat).
     *
     * @return the ids of the servers that expired just now, each reported once per expiry
     */
    public List<Integer> expire(long nowMillis) {
        List<Integer> expired = new ArrayList<>();
        for (Map.Entry<Integer, Tracked> e : servers.entrySet()) {
            Tracked s = e.getValue();
            if (s.state != LivenessState.EXPIRED
                    && nowMillis - s.lastHeartbeatMillis >= timeoutMillis) {
                s.state = s.state.moveTo(LivenessState.EXPIRED);
                expired.add(e.getKey());
            }
        }
        if (!expired.isEmpty()) {
            LOG.warn(
                    "servers {} expired: no heartbeat for {} ms (cluster.server.heartbeat-timeout)",
                    expired,
                    timeoutMillis);
        }
        return expired;
    }

    /**
     * An alive server whose heartbeat is late, as of one check: what a probe of its address is
     * about.
     *
     * @param lastHeartbeatMillis its last heartbeat's time when the check found it late
     */
    public record Late(int serverId, String instanceId, long lastHeartbeatMillis) {}

    /** The {@link LivenessState#ALIVE} servers silent for {@code lateMillis} or longer. */
    public List<Late> late(long nowMillis, long lateMillis) {
        List<Late> out = new ArrayList<>();
        servers.forEach(
                (id, s) -> {
                    if (s.state == LivenessState.ALIVE
                            && nowMillis - s.lastHeartbeatMillis >= lateMillis) {
                        out.add(new Late(id, s.instanceId, s.lastHeartbeatMillis));
                    }
                });
        return out;
    }

    /**
     * Expires a late server before its heartbeat timeout because nothing listens at its address any
     * more (its process died): only if it is still alive as the same instance and has not heartbeat
     * since {@code late} was found. Unlike {@link #retire} the instance is not fenced: should it
     * live after all, its next heartbeat makes it alive again, as after a timeout.
     *
     * @return whether the server expired now
     */
    public boolean expireUnreachable(Late late) {
        Tracked s = servers.get(late.serverId());
        if (s == null
                || s.state != LivenessState.ALIVE
                || !late.instanceId().equals(s.instanceId)
                || s.lastHeartbeatMillis != late.lastHeartbeatMillis()) {
            return false;
        }
        s.state = s.state.moveTo(LivenessState.EXPIRED);
        return true;
    }

    /** One server's liveness as of {@code nowMillis}, empty when it is not tracked. */
    public Optional<ServerLivenessView> view(int serverId, long nowMillis) {
        Tracked s = servers.get(serverId);
        return s == null ? Optional.empty() : Optional.of(s.view(serverId, nowMillis));
    }

    /** Every tracked server's liveness as of {@code nowMillis}, in id order. */
    public List<ServerLivenessView> views(long nowMillis) {
        List<ServerLivenessView> out = new ArrayList<>(servers.size());
        servers.forEach((id, s) -> out.add(s.view(id, nowMillis)));
        return out;
    }

    private static final class Tracked {
        LivenessState state = LivenessState.UNKNOWN;

        /** The last heartbeat's time, or when tracking started before the first one. */
        long lastHeartbeatMillis;

        String instanceId;
        final Deque<String> replaced = new ArrayDeque<>();

        Tracked(long nowMillis) {
            this.lastHeartbeatMillis = nowMillis;
        }

        /** Fences {@code instance} from now on, forgetting the oldest fenced one when full. */
        void replace(String instance) {
            if (replaced.contains(instance)) {
                return;
            }
            if (replaced.size() == REPLACED_INSTANCES_KEPT) {
                replaced.removeFirst();
            }
            replaced.addLast(instance);
        }

        ServerLivenessView view(int id, long nowMillis) {
            return new ServerLivenessView(
                    id,
                    state,
                    Optional.ofNullable(instanceId),
                    instanceId == null
                            ? Optional.empty()
                            : Optional.of(Math.max(0, nowMillis - lastHeartbeatMillis)));
        }
    }
}

package dev.tributary.server.cluster;

import dev.tributary.cluster.ClusterConfig;
import dev.tributary.cluster.RaftMetadataStore;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.cluster.LivenessState;
import dev.tributary.coordinator.cluster.ServerLivenessView;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.store.MetadataStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This server's entry in the cluster metadata (T49): it registers the server once its endpoints are
 * bound, and describes the registered servers and who coordinates.
 *
 * <p>The coordinator is the server that leads the metadata quorum (the coordinator starts only once
 * its server leads); a lone server, id 0, is always its own coordinator.
 */
public final class ClusterMembership {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMembership.class);

    /** The id of a server without {@code cluster.id}. */
    public static final int LONE_SERVER_ID = 0;

    private final MetadataStore metadata;
    private final String clusterId;
    private final int serverId;
    private final Clock clock;
    private volatile CoordinatorRole coordinator;

    private ClusterMembership(MetadataStore metadata, String clusterId, int serverId, Clock clock) {
        this.metadata = metadata;
        this.clusterId = clusterId;
        this.serverId = serverId;
        this.clock = clock;
    }

    /**
     * The membership of the server configured by {@code conf}, over its open coordinator metadata
     * (see {@link CoordinatorMetadata#open}).
     */
    public static ClusterMembership of(Configuration conf, MetadataStore metadata, Clock clock) {
        Optional<ClusterConfig> cluster = ClusterConfig.from(conf);
        return new ClusterMembership(
                metadata,
                cluster.map(ClusterConfig::clusterId).orElse(""),
                cluster.map(ClusterConfig::serverId).orElse(LONE_SERVER_ID),
                clock);
    }

    /** Whose liveness view {@link #describe()} shows while this server coordinates. */
    public void useCoordinator(CoordinatorRole coordinator) {
        this.coordinator = coordinator;
    }

    /** This server's id: {@code cluster.server-id}, or 0 for a lone server. */
    public int serverId() {
        return serverId;
    }

    /**
     * Durably registers this server, replacing its earlier registration (e.g. from before a restart
     * on other ports).
     *
     * @param rpcAddress {@code host:port} of the bound gRPC endpoint
     * @param httpAddress {@code host:port} of the bound HTTP endpoint, or empty without one
     */
    public ServerRegistration register(String rpcAddress, String httpAddress, String storageId) {
        ServerRegistration r =
                new ServerRegistration(
                        serverId, rpcAddress, httpAddress, clock.currentTimeMillis(), storageId);
        metadata.putServer(r);
        LOG.info(
                "registered server {} (rpc {}, http {}) in the {} metadata",
                serverId,
                rpcAddress,
                httpAddress.isEmpty() ? "off" : httpAddress,
                clusterId.isEmpty() ? "lone server's" : "cluster '" + clusterId + "'");
        return r;
    }

    /**
     * The gRPC address of the server that coordinates, as this server knows it: {@code selfTarget}
     * when it is this server (a lone server always is); the leader's registered address in a
     * cluster; empty while no leader is known or it has not registered yet.
     */
    public Optional<String> coordinatorRpcAddress(String selfTarget) {
        if (!(metadata instanceof RaftMetadataStore raft)) {
            return Optional.of(selfTarget);
        }
        OptionalInt leader = leaderOf(raft);
        if (leader.isEmpty()) {
            return Optional.empty();
        }
        if (leader.getAsInt() == serverId) {
            return Optional.of(selfTarget);
        }
        return Optional.ofNullable(metadata.servers().get(leader.getAsInt()))
                .map(ServerRegistration::rpcAddress);
    }

    /** Whether server {@code serverId} is registered in the metadata as this server knows it. */
    public boolean isRegistered(int serverId) {
        return metadata.servers().containsKey(serverId);
    }

    /**
     * Whether {@code reported} (a server's heartbeat, or this server at start) names another
     * storage id than the one registered for that server: it came back without its data (T53).
     * Unknown ids on either side (servers registered before storage ids) count as the same.
     */
    public boolean lostData(int serverId, String storageId) {
        ServerRegistration known = metadata.servers().get(serverId);
        return known != null
                && !known.storageId().isEmpty()
                && !storageId.isEmpty()
                && !known.storageId().equals(storageId);
    }

    /**
     * Whether this server may act on what the metadata says it holds: unless its registration names
     * another data directory than {@code storageId} (it came back without its data, T53, and the
     * coordinator has not taken it out of the in-sync sets yet).
     */
    public boolean storageRegistered(String storageId) {
        return !lostData(serverId, storageId);
    }

    /**
     * Registers another server as its heartbeat describes it (on the coordinator), unless it is
     * registered with these addresses and storage id already; returns whether a registration was
     * written. A heartbeat without a storage id keeps the registered one.
     */
    public boolean registerPeer(ServerRegistration reported) {
        ServerRegistration known = metadata.servers().get(reported.serverId());
        String storageId =
                reported.storageId().isEmpty() && known != null
                        ? known.storageId()
                        : reported.storageId();
        if (known != null
                && known.rpcAddress().equals(reported.rpcAddress())
                && known.httpAddress().equals(reported.httpAddress())
                && known.storageId().equals(storageId)) {
            return false;
        }
        ServerRegistration r =
                new ServerRegistration(
                        reported.serverId(),
                        reported.rpcAddress(),
                        reported.httpAddress(),
                        clock.currentTimeMillis(),
                        storageId);
        metadata.putServer(r);
        LOG.info(
                "registered server {} (rpc {}, http {}) from its heartbeat{}",
                r.serverId(),
                r.rpcAddress(),
                r.hasHttp() ? r.httpAddress() : "off",
                known == null ? "" : " (was rpc " + known.rpcAddress() + ")");
        return true;
    }

    /**
     * Checks that server {@code id} may leave the cluster as far as the metadata quorum goes: it is
     * not a voter (issue 23).
     *
     * @throws InvalidInputException for a voter (the quorum is fixed when the cluster is made) and
     *     for a lone server
     */
    public void checkNotVoter(int id) {
        if (!(metadata instanceof RaftMetadataStore raft)) {
            throw new InvalidInputException(
                    "server " + id + " runs alone: there is no cluster to take it out of");
        }
        if (raft.voterIds().contains(Integer.toString(id))) {
            throw new InvalidInputException(
                    "server "
                            + id
                            + " is a voter of the metadata quorum (cluster.voters), which is fixed"
                            + " when the cluster is made; only servers added later (observers)"
                            + " can be removed");
        }
    }

    /**
     * Takes observer {@code id} out of the metadata quorum's configuration (nothing if it is not in
     * it); call it on the coordinator's server once {@link #checkNotVoter} and the coordinator
     * checked that the server may go.
     */
    public void leaveQuorum(int id) {
        if (metadata instanceof RaftMetadataStore raft) {
            raft.removeObserver(Integer.toString(id));
        }
    }

    /** The registered servers and who coordinates, as this server knows them now. */
    public ClusterView describe() {
        OptionalInt coordinator;
        OptionalLong term = OptionalLong.empty();
        OptionalInt leader = OptionalInt.empty();
        Set<String> observers = Set.of();
        if (metadata instanceof RaftMetadataStore raft) {
            leader = leaderOf(raft);
            term = OptionalLong.of(raft.currentTerm());
            coordinator = leader;
            observers = raft.observerIds();
        } else {
            coordinator = OptionalInt.of(serverId);
        }
        Map<Integer, ServerLivenessView> live = liveness();
        Coordinator c = running();
        Map<Integer, Integer> buckets = c == null ? Map.of() : c.bucketsPerServer();
        Map<Integer, Integer> reported = c == null ? Map.of() : c.publishedReportedBuckets();
        List<ClusterView.Member> servers = new ArrayList<>();
        for (ServerRegistration r : metadata.servers().values()) {
            boolean coordinates = coordinator.isPresent() && coordinator.getAsInt() == r.serverId();
            ServerLivenessView v = live.get(r.serverId());
            servers.add(
                    new ClusterView.Member(
                            r,
                            coordinates,
                            observers.contains(Integer.toString(r.serverId())),
                            v == null ? LivenessState.UNKNOWN : v.state(),
                            v == null || v.millisSinceHeartbeat().isEmpty()
                                    ? OptionalLong.empty()
                                    : OptionalLong.of(v.millisSinceHeartbeat().get()),
                            buckets.getOrDefault(r.serverId(), 0),
                            reported.getOrDefault(r.serverId(), 0)));
        }
        return new ClusterView(
                clusterId,
                coordinator,
                servers,
                term,
                leader,
                c == null ? Optional.empty() : Optional.of(c.replicationHealth()));
    }

    /**
     * The coordinator's published liveness by server id (as of its last heartbeat or check, so a
     * status page never waits for a busy coordinator); empty when it does not run (yet).
     */
    private Map<Integer, ServerLivenessView> liveness() {
        Coordinator c = running();
        if (c == null) {
            return Map.of();
        }
        Map<Integer, ServerLivenessView> out = new HashMap<>();
        for (ServerLivenessView v : c.publishedServerLiveness()) {
            out.put(v.serverId(), v);
        }
        return out;
    }

    private Coordinator running() {
        CoordinatorRole role = coordinator;
        return role == null ? null : role.running().orElse(null);
    }

    /**
     * The error for a coordinator call on this server while it does not coordinate: {@code
     * NOT_COORDINATOR} naming the coordinator's id and registered address for clients to follow;
     * while no coordinator can answer (an election, the leader starting its coordinator, the leader
     * not registered yet, this server stopping) a retriable error saying so.
     */
    public TributaryException notCoordinator() {
        String prefix = "server " + serverId + " is not the cluster's coordinator; ";
        if (!(metadata instanceof RaftMetadataStore raft)) {
            return new RetriableException(prefix + "it is stopping");
        }
        OptionalInt leader = leaderOf(raft);
        if (leader.isEmpty()) {
            return new RetriableException(prefix + "no leader is elected now; retry shortly");
        }
        String id = Integer.toString(leader.getAsInt());
        if (leader.getAsInt() == serverId) {
            return new RetriableException(
                    "server "
                            + serverId
                            + " leads the quorum and is starting its coordinator; retry shortly");
        }
        ServerRegistration r = metadata.servers().get(leader.getAsInt());
        return r == null
                ? new RetriableException(
                        prefix
                                + "the coordinator is server "
                                + id
                                + ", not registered yet; retry shortly")
                : new NotCoordinatorException(
                        prefix + "the coordinator is server " + id + " at " + r.rpcAddress(),
                        id,
                        r.rpcAddress());
    }

    /** The quorum's leader as this server knows it. */
    private static OptionalInt leaderOf(RaftMetadataStore raft) {
        return raft.leaderId().map(ClusterMembership::parseId).orElse(OptionalInt.empty());
    }

    /** Ratis peer ids are our integer server ids (see the cluster module's RaftSettings). */
    private static OptionalInt parseId(String peerId) {
        try {
            return OptionalInt.of(Integer.parseInt(peerId));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}

package dev.tributary.server.cluster;

import dev.tributary.coordinator.cluster.LivenessState;
import dev.tributary.coordinator.metadata.ReplicationHealth;
import dev.tributary.coordinator.metadata.ServerRegistration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The cluster as one server sees it (T49): the servers registered in the metadata and which one
 * coordinates; what {@code DescribeCluster} and {@code /api/cluster} answer.
 *
 * @param clusterId {@code cluster.id}, empty for a lone server
 * @param coordinatorId the coordinating server's id; empty while none is known (an election)
 * @param servers every registered server, by id
 * @param raftTerm in a cluster, the metadata quorum's Raft term; empty for a lone server
 * @param raftLeaderId in a cluster, the quorum's leader as this server knows it
 * @param replication under-replicated and leaderless buckets (T50), as the coordinator's metadata
 *     records them; empty on a server that does not coordinate
 */
public record ClusterView(
        String clusterId,
        OptionalInt coordinatorId,
        List<Member> servers,
        OptionalLong raftTerm,
        OptionalInt raftLeaderId,
        Optional<ReplicationHealth> replication) {

    /**
     * A registered server, whether it is the coordinator, and its liveness as the coordinator sees
     * it.
     *
     * @param liveness {@link LivenessState#UNKNOWN} also when the coordinator could not be asked
     * @param millisSinceHeartbeat since the coordinator accepted its last heartbeat; empty before
     *     the first
     * @param buckets the buckets assigned to it (T49)
     * @param reportedBuckets the buckets it reported in its heartbeats (T49)
     */
    public record Member(
            ServerRegistration registration,
            boolean coordinator,
            boolean observer,
            LivenessState liveness,
            OptionalLong millisSinceHeartbeat,
            int buckets,
            int reportedBuckets) {}

    public ClusterView {
        servers = List.copyOf(servers);
    }

    /** The JSON shape of {@code /api/cluster}: absent values are {@code null}. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("clusterId", clusterId);
        m.put("coordinatorId", coordinatorId.isPresent() ? coordinatorId.getAsInt() : null);
        List<Map<String, Object>> list = new ArrayList<>(servers.size());
        for (Member s : servers) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("serverId", s.registration().serverId());
            row.put("rpcAddress", s.registration().rpcAddress());
            row.put("httpAddress", s.registration().httpAddress());
            row.put("registeredAtMillis", s.registration().registeredAtMillis());
            row.put("coordinator", s.coordinator());
            row.put("observer", s.observer());
            row.put("draining", s.registration().draining());
            row.put("liveness", s.liveness().name());
            row.put(
                    "millisSinceHeartbeat",
                    s.millisSinceHeartbeat().isPresent()
                            ? s.millisSinceHeartbeat().getAsLong()
                            : null);
            row.put("buckets", s.buckets());
            row.put("reportedBuckets", s.reportedBuckets());
            list.add(row);
        }
        m.put("servers", list);
        m.put("raftTerm", raftTerm.isPresent() ? raftTerm.getAsLong() : null);
        m.put("raftLeaderId", raftLeaderId.isPresent() ? raftLeaderId.getAsInt() : null);
        m.put(
                "replication",
                replication
                        .map(
                                r -> {
                                    Map<String, Object> health = new LinkedHashMap<>();
                                    health.put("buckets", r.buckets());
                                    health.put("underReplicated", r.underReplicated());
                                    health.put("leaderless", r.leaderless());
                                    health.put("moving", r.moving());
                                    health.put("notPreferredLeader", r.notPreferredLeader());
                                    return health;
                                })
                        .orElse(null));
        return m;
    }
}

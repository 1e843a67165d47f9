package dev.tributary.client.admin;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The servers registered in a Tributary cluster's metadata and which one is the coordinator, as the
 * answering server knows them (T49).
 *
 * @param clusterId the cluster's {@code cluster.id}; empty for a lone server
 * @param coordinatorId the coordinating server's id; empty while none is known (during an election)
 * @param servers every registered server, by id. A stopped server stays listed with its last
 *     addresses; its liveness tells whether it still heartbeats
 * @param raftTerm in a cluster, the Raft term of the metadata quorum; empty for a lone server
 * @param raftLeaderId in a cluster, the metadata quorum's leader; empty for a lone server or while
 *     no leader is known
 * @param replication the coordinator's count of under-replicated and leaderless buckets (T50);
 *     empty when the answering server does not coordinate
 */
public record ClusterInfo(
        String clusterId,
        OptionalInt coordinatorId,
        List<Server> servers,
        OptionalLong raftTerm,
        OptionalInt raftLeaderId,
        Optional<Replication> replication) {

    public ClusterInfo {
        servers = List.copyOf(servers);
    }

    /**
     * The replication health of every bucket the coordinator assigned (T50); {@link
     * Admin#describeBuckets} names the buckets.
     *
     * @param buckets every assigned bucket of every table and partition
     * @param underReplicated buckets with a leader and a replica outside the in-sync set: they
     *     survive fewer server losses than their replication factor promises until it catches up
     * @param leaderless buckets none of whose in-sync replicas is alive: their writes and reads are
     *     refused until one returns
     * @param moving buckets moving to other servers ({@link Admin#moveReplicas})
     * @param notPreferredLeader buckets not moving led by another replica than their first, the
     *     preferred leader: after a failover, until the coordinator's preferred-leader check hands
     *     the leadership back (leaderships are then not spread as at creation)
     */
    public record Replication(
            int buckets, int underReplicated, int leaderless, int moving, int notPreferredLeader) {}

    /**
     * A registered server.
     *
     * @param serverId its {@code cluster.server-id}, 0 for a lone server
     * @param rpcAddress {@code host:port} clients connect to
     * @param httpAddress {@code host:port} of its HTTP API and console; empty when it runs none
     * @param registeredAtMillis when it last registered (its last start), wall-clock millis
     * @param coordinator whether it is the coordinator
     * @param observer whether it was added to the running cluster: it holds replicas but does not
     *     vote in the metadata quorum, so it never coordinates
     * @param draining whether it is being drained: new tables and rebalances place no replica on
     *     it, and its replicas move off ({@link Admin#moveReplicas(java.util.Set, java.util.Set,
     *     boolean)})
     * @param liveness whether the coordinator counts it as alive, from its heartbeats
     * @param millisSinceHeartbeat since the coordinator accepted its last heartbeat; empty before
     *     the first
     * @param buckets how many buckets the coordinator assigned to it
     * @param reportedBuckets how many buckets it reported holding in its heartbeats (today every
     *     server still opens every bucket, so this may exceed {@code buckets})
     */
    public record Server(
            int serverId,
            String rpcAddress,
            String httpAddress,
            long registeredAtMillis,
            boolean coordinator,
            boolean observer,
            boolean draining,
            Liveness liveness,
            OptionalLong millisSinceHeartbeat,
            int buckets,
            int reportedBuckets) {}

    /** A registered server's liveness as the coordinator sees it. */
    public enum Liveness {
        /** No heartbeat reached the coordinator yet (or the answering server could not tell). */
        UNKNOWN,
        /** Heartbeats within {@code cluster.server.heartbeat-timeout}. */
        ALIVE,
        /** No heartbeat for {@code cluster.server.heartbeat-timeout}. */
        EXPIRED
    }

    /** Whether the server runs in a cluster (rather than alone). */
    public boolean clustered() {
        return !clusterId.isEmpty();
    }

    /** The coordinating server, if known and registered. */
    public Optional<Server> coordinator() {
        return servers.stream().filter(Server::coordinator).findFirst();
    }
}

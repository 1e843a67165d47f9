package dev.tributary.client.admin;

import dev.tributary.rpc.proto.BucketLeaderPb;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One bucket's replicas as the cluster metadata records them (T50): the server that leads it, the
 * servers that hold a copy and the ones among them that have every acknowledged record. A bucket of
 * a table created with {@code table.replication.factor} 1 (and every bucket of a lone server) has
 * one replica, which leads and is in sync.
 *
 * @param bucket the bucket
 * @param leader the leading server; empty while none of the in-sync replicas is alive (writes and
 *     reads of the bucket are refused until one returns: there is no unclean election)
 * @param leaderAddress the leader's registered RPC address, when known
 * @param replicas the servers holding a copy, the preferred leader first
 * @param inSyncReplicas the replicas that have every acknowledged record; only they can lead
 * @param leaderEpoch raised by every leader change
 * @param moveTarget the replicas the bucket is moving to ({@link Admin#moveReplicas}); empty when
 *     it is not moving
 */
public record BucketReplicaInfo(
        int bucket,
        OptionalInt leader,
        Optional<String> leaderAddress,
        List<Integer> replicas,
        List<Integer> inSyncReplicas,
        int leaderEpoch,
        List<Integer> moveTarget) {

    public BucketReplicaInfo {
        replicas = List.copyOf(replicas);
        inSyncReplicas = List.copyOf(inSyncReplicas);
        moveTarget = List.copyOf(moveTarget);
    }

    /** Whether the bucket is moving to other servers. */
    public boolean moving() {
        return !moveTarget.isEmpty();
    }

    /**
     * Whether the bucket has a leader and a replica out of the in-sync set (while it moves: fewer
     * in-sync replicas than its target has; the replicas being added catch up by design): it
     * survives fewer server losses than its replication factor promises until that replica catches
     * up. A bucket without a leader is not counted here (it keeps the in-sync set it had).
     */
    public boolean underReplicated() {
        return leader.isPresent()
                && inSyncReplicas.size() < (moving() ? moveTarget.size() : replicas.size());
    }

    /** From the wire; an answer without replica lists (an older server) names the leader only. */
    public static BucketReplicaInfo fromPb(BucketLeaderPb pb) {
        OptionalInt leader =
                pb.getServerId() < 0 ? OptionalInt.empty() : OptionalInt.of(pb.getServerId());
        List<Integer> only = leader.isPresent() ? List.of(leader.getAsInt()) : List.of();
        return new BucketReplicaInfo(
                pb.getBucket(),
                leader,
                pb.getRpcAddress().isEmpty() ? Optional.empty() : Optional.of(pb.getRpcAddress()),
                pb.getReplicasCount() == 0 ? only : pb.getReplicasList(),
                pb.getInSyncReplicasCount() == 0 ? only : pb.getInSyncReplicasList(),
                pb.getLeaderEpoch(),
                pb.getMoveTargetList());
    }
}

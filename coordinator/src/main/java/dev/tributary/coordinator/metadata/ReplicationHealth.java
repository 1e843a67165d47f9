package dev.tributary.coordinator.metadata;

import java.util.Collection;

/**
 * How many buckets of the cluster have fewer in-sync replicas than replicas, and how many have no
 * leader at all (T50): what an operator alerts on, like Kafka's under-replicated and offline
 * partition counts. An under-replicated bucket survives fewer server losses than its factor
 * promises; a bucket without a leader refuses writes and reads until one of its in-sync replicas
 * returns.
 *
 * @param buckets every assigned bucket of every table and partition
 * @param underReplicated buckets with a leader and fewer in-sync replicas than replicas (than the
 *     move's target, for a moving bucket: {@link BucketReplicas#underReplicated})
 * @param leaderless buckets none of whose in-sync replicas is alive (counted here only: a
 *     leaderless bucket keeps the in-sync set it had, since any of those may hold acknowledged
 *     records the others lack)
 * @param moving buckets moving to other servers ({@link BucketReplicas#moveTo})
 * @param notPreferredLeader buckets not moving whose leader is another replica than their first,
 *     the preferred leader (after a failover, until the preferred-leader check hands it back:
 *     {@link BucketReplicas#withPreferredLeader}); Kafka's preferred replica imbalance
 */
public record ReplicationHealth(
        int buckets, int underReplicated, int leaderless, int moving, int notPreferredLeader) {

    /** Counts over the given assignments. */
    public static ReplicationHealth of(Collection<BucketAssignment> assignments) {
        int buckets = 0;
        int under = 0;
        int leaderless = 0;
        int moving = 0;
        int notPreferred = 0;
        for (BucketAssignment a : assignments) {
            for (BucketReplicas r : a.buckets()) {
                buckets++;
                moving += r.moving() ? 1 : 0;
                if (r.hasLeader() && !r.moving() && r.leader() != r.replicas().get(0)) {
                    notPreferred++;
                }
                if (!r.hasLeader()) {
                    leaderless++;
                } else if (r.underReplicated()) {
                    under++;
                }
            }
        }
        return new ReplicationHealth(buckets, under, leaderless, moving, notPreferred);
    }
}

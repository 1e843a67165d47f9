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
 * @param underReplicated buckets with a leader and a replica outside the in-sync set
 * @param leaderless buckets none of whose in-sync replicas is alive (counted here only: a
 *     leaderless bucket keeps the in-sync set it had, since any of those may hold acknowledged
 *     records the others lack)
 */
public record ReplicationHealth(int buckets, int underReplicated, int leaderless) {

    /** Counts over the given assignments. */
    public static ReplicationHealth of(Collection<BucketAssignment> assignments) {
        int buckets = 0;
        int under = 0;
        int leaderless = 0;
        for (BucketAssignment a : assignments) {
            for (BucketReplicas r : a.buckets()) {
                buckets++;
                if (!r.hasLeader()) {
                    leaderless++;
                } else if (r.isr().size() < r.replicas().size()) {
                    under++;
                }
            }
        }
        return new ReplicationHealth(buckets, under, leaderless);
    }
}

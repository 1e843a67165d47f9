package dev.tributary.coordinator.metadata;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.types.TableDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * Which servers hold each bucket of a table, or of one partition of a partitioned table (T49), and
 * which of them leads it (T50): the coordinator assigns them when the table or partition is
 * created, as a metadata record, so every server learns them from the replicated metadata. A change
 * of one bucket's leader or in-sync set rewrites the group's record.
 *
 * @param tableId the table
 * @param partitionId the partition, or {@link TableBucket#NO_PARTITION} for an unpartitioned table
 * @param buckets the replicas of each bucket, indexed by bucket
 */
public record BucketAssignment(long tableId, long partitionId, List<BucketReplicas> buckets) {

    public BucketAssignment {
        if (buckets.isEmpty() || buckets.size() > TableDescriptor.MAX_BUCKETS) {
            throw new InvalidInputException(
                    "a bucket assignment holds 1 to "
                            + TableDescriptor.MAX_BUCKETS
                            + " buckets, not "
                            + buckets.size());
        }
        buckets = List.copyOf(buckets);
    }

    /** One replica per bucket, on the server given for it (a lone server, or before T50). */
    public static BucketAssignment ofServers(
            long tableId, long partitionId, List<Integer> servers) {
        List<BucketReplicas> buckets = new ArrayList<>(servers.size());
        for (int s : servers) {
            buckets.add(BucketReplicas.single(s));
        }
        return new BucketAssignment(tableId, partitionId, buckets);
    }

    /** The key of the assigned bucket group. */
    public Group group() {
        return new Group(tableId, partitionId);
    }

    /**
     * The server that leads each bucket, indexed by bucket ({@link BucketReplicas#NO_LEADER} for a
     * bucket without one).
     */
    public List<Integer> servers() {
        List<Integer> out = new ArrayList<>(buckets.size());
        for (BucketReplicas r : buckets) {
            out.add(r.leader());
        }
        return out;
    }

    /** The server that leads {@code bucket}, or {@link BucketReplicas#NO_LEADER}. */
    public int serverOf(int bucket) {
        return buckets.get(bucket).leader();
    }

    /** The replicas of {@code bucket}. */
    public BucketReplicas replicasOf(int bucket) {
        return buckets.get(bucket);
    }

    /** The same group with {@code bucket}'s replicas replaced. */
    public BucketAssignment withBucket(int bucket, BucketReplicas replicas) {
        List<BucketReplicas> next = new ArrayList<>(buckets);
        next.set(bucket, replicas);
        return new BucketAssignment(tableId, partitionId, next);
    }

    public int bucketCount() {
        return buckets.size();
    }

    /** The buckets of one table, or of one partition of a partitioned table. */
    public record Group(long tableId, long partitionId) implements Comparable<Group> {
        @Override
        public int compareTo(Group o) {
            int c = Long.compare(tableId, o.tableId);
            return c != 0 ? c : Long.compare(partitionId, o.partitionId);
        }
    }
}

package dev.tributary.coordinator.metadata;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.types.TableDescriptor;
import java.util.List;

/**
 * Which server holds each bucket of a table, or of one partition of a partitioned table (T49): the
 * coordinator assigns them when the table or partition is created, as a metadata record, so every
 * server learns them from the replicated metadata. One copy per bucket (replicas come with part 2
 * of the cluster work).
 *
 * @param tableId the table
 * @param partitionId the partition, or {@link TableBucket#NO_PARTITION} for an unpartitioned table
 * @param servers the server id of each bucket, indexed by bucket
 */
public record BucketAssignment(long tableId, long partitionId, List<Integer> servers) {

    public BucketAssignment {
        if (servers.isEmpty() || servers.size() > TableDescriptor.MAX_BUCKETS) {
            throw new InvalidInputException(
                    "a bucket assignment holds 1 to "
                            + TableDescriptor.MAX_BUCKETS
                            + " buckets, not "
                            + servers.size());
        }
        servers = List.copyOf(servers);
        for (int s : servers) {
            if (s < 0) {
                throw new InvalidInputException("a server id is never negative: " + s);
            }
        }
    }

    /** The key of the assigned bucket group. */
    public Group group() {
        return new Group(tableId, partitionId);
    }

    /** The server of {@code bucket}. */
    public int serverOf(int bucket) {
        return servers.get(bucket);
    }

    public int bucketCount() {
        return servers.size();
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

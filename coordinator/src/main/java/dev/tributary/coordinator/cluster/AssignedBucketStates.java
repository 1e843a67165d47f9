package dev.tributary.coordinator.cluster;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketAssignments;
import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.BucketStateSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The coordinator's bucket states in a cluster (T49, plan step 4): a bucket assigned to the
 * coordinator's own server (or not assigned yet, so still served where the table was opened) is
 * read from the local store, exactly; a bucket assigned to another server is what that server last
 * reported in its heartbeats ({@link ReportedBucketStates}), or {@link BucketState#notReported}
 * when it reported nothing yet (after a failover, until its first heartbeat reaches the new
 * coordinator): nothing to tier yet, not an error. A lone server or a cluster of one holds every
 * bucket, so it reads everything locally as before.
 *
 * <p>Runs on the coordinator's event loop, like the reports it reads. Until {@link #use} wired the
 * assignments and reports in (during the coordinator's start), every bucket is read locally.
 */
public final class AssignedBucketStates implements BucketStateSource {
    private final BucketStateSource local;
    private final int ownServerId;
    private BucketAssignments assignments;
    private ReportedBucketStates reported;

    /**
     * @param local the coordinator's own store
     * @param ownServerId the registered id of the coordinator's server
     */
    public AssignedBucketStates(BucketStateSource local, int ownServerId) {
        this.local = local;
        this.ownServerId = ownServerId;
    }

    /** Reads buckets of other servers from {@code reported} from now on. On the loop. */
    public void use(BucketAssignments assignments, ReportedBucketStates reported) {
        this.assignments = assignments;
        this.reported = reported;
    }

    @Override
    public List<BucketState> bucketStates(long tableId, TablePath path, int bucketCount) {
        Optional<BucketAssignment> a = assignment(tableId, TableBucket.NO_PARTITION, bucketCount);
        if (a.isEmpty()) {
            return local.bucketStates(tableId, path, bucketCount);
        }
        List<BucketState> mine =
                a.get().servers().contains(ownServerId)
                        ? local.bucketStates(tableId, path, bucketCount)
                        : null;
        return merge(a.get(), TableBucket.NO_PARTITION, mine, bucketCount);
    }

    @Override
    public List<BucketState> partitionBucketStates(
            long tableId, long partitionId, TablePath path, int bucketCount) {
        Optional<BucketAssignment> a = assignment(tableId, partitionId, bucketCount);
        if (a.isEmpty()) {
            return local.partitionBucketStates(tableId, partitionId, path, bucketCount);
        }
        List<BucketState> mine =
                a.get().servers().contains(ownServerId)
                        ? local.partitionBucketStates(tableId, partitionId, path, bucketCount)
                        : null;
        return merge(a.get(), partitionId, mine, bucketCount);
    }

    @Override
    public Set<Long> drainChangedPartitions(long tableId) {
        Set<Long> changed = new TreeSet<>(local.drainChangedPartitions(tableId));
        if (reported != null) {
            for (int server : reported.reporters()) {
                // the own server's writes are in the local store's set already
                if (server != ownServerId) {
                    changed.addAll(reported.drainChangedPartitions(server, tableId));
                }
            }
        }
        return changed;
    }

    /**
     * The assignment to follow, empty to read locally: before wiring, for a group not assigned yet,
     * or for one whose bucket count does not match (an assignment describes the buckets the table
     * was created with).
     */
    private Optional<BucketAssignment> assignment(long tableId, long partitionId, int bucketCount) {
        if (assignments == null) {
            return Optional.empty();
        }
        return assignments.of(tableId, partitionId).filter(a -> a.bucketCount() == bucketCount);
    }

    private List<BucketState> merge(
            BucketAssignment a, long partitionId, List<BucketState> mine, int bucketCount) {
        List<BucketState> out = new ArrayList<>(bucketCount);
        for (int b = 0; b < bucketCount; b++) {
            int server = a.serverOf(b);
            if (server == ownServerId) {
                out.add(mine.get(b));
            } else {
                out.add(
                        reported.state(server, new ReportedBucket.Key(a.tableId(), partitionId, b))
                                .map(r -> r.bucket().toBucketState())
                                .orElse(BucketState.notReported(b)));
            }
        }
        return out;
    }
}

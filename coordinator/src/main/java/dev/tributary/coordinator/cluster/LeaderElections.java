package dev.tributary.coordinator.cluster;

import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketAssignments;
import dev.tributary.coordinator.metadata.BucketReplicas;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the leadership of replicated buckets when servers die and return (T51): a server that
 * expired leaves the in-sync sets it is in, and each bucket it led gets the first alive in-sync
 * replica as leader in the next epoch, or none ({@link BucketReplicas#afterServerDied}); a server
 * that heartbeats again leads each leaderless bucket whose in-sync set holds it ({@link
 * BucketReplicas#afterServerReturned}). Every change is a metadata record the servers apply.
 * Buckets with one replica are left as they are: there is nobody to elect.
 *
 * <p>Runs on the coordinator's event loop, after the liveness change it reacts to.
 */
public final class LeaderElections {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderElections.class);

    private final BucketAssignments assignments;
    private final IntPredicate alive;

    /**
     * @param alive whether a server counts as alive (not expired) now
     */
    public LeaderElections(BucketAssignments assignments, IntPredicate alive) {
        this.assignments = assignments;
        this.alive = alive;
    }

    /** Servers expired just now. */
    public void onExpired(List<Integer> servers) {
        for (int dead : servers) {
            change(r -> r.isr().contains(dead), r -> r.afterServerDied(dead, alive), "died", dead);
        }
    }

    /**
     * A server heartbeats again after it expired (or for the first time under this coordinator).
     */
    public void onAlive(int server) {
        change(
                r -> !r.hasLeader() && r.isr().contains(server),
                r -> r.afterServerReturned(server),
                "returned",
                server);
    }

    private void change(
            Predicate<BucketReplicas> concerned,
            UnaryOperator<BucketReplicas> transition,
            String what,
            int server) {
        for (BucketAssignment a : assignments.all()) {
            for (int b = 0; b < a.bucketCount(); b++) {
                BucketReplicas before = a.replicasOf(b);
                if (before.replicas().size() < 2 || !concerned.test(before)) {
                    continue;
                }
                TableBucket bucket = new TableBucket(a.tableId(), a.partitionId(), b);
                try {
                    BucketReplicas after = assignments.changeBucket(bucket, transition);
                    if (after.leader() != before.leader()) {
                        LOG.info(
                                "bucket {}: server {} {}; leader {} -> {} in epoch {}, in sync {}",
                                bucket,
                                server,
                                what,
                                before.leader(),
                                after.hasLeader() ? Integer.toString(after.leader()) : "none",
                                after.leaderEpoch(),
                                after.isr());
                    }
                } catch (TributaryException e) {
                    // the table went meanwhile, or the metadata refused: the next change retries
                    LOG.warn(
                            "bucket {}: cannot apply that server {} {}: {}",
                            bucket,
                            server,
                            what,
                            e.toString());
                }
            }
        }
    }
}

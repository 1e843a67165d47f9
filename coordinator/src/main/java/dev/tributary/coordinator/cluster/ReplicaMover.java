package dev.tributary.coordinator.cluster;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.cluster.ReplicaMoves.Move;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketAssignments;
import dev.tributary.coordinator.metadata.BucketReplicas;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves replicas between servers (issue 23: {@code tributary cluster rebalance}, drains): starts
 * the moves {@link ReplicaMoves} plans ({@link BucketReplicas#moveTo}, one metadata record per
 * bucket group) and ends each once its new replicas are in sync ({@link
 * BucketReplicas#finishMove}). The new replicas copy the log as followers meanwhile (throttled on
 * their servers), and writes go on with the old in-sync set. Both steps are metadata records, so a
 * coordinator that takes over finishes the moves its predecessor started.
 *
 * <p>Runs on the coordinator's event loop.
 */
public final class ReplicaMover {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaMover.class);

    private final BucketAssignments assignments;
    private final Supplier<Set<Integer>> registered;
    private final IntPredicate alive;

    /**
     * @param registered the ids of the registered servers
     * @param alive whether a server counts as alive (not expired) now
     */
    public ReplicaMover(
            BucketAssignments assignments, Supplier<Set<Integer>> registered, IntPredicate alive) {
        this.assignments = assignments;
        this.registered = registered;
        this.alive = alive;
    }

    /**
     * Plans the moves that take every replica off {@code draining} and even out the rest over the
     * alive servers, and starts them unless {@code dryRun}.
     *
     * @return the moves planned (and started)
     * @throws InvalidInputException if a server to drain is not registered, or the plan cannot be
     *     made (see {@link ReplicaMoves#plan})
     */
    public List<Move> rebalance(Set<Integer> draining, boolean dryRun) {
        Set<Integer> known = registered.get();
        for (int s : draining) {
            if (!known.contains(s)) {
                throw new InvalidInputException(
                        "server "
                                + s
                                + " is not registered; the servers are "
                                + new TreeSet<>(known));
            }
        }
        SortedSet<Integer> receivers = new TreeSet<>(known);
        receivers.removeIf(s -> draining.contains(s) || !alive.test(s));
        List<Move> moves = ReplicaMoves.plan(assignments.all(), receivers, draining);
        if (!dryRun) {
            for (Move m : moves) {
                BucketReplicas after =
                        assignments.changeBucket(
                                m.bucket(), r -> r.moveTo(m.to()).finishMove(alive));
                LOG.info(
                        "bucket {}: moving from {} to {} (replicas now {}, in sync {})",
                        m.bucket(),
                        m.from(),
                        m.to(),
                        after.replicas(),
                        after.isr());
            }
        }
        return moves;
    }

    /**
     * Ends the moves whose new replicas are all in sync (after an in-sync change, a server's return
     * or a coordinator takeover).
     *
     * @return how many moves ended
     */
    public int finishMoves() {
        int finished = 0;
        for (BucketAssignment a : assignments.all()) {
            for (int b = 0; b < a.bucketCount(); b++) {
                BucketReplicas before = a.replicasOf(b);
                if (!before.moving()) {
                    continue;
                }
                TableBucket bucket = new TableBucket(a.tableId(), a.partitionId(), b);
                try {
                    BucketReplicas after =
                            assignments.changeBucket(bucket, r -> r.finishMove(alive));
                    if (!after.moving()) {
                        finished++;
                        LOG.info(
                                "bucket {}: moved to {}, led by {} in epoch {}",
                                bucket,
                                after.replicas(),
                                after.leader(),
                                after.leaderEpoch());
                    }
                } catch (TributaryException e) {
                    LOG.warn("bucket {}: cannot end its move: {}", bucket, e.toString());
                }
            }
        }
        return finished;
    }
}

package dev.tributary.coordinator.cluster;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.cluster.ReplicaMoves.Move;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketAssignments;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.store.MetadataStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves replicas between servers (issue 23: {@code tributary cluster rebalance}, drains): marks
 * servers draining or not (durably, so that nothing moves back onto a drained server), starts the
 * moves {@link ReplicaMoves} plans ({@link BucketReplicas#moveTo}, one metadata record per bucket
 * group) and ends each once its new replicas are in sync ({@link BucketReplicas#finishMove}). The
 * new replicas copy the log as followers meanwhile (throttled on their servers), and writes go on
 * with the old in-sync set. Both steps are metadata records, so a coordinator that takes over
 * finishes the moves its predecessor started.
 *
 * <p>Runs on the coordinator's event loop.
 */
public final class ReplicaMover {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaMover.class);

    private final BucketAssignments assignments;
    private final MetadataStore store;
    private final IntPredicate alive;

    /**
     * @param store where the servers' registrations and drain marks are
     * @param alive whether a server counts as alive (not expired) now
     */
    public ReplicaMover(BucketAssignments assignments, MetadataStore store, IntPredicate alive) {
        this.assignments = assignments;
        this.store = store;
        this.alive = alive;
    }

    /**
     * Marks the servers in {@code drain} draining and those in {@code undrain} not (durably, unless
     * {@code dryRun}), then plans the moves that take every replica off the draining servers (these
     * and those drained before) and even out the rest over the alive servers, and starts them
     * unless {@code dryRun}. A draining server stays so until undrained or removed: new buckets and
     * later rebalances place no replica on it.
     *
     * @return the moves planned (and started)
     * @throws InvalidInputException if a server named is not registered or named in both sets, or
     *     the plan cannot be made (see {@link ReplicaMoves#plan}); nothing is marked then
     */
    public List<Move> rebalance(Set<Integer> drain, Set<Integer> undrain, boolean dryRun) {
        Map<Integer, ServerRegistration> known = store.servers();
        for (int s : union(drain, undrain)) {
            if (!known.containsKey(s)) {
                throw new InvalidInputException(
                        "server "
                                + s
                                + " is not registered; the servers are "
                                + new TreeSet<>(known.keySet()));
            }
            if (drain.contains(s) && undrain.contains(s)) {
                throw new InvalidInputException(
                        "server " + s + " is named to drain and to undrain: name it once");
            }
        }
        Set<Integer> draining = new TreeSet<>(drain);
        known.values().stream()
                .filter(ServerRegistration::draining)
                .map(ServerRegistration::serverId)
                .filter(s -> !undrain.contains(s))
                .forEach(draining::add);
        SortedSet<Integer> receivers = new TreeSet<>(known.keySet());
        receivers.removeIf(s -> draining.contains(s) || !alive.test(s));
        List<Move> moves = ReplicaMoves.plan(assignments.all(), receivers, draining);
        if (!dryRun) {
            // marked first: a coordinator that stops before the moves below leaves the mark, and
            // the same command run again starts them
            for (int s : union(drain, undrain)) {
                if (known.get(s).draining() != drain.contains(s)) {
                    store.setDraining(s, drain.contains(s));
                    LOG.info("server {}: {}", s, drain.contains(s) ? "draining" : "undrained");
                }
            }
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
     * Cancels every move under way ({@link BucketReplicas#cancelMove}): each bucket goes back to
     * the replicas it held before, unless {@code dryRun}. Drain marks stay: a server drained before
     * is still kept free of new replicas, and the next rebalance moves replicas off it again unless
     * it is undrained.
     *
     * @return one move per bucket, from the target it was moving to back to where it goes now
     */
    public List<Move> cancelMoves(boolean dryRun) {
        List<Move> cancelled = new ArrayList<>();
        for (Map.Entry<TableBucket, BucketReplicas> e : movingBuckets().entrySet()) {
            TableBucket bucket = e.getKey();
            List<Integer> target = e.getValue().target();
            cancelled.add(new Move(bucket, target, e.getValue().cancelMove().target()));
            if (!dryRun) {
                BucketReplicas after =
                        assignments.changeBucket(bucket, r -> r.cancelMove().finishMove(alive));
                LOG.info(
                        "bucket {}: move to {} cancelled (replicas now {}, in sync {})",
                        bucket,
                        target,
                        after.replicas(),
                        after.isr());
            }
        }
        return cancelled;
    }

    /** The buckets moving now, with their replicas, in the assignments' order. */
    private Map<TableBucket, BucketReplicas> movingBuckets() {
        Map<TableBucket, BucketReplicas> moving = new LinkedHashMap<>();
        for (BucketAssignment a : assignments.all()) {
            for (int b = 0; b < a.bucketCount(); b++) {
                BucketReplicas r = a.replicasOf(b);
                if (r.moving()) {
                    moving.put(new TableBucket(a.tableId(), a.partitionId(), b), r);
                }
            }
        }
        return moving;
    }

    private static Set<Integer> union(Set<Integer> a, Set<Integer> b) {
        Set<Integer> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * Ends the moves whose new replicas are all in sync (after an in-sync change, a server's return
     * or a coordinator takeover).
     *
     * @return how many moves ended
     */
    public int finishMoves() {
        int finished = 0;
        for (TableBucket bucket : movingBuckets().keySet()) {
            try {
                BucketReplicas after = assignments.changeBucket(bucket, r -> r.finishMove(alive));
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
        return finished;
    }
}

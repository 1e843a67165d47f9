package dev.tributary.coordinator.cluster;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketAssignments;
import dev.tributary.coordinator.metadata.BucketReplicas;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * Buckets with one replica are left as they are: there is nobody to elect. A moving bucket whose
 * change puts every replica of its target in sync ends its move in the same record ({@link
 * BucketReplicas#finishMove}).
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

    /**
     * Servers expired just now.
     *
     * @return how many buckets' leaders moved (or were lost) as a result
     */
    public int onExpired(List<Integer> servers) {
        int moved = 0;
        for (int dead : servers) {
            moved +=
                    change(
                            r -> r.isr().contains(dead),
                            r -> r.afterServerDied(dead, alive),
                            "server " + dead + " died");
        }
        return moved;
    }

    /**
     * A server came back without its data (T53): it leaves every in-sync set, and the buckets it
     * led get new leaders ({@link BucketReplicas#afterServerLostData}).
     *
     * @return how many buckets' leaders moved (or were lost)
     */
    public int onDataLost(int server) {
        return change(
                r -> r.isr().contains(server),
                r -> r.afterServerLostData(server, id -> id != server && alive.test(id)),
                "server " + server + " lost its data");
    }

    /**
     * A server heartbeats again after it expired (or for the first time under this coordinator).
     */
    public void onAlive(int server) {
        change(
                r -> !r.hasLeader() && r.isr().contains(server),
                r -> r.afterServerReturned(server, alive),
                "server " + server + " returned");
    }

    /**
     * Gives replicated buckets led by another server than their first replica the leadership back,
     * where that replica is in sync and may lead ({@link BucketReplicas#withPreferredLeader}), so
     * leaderships spread again after failovers. Only the buckets of servers whose preferred
     * leaderships are imbalanced beyond {@code imbalancePercent} move (Kafka's
     * leader.imbalance.per.broker.percentage: a server that should lead 10 buckets and leads 9 is
     * left alone at 10%), and at most {@code maxMoves} of them: each move fails the writes in
     * flight at the old leader, retriably.
     *
     * @param mayLead whether a server may take a leadership now (alive, not draining)
     * @param imbalancePercent a server's buckets move when more than this share of the replicated
     *     buckets it is the first replica of are not led by it
     * @param maxMoves how many buckets may move at most
     * @return how many buckets' leaders moved
     */
    public int electPreferredLeaders(IntPredicate mayLead, int imbalancePercent, int maxMoves) {
        Set<Integer> imbalanced = imbalancedPreferredLeaders(imbalancePercent);
        return change(
                r ->
                        imbalanced.contains(r.replicas().get(0))
                                && r.withPreferredLeader(mayLead) != r,
                r -> r.withPreferredLeader(mayLead),
                "its preferred leader is in sync",
                maxMoves);
    }

    /**
     * The servers that do not lead more than {@code percent}% of the replicated buckets they are
     * the first replica of (a bucket without a leader counts as not led by it).
     */
    private Set<Integer> imbalancedPreferredLeaders(int percent) {
        Map<Integer, int[]> preferredAndNotLeading = new HashMap<>();
        for (BucketAssignment a : assignments.all()) {
            for (BucketReplicas r : a.buckets()) {
                if (r.replicas().size() < 2) {
                    continue;
                }
                int[] counts =
                        preferredAndNotLeading.computeIfAbsent(
                                r.replicas().get(0), id -> new int[2]);
                counts[0]++;
                if (!r.hasLeader() || r.leader() != r.replicas().get(0)) {
                    counts[1]++;
                }
            }
        }
        Set<Integer> imbalanced = new HashSet<>();
        preferredAndNotLeading.forEach(
                (id, counts) -> {
                    if (counts[1] * 100L > (long) percent * counts[0]) {
                        imbalanced.add(id);
                    }
                });
        return imbalanced;
    }

    /**
     * Writes the in-sync set a bucket's leader asks for (T50): only from the bucket's leader in its
     * epoch ({@link BucketReplicas#withIsr}), and a server held expired does not join (KIP-841: a
     * follower of a stopped or silent server may still fetch for a while; it rejoins once it
     * heartbeats again).
     *
     * @return the bucket's replicas as written
     * @throws FencedException if {@code sender} does not lead the bucket
     * @throws InvalidInputException if the set adds an expired server, or {@code withIsr} refuses
     */
    public BucketReplicas alterInSyncReplicas(
            int sender, TableBucket bucket, int leaderEpoch, List<Integer> isr) {
        return assignments.changeBucket(
                bucket,
                r -> {
                    if (r.leader() != sender) {
                        throw new FencedException(
                                "server "
                                        + sender
                                        + " does not lead bucket "
                                        + bucket
                                        + " (server "
                                        + r.leader()
                                        + " does, in epoch "
                                        + r.leaderEpoch()
                                        + ")");
                    }
                    for (int id : isr) {
                        if (!r.isr().contains(id) && !alive.test(id)) {
                            throw new InvalidInputException(
                                    "server "
                                            + id
                                            + " cannot rejoin the in-sync set of bucket "
                                            + bucket
                                            + ": it is expired (no heartbeat)");
                        }
                    }
                    return r.withIsr(leaderEpoch, isr).finishMove(alive);
                });
    }

    /** Applies {@code transition} to the concerned buckets; returns how many changed leader. */
    private int change(
            Predicate<BucketReplicas> concerned,
            UnaryOperator<BucketReplicas> transition,
            String why) {
        return change(concerned, transition, why, Integer.MAX_VALUE);
    }

    /** Applies {@code transition} to the concerned buckets until {@code maxMoves} leaders moved. */
    private int change(
            Predicate<BucketReplicas> concerned,
            UnaryOperator<BucketReplicas> transition,
            String why,
            int maxMoves) {
        int moved = 0;
        for (BucketAssignment a : assignments.all()) {
            for (int b = 0; b < a.bucketCount() && moved < maxMoves; b++) {
                BucketReplicas before = a.replicasOf(b);
                if (before.replicas().size() < 2 || !concerned.test(before)) {
                    continue;
                }
                TableBucket bucket = new TableBucket(a.tableId(), a.partitionId(), b);
                try {
                    BucketReplicas after =
                            assignments.changeBucket(
                                    bucket, r -> transition.apply(r).finishMove(alive));
                    if (after.leader() != before.leader()) {
                        moved++;
                        LOG.info(
                                "bucket {}: {}; leader {} -> {} in epoch {}, in sync {}",
                                bucket,
                                why,
                                before.leader(),
                                after.hasLeader() ? Integer.toString(after.leader()) : "none",
                                after.leaderEpoch(),
                                after.isr());
                    }
                } catch (TributaryException e) {
                    // the table went meanwhile, or the metadata refused: the next change retries
                    LOG.warn("bucket {}: cannot apply that {}: {}", bucket, why, e.toString());
                }
            }
        }
        return moved;
    }
}

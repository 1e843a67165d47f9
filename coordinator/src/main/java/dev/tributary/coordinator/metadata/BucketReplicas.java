package dev.tributary.coordinator.metadata;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The replicas of one bucket and which of them leads (T50), as the coordinator metadata records
 * them: the leader takes writes and serves reads, followers copy its log, and the in-sync set holds
 * the replicas that have every acknowledged record. Only a member of the in-sync set ever becomes
 * leader (no unclean election), and every leader change raises the leader epoch, with which
 * replicas fence a deposed leader and cut a divergent tail.
 *
 * <p>The transitions are the methods below; each returns a new value and refuses what would break
 * the rules above. When no in-sync replica is alive the bucket has no leader ({@link #NO_LEADER})
 * and keeps its in-sync set as it was, since any of those replicas may hold acknowledged records
 * the others lack: the first of them to come back leads again.
 *
 * <p>A bucket moves to other servers in two steps ({@link #moveTo}, {@link #finishMove}): first its
 * replicas are the old ones plus the new ones, the new ones outside the in-sync set, so they copy
 * the leader's log as followers and join the in-sync set by the leader's usual rule; once every
 * replica of the target is in sync, the replicas become the target. Until then the old replicas
 * keep every guarantee they had.
 *
 * @param replicas the servers holding a copy, distinct, the preferred leader first
 * @param leader the leading server, a member of {@code isr}, or {@link #NO_LEADER}
 * @param leaderEpoch raised by every leader change, from 0
 * @param isr the in-sync replicas, a non-empty subset of {@code replicas} in their order
 * @param target the replicas the bucket is moving to, a subset of {@code replicas}; empty when it
 *     is not moving
 */
public record BucketReplicas(
        List<Integer> replicas,
        int leader,
        int leaderEpoch,
        List<Integer> isr,
        List<Integer> target) {
    /** The leader of a bucket none of whose in-sync replicas is alive. */
    public static final int NO_LEADER = -1;

    public BucketReplicas {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
        target = List.copyOf(target);
        if (replicas.isEmpty() || new HashSet<>(replicas).size() != replicas.size()) {
            throw new InvalidInputException(
                    "a bucket's replicas are one or more distinct servers, not " + replicas);
        }
        for (int s : replicas) {
            if (s < 0) {
                throw new InvalidInputException("a server id is never negative: " + s);
            }
        }
        if (isr.isEmpty() || !replicas.containsAll(isr) || !inReplicaOrder(replicas, isr)) {
            throw new InvalidInputException(
                    "in-sync set " + isr + " is not a non-empty subset of replicas " + replicas);
        }
        if (leader != NO_LEADER && !isr.contains(leader)) {
            throw new InvalidInputException(
                    "leader " + leader + " is not in the in-sync set " + isr);
        }
        if (leaderEpoch < 0) {
            throw new InvalidInputException("a leader epoch is never negative: " + leaderEpoch);
        }
        if (!replicas.containsAll(target) || new HashSet<>(target).size() != target.size()) {
            throw new InvalidInputException(
                    "move target " + target + " is not made of distinct replicas " + replicas);
        }
    }

    /** A bucket that is not moving. */
    public BucketReplicas(List<Integer> replicas, int leader, int leaderEpoch, List<Integer> isr) {
        this(replicas, leader, leaderEpoch, isr, List.of());
    }

    /** One replica on {@code server}, leading in epoch 0 (a lone server's bucket). */
    public static BucketReplicas single(int server) {
        return new BucketReplicas(List.of(server), server, 0, List.of(server));
    }

    /** A new bucket: every replica in sync, the first leading in epoch 0. */
    public static BucketReplicas initial(List<Integer> replicas) {
        return new BucketReplicas(replicas, replicas.get(0), 0, replicas);
    }

    public boolean hasLeader() {
        return leader != NO_LEADER;
    }

    /**
     * The metadata after {@code server} was found dead (its registration expired): it leaves the
     * in-sync set unless it is the last member; if it led, the first alive in-sync replica leads in
     * the next epoch, or nobody does.
     *
     * @param alive whether a server is alive now
     */
    public BucketReplicas afterServerDied(int server, IntPredicate alive) {
        if (!hasLeader() || !isr.contains(server)) {
            // (without a leader every member may hold acknowledged records: none is dropped)
            return this;
        }
        List<Integer> kept = new ArrayList<>(isr);
        kept.removeIf(s -> s == server);
        if (leader != server) {
            return kept.isEmpty() ? this : with(leader, leaderEpoch, kept);
        }
        for (int candidate : kept) {
            if (alive.test(candidate)) {
                return with(candidate, leaderEpoch + 1, kept);
            }
        }
        // no in-sync replica alive: keep every member, any of them may hold acknowledged records
        return with(NO_LEADER, leaderEpoch + 1, isr);
    }

    /**
     * The metadata after {@code server} came back without its data (T53: a wiped or replaced disk):
     * it leaves the in-sync set, since it holds none of the records it was acknowledged for, and
     * rejoins only through its leader once it copied them again. A bucket it led, or one without a
     * leader, is led by the first alive in-sync replica of the others in the next epoch. If it was
     * the last in-sync replica the acknowledged records are gone with its disk: the bucket keeps no
     * leader (only an unclean election could give it one).
     *
     * @param alive whether a server is alive now
     */
    public BucketReplicas afterServerLostData(int server, IntPredicate alive) {
        if (!isr.contains(server)) {
            return this;
        }
        List<Integer> kept = new ArrayList<>(isr);
        kept.removeIf(s -> s == server);
        if (kept.isEmpty()) {
            return leader == server ? with(NO_LEADER, leaderEpoch + 1, isr) : this;
        }
        if (hasLeader() && leader != server) {
            return with(leader, leaderEpoch, kept);
        }
        for (int candidate : kept) {
            if (alive.test(candidate)) {
                return with(candidate, leaderEpoch + 1, kept);
            }
        }
        return with(NO_LEADER, hasLeader() ? leaderEpoch + 1 : leaderEpoch, kept);
    }

    /**
     * The metadata after {@code server} came back: if the bucket has no leader and the server is in
     * sync, it leads in the next epoch, and the in-sync members still dead leave the set (the
     * leader holds every acknowledged record; they rejoin once caught up, as a dead follower of a
     * led bucket does). A server outside the in-sync set rejoins it only through its leader's
     * {@link #withIsr} once it has caught up.
     *
     * @param alive whether a server is alive now
     */
    public BucketReplicas afterServerReturned(int server, IntPredicate alive) {
        if (hasLeader() || !isr.contains(server)) {
            return this;
        }
        List<Integer> kept = new ArrayList<>(isr);
        kept.removeIf(s -> s != server && !alive.test(s));
        return with(server, leaderEpoch + 1, kept);
    }

    /**
     * Hands the leadership back to the preferred leader, the first replica, in the next epoch once
     * it is in sync again and may lead (alive, not draining): after a failover the leaders gather
     * on the servers that stayed, and without this a server that returns would lead nothing. Safe
     * as any in-sync replica is: it holds every acknowledged record. Unchanged while the bucket
     * moves (its replicas are changing), has no leader, or is led by its first replica already.
     *
     * @param mayLead whether a server may take a leadership now
     */
    public BucketReplicas withPreferredLeader(IntPredicate mayLead) {
        int preferred = replicas.get(0);
        if (moving()
                || !hasLeader()
                || leader == preferred
                || !isr.contains(preferred)
                || !mayLead.test(preferred)) {
            return this;
        }
        return with(preferred, leaderEpoch + 1, isr);
    }

    /**
     * The in-sync set the leader of {@code leaderEpoch} asks for (it shrinks when a follower lags,
     * grows when one caught up).
     *
     * @throws FencedException if the request comes from another epoch than the current one
     * @throws InvalidInputException if the set is not made of replicas or drops the leader
     */
    public BucketReplicas withIsr(int requesterEpoch, List<Integer> newIsr) {
        if (requesterEpoch != leaderEpoch || !hasLeader()) {
            throw new FencedException(
                    "an in-sync set change from leader epoch "
                            + requesterEpoch
                            + " is stale: the bucket is at epoch "
                            + leaderEpoch
                            + (hasLeader() ? ", led by server " + leader : ", with no leader"));
        }
        if (!newIsr.contains(leader)) {
            throw new InvalidInputException(
                    "in-sync set " + newIsr + " drops its leader " + leader);
        }
        Set<Integer> asked = new HashSet<>(newIsr);
        List<Integer> ordered = new ArrayList<>(replicas);
        ordered.removeIf(r -> !asked.contains(r));
        if (ordered.size() != asked.size()) {
            throw new InvalidInputException(
                    "in-sync set " + newIsr + " names servers that are not replicas " + replicas);
        }
        return with(leader, leaderEpoch, ordered);
    }

    /**
     * Whether the bucket has a leader and fewer in-sync replicas than it should: than its replicas,
     * or while it moves, than its target (the replicas being added are not in sync yet by design).
     */
    public boolean underReplicated() {
        return hasLeader() && isr.size() < (moving() ? target.size() : replicas.size());
    }

    /** Whether the bucket is moving to other replicas ({@link #moveTo}). */
    public boolean moving() {
        return !target.isEmpty();
    }

    /**
     * Starts moving the bucket to {@code newReplicas}: the servers not yet among its replicas
     * become replicas outside the in-sync set, and follow the leader; {@link #finishMove} ends the
     * move once they are in sync. A target of the current replicas in another order only changes
     * the preferred leader.
     *
     * <p>A bucket already moving gets the new target instead, and its replicas outside both the
     * in-sync set and the new target go at once (they hold nothing acknowledged that the in-sync
     * set lacks): a move onto a server that died, or is drained, is redirected, and one whose
     * target is the replicas it started from ends as soon as they are in sync again.
     *
     * @throws InvalidInputException if the target is empty or repeats a server
     */
    public BucketReplicas moveTo(List<Integer> newReplicas) {
        if (newReplicas.isEmpty() || new HashSet<>(newReplicas).size() != newReplicas.size()) {
            throw new InvalidInputException(
                    "a bucket moves to one or more distinct servers, not " + newReplicas);
        }
        List<Integer> all = new ArrayList<>(replicas);
        if (moving()) {
            all.removeIf(s -> !isr.contains(s) && !newReplicas.contains(s));
        }
        for (int s : newReplicas) {
            if (!all.contains(s)) {
                all.add(s);
            }
        }
        return new BucketReplicas(all, leader, leaderEpoch, isr, newReplicas);
    }

    /**
     * Cancels the move under way: the bucket moves back to the replicas it held before, which are
     * its first ones (a move only appends the servers it adds; one of those can stand in only for
     * an old replica that left the in-sync set and a redirect dropped). {@link #finishMove} ends it
     * as soon as they are in sync, usually at once; the added replicas that had not caught up go
     * now. Unchanged when the bucket is not moving.
     */
    public BucketReplicas cancelMove() {
        return moving() ? moveTo(replicas.subList(0, target.size())) : this;
    }

    /**
     * Ends the move once every replica of the target is in sync: the replicas become the target,
     * the in-sync set keeps its members that stay, and a leader that leaves hands over to the first
     * alive in-sync replica of the target in the next epoch. Unchanged while a target replica is
     * not in sync yet, or the bucket has no leader (the move waits for one).
     *
     * @param alive whether a server is alive now
     */
    public BucketReplicas finishMove(IntPredicate alive) {
        if (!moving() || !hasLeader() || !isr.containsAll(target)) {
            return this;
        }
        // every target replica is in sync, so the in-sync set becomes the target
        if (target.contains(leader)) {
            return new BucketReplicas(target, leader, leaderEpoch, target);
        }
        for (int candidate : target) {
            if (alive.test(candidate)) {
                return new BucketReplicas(target, candidate, leaderEpoch + 1, target);
            }
        }
        return this; // no replica of the target is alive to lead: the old leader keeps leading
    }

    private BucketReplicas with(int newLeader, int newEpoch, List<Integer> newIsr) {
        return new BucketReplicas(replicas, newLeader, newEpoch, newIsr, target);
    }

    private static boolean inReplicaOrder(List<Integer> replicas, List<Integer> subset) {
        int at = -1;
        for (int s : subset) {
            int i = replicas.indexOf(s);
            if (i <= at) {
                return false;
            }
            at = i;
        }
        return true;
    }
}

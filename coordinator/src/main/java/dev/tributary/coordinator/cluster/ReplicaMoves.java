package dev.tributary.coordinator.cluster;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;

/**
 * Plans where replicas move (issue 23's reassignment): off the servers being drained, then from the
 * servers holding most replicas to those holding fewest, until every server holds within one
 * replica of every other. A move replaces one server of a bucket by another in place, so a bucket
 * keeps its replication factor and its preferred leader's position. A bucket already moving is left
 * alone unless it is moving onto a server being drained: then its target is planned again (the move
 * is redirected, or undone when the replica it was leaving is the best place). Pure: the plan is a
 * function of the assignments and the servers given.
 */
public final class ReplicaMoves {
    private ReplicaMoves() {}

    /** One bucket moving from its replicas (or the target of its move under way) to others. */
    public record Move(TableBucket bucket, List<Integer> from, List<Integer> to) {
        public Move {
            from = List.copyOf(from);
            to = List.copyOf(to);
        }
    }

    /**
     * The moves that drain {@code draining} and then even out the replicas over {@code servers}.
     *
     * @param servers the servers that may receive replicas (alive, not draining)
     * @param draining the servers that must end up holding no replica
     * @throws InvalidInputException if a bucket cannot leave a draining server: every server that
     *     may receive replicas already holds one of it
     */
    public static List<Move> plan(
            List<BucketAssignment> assignments, SortedSet<Integer> servers, Set<Integer> draining) {
        Map<Integer, Integer> load = new HashMap<>();
        servers.forEach(s -> load.put(s, 0));
        Map<TableBucket, List<Integer>> targets = new LinkedHashMap<>();
        Map<TableBucket, List<Integer>> current = new HashMap<>();
        for (BucketAssignment a : assignments) {
            for (int b = 0; b < a.bucketCount(); b++) {
                BucketReplicas r = a.replicasOf(b);
                // a move under way counts where it goes
                List<Integer> holders = r.moving() ? r.target() : r.replicas();
                holders.forEach(s -> load.computeIfPresent(s, (k, v) -> v + 1));
                if (r.moving() && holders.stream().noneMatch(draining::contains)) {
                    continue;
                }
                TableBucket bucket = new TableBucket(a.tableId(), a.partitionId(), b);
                current.put(bucket, holders);
                targets.put(bucket, new ArrayList<>(holders));
            }
        }
        if (servers.isEmpty()) {
            if (targets.isEmpty()) {
                return List.of();
            }
            throw new InvalidInputException(
                    "no server can receive replicas: every registered one is expired or draining");
        }
        for (Map.Entry<TableBucket, List<Integer>> e : targets.entrySet()) {
            List<Integer> t = e.getValue();
            for (int i = 0; i < t.size(); i++) {
                if (draining.contains(t.get(i))) {
                    int to = leastLoaded(servers, load, t);
                    if (to < 0) {
                        throw new InvalidInputException(
                                "bucket "
                                        + e.getKey()
                                        + " cannot leave server "
                                        + t.get(i)
                                        + ": each of the servers "
                                        + servers
                                        + " holds a replica of it already; add a server first");
                    }
                    t.set(i, to);
                    load.merge(to, 1, Integer::sum);
                }
            }
        }
        while (true) {
            int most = servers.first();
            int least = servers.first();
            for (int s : servers) {
                most = load.get(s) > load.get(most) ? s : most;
                least = load.get(s) < load.get(least) ? s : least;
            }
            if (load.get(most) - load.get(least) <= 1 || !moveOne(targets, most, least)) {
                break;
            }
            load.merge(most, -1, Integer::sum);
            load.merge(least, 1, Integer::sum);
        }
        List<Move> moves = new ArrayList<>();
        targets.forEach(
                (bucket, t) -> {
                    if (!t.equals(current.get(bucket))) {
                        moves.add(new Move(bucket, current.get(bucket), t));
                    }
                });
        return moves;
    }

    /**
     * Moves one replica of some bucket from {@code from} to {@code to}, a follower's if one can (a
     * leader's move changes the leader); false if none can.
     */
    private static boolean moveOne(Map<TableBucket, List<Integer>> targets, int from, int to) {
        for (boolean leaders : new boolean[] {false, true}) {
            for (List<Integer> t : targets.values()) {
                int at = t.indexOf(from);
                if (at >= 0 && (at == 0) == leaders && !t.contains(to)) {
                    t.set(at, to);
                    return true;
                }
            }
        }
        return false;
    }

    private static int leastLoaded(
            SortedSet<Integer> servers, Map<Integer, Integer> load, List<Integer> holding) {
        int best = -1;
        for (int s : servers) {
            if (!holding.contains(s) && (best < 0 || load.get(s) < load.get(best))) {
                best = s;
            }
        }
        return best;
    }
}

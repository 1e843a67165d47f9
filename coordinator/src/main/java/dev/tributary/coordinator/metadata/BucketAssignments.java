package dev.tributary.coordinator.metadata;

import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.BucketAssignment.Group;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.StoredState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;

/**
 * Which server holds each bucket (T49): the coordinator assigns the buckets of every new
 * unpartitioned table and of every new partition to the registered servers, balanced by count over
 * the whole cluster, and writes the assignment to the {@link MetadataStore} before it becomes
 * visible. A lone server is assigned every bucket. Assignments do not move when servers join.
 *
 * <p>A table and its assignment are two records: a crash between them, a table created before any
 * server registered, or metadata written before assignments existed leaves buckets without one,
 * which {@link #assignMissing} fills in once a server registers. Not thread safe for writes: runs
 * on the coordinator's event loop; lookups may come from any thread.
 */
public final class BucketAssignments {
    private final MetadataStore store;
    private IntPredicate skipped = id -> false;
    private final Map<Group, BucketAssignment> byGroup = new ConcurrentHashMap<>();

    /** Buckets per server, kept with {@link #byGroup} so an assignment does not count them all. */
    private final Map<Integer, Integer> load = new ConcurrentHashMap<>();

    public BucketAssignments(MetadataStore store, StoredState state) {
        this.store = store;
        state.assignments().values().forEach(this::put);
    }

    /**
     * Assigns the buckets of an unpartitioned table, or of one partition of a partitioned table,
     * unless they already are.
     *
     * @param partitionId the partition, or {@link TableBucket#NO_PARTITION}
     * @return the assignment; empty if no server registered yet, or the table or partition no
     *     longer exists in the store
     */
    public Optional<BucketAssignment> assign(TableInfo table, long partitionId) {
        Group group = new Group(table.tableId(), partitionId);
        BucketAssignment existing = byGroup.get(group);
        if (existing != null) {
            return Optional.of(existing);
        }
        Map<Integer, ServerRegistration> registered = store.servers();
        SortedSet<Integer> servers = new TreeSet<>(registered.keySet());
        if (servers.isEmpty()) {
            return Optional.empty();
        }
        // the rules refused a factor above the registered servers when the table was created
        int rf = Math.min(ReplicationRules.replicationFactor(table.descriptor()), servers.size());
        // draining and expired servers get no new buckets while enough others are left: every
        // bucket needs its copies, on them if need be (a drained server then names the table)
        SortedSet<Integer> notDraining = new TreeSet<>(servers);
        notDraining.removeIf(id -> registered.get(id).draining());
        SortedSet<Integer> eligible = new TreeSet<>(notDraining);
        eligible.removeIf(skipped::test);
        if (eligible.size() >= rf) {
            servers = eligible;
        } else if (notDraining.size() >= rf) {
            servers = notDraining;
        }
        List<BucketReplicas> buckets = new ArrayList<>();
        for (List<Integer> replicas :
                balance(table.descriptor().bucketCount(), rf, servers, load, leaders())) {
            buckets.add(BucketReplicas.initial(replicas));
        }
        BucketAssignment a = new BucketAssignment(table.tableId(), partitionId, buckets);
        if (!store.putAssignment(a)) {
            return Optional.empty();
        }
        put(a);
        return Optional.of(a);
    }

    /**
     * Changes one bucket's replicas (its in-sync set, or its leader after a server died, T50) and
     * writes the group's assignment with the change before it becomes visible.
     *
     * @return the bucket's replicas as written
     * @throws NotFoundException if the bucket has no assignment (its table or partition is gone)
     */
    public BucketReplicas changeBucket(TableBucket bucket, UnaryOperator<BucketReplicas> change) {
        BucketAssignment a = byGroup.get(new Group(bucket.tableId(), bucket.partitionId()));
        if (a == null || bucket.bucket() >= a.bucketCount()) {
            throw new NotFoundException("bucket " + bucket + " has no assignment");
        }
        BucketReplicas before = a.replicasOf(bucket.bucket());
        BucketReplicas after = change.apply(before);
        if (after.equals(before)) {
            return before;
        }
        BucketAssignment next = a.withBucket(bucket.bucket(), after);
        if (!store.putAssignment(next)) {
            throw new NotFoundException("the table or partition of bucket " + bucket + " is gone");
        }
        put(next);
        return after;
    }

    /**
     * Assigns every unpartitioned table and every partition in {@code state} that has no assignment
     * yet.
     *
     * @return how many assignments were written
     */
    public int assignMissing(StoredState state) {
        int written = 0;
        for (TableInfo t : state.tables().values()) {
            if (!t.descriptor().isPartitioned()
                    && !byGroup.containsKey(new Group(t.tableId(), TableBucket.NO_PARTITION))) {
                written += assign(t, TableBucket.NO_PARTITION).isPresent() ? 1 : 0;
            }
        }
        for (PartitionInfo p : state.partitions().values()) {
            TableInfo t = state.tables().get(p.tableId());
            if (t != null && !byGroup.containsKey(new Group(p.tableId(), p.partitionId()))) {
                written += assign(t, p.partitionId()).isPresent() ? 1 : 0;
            }
        }
        return written;
    }

    /**
     * New buckets go to other servers than those {@code skip} names (e.g. expired ones, T49) while
     * enough others are registered; draining servers are skipped first.
     */
    public void skipServersWhen(IntPredicate skip) {
        this.skipped = skip;
    }

    /** The assignment of a table's buckets, or of one partition's. */
    public Optional<BucketAssignment> of(long tableId, long partitionId) {
        return Optional.ofNullable(byGroup.get(new Group(tableId, partitionId)));
    }

    /** Every assignment, ordered by table and partition. */
    public List<BucketAssignment> all() {
        return List.copyOf(new TreeMap<>(byGroup).values());
    }

    /** The number of replicas assigned to each server (servers without any are absent). */
    public Map<Integer, Integer> load() {
        return Map.copyOf(load);
    }

    /** Forgets a dropped table's assignments (the store removed them with the table). */
    public void forgetTable(long tableId) {
        for (Group g : List.copyOf(byGroup.keySet())) {
            if (g.tableId() == tableId) {
                remove(g);
            }
        }
    }

    /** Forgets a removed partition's assignment (the store removed it with the partition). */
    public void forgetPartition(long tableId, long partitionId) {
        remove(new Group(tableId, partitionId));
    }

    private void put(BucketAssignment a) {
        BucketAssignment before = byGroup.put(a.group(), a);
        if (before != null) {
            count(before, -1);
        }
        count(a, 1);
    }

    private void remove(Group g) {
        BucketAssignment a = byGroup.remove(g);
        if (a != null) {
            count(a, -1);
        }
    }

    private void count(BucketAssignment a, int sign) {
        for (BucketReplicas b : a.buckets()) {
            for (int s : b.replicas()) {
                load.merge(s, sign, (x, y) -> x + y == 0 ? null : x + y);
            }
        }
    }

    /** Buckets led per server, over every assignment. */
    private Map<Integer, Integer> leaders() {
        Map<Integer, Integer> leads = new HashMap<>();
        for (BucketAssignment a : byGroup.values()) {
            for (BucketReplicas b : a.buckets()) {
                if (b.hasLeader()) {
                    leads.merge(b.leader(), 1, Integer::sum);
                }
            }
        }
        return leads;
    }

    /**
     * The replicas of each bucket: each replica to the server holding the fewest replicas among
     * those the bucket is not on yet, counting those already assigned and those assigned so far in
     * this call; ties go to the lowest id, so equal servers take a new table's buckets round robin
     * and a bucket's replicas land on distinct servers. The replica leading fewest buckets so far
     * comes first, and leads: with every server holding a replica of every bucket, leadership still
     * rotates.
     *
     * @param replicationFactor replicas per bucket, at most the number of servers
     * @param load replicas already held per server; servers missing from it hold none
     * @param leads buckets already led per server; servers missing from it lead none
     */
    static List<List<Integer>> balance(
            int buckets,
            int replicationFactor,
            SortedSet<Integer> servers,
            Map<Integer, Integer> load,
            Map<Integer, Integer> leads) {
        if (servers.size() < replicationFactor || replicationFactor < 1) {
            throw new IllegalArgumentException(
                    replicationFactor + " replicas per bucket need as many servers: " + servers);
        }
        Map<Integer, Integer> held = new HashMap<>();
        servers.forEach(s -> held.put(s, load.getOrDefault(s, 0)));
        Map<Integer, Integer> led = new HashMap<>(leads);
        List<List<Integer>> out = new ArrayList<>(buckets);
        for (int b = 0; b < buckets; b++) {
            List<Integer> replicas = new ArrayList<>(replicationFactor);
            for (int r = 0; r < replicationFactor; r++) {
                int best = -1;
                for (int s : servers) {
                    if (!replicas.contains(s) && (best < 0 || held.get(s) < held.get(best))) {
                        best = s;
                    }
                }
                replicas.add(best);
                held.merge(best, 1, Integer::sum);
            }
            int leader = replicas.get(0);
            for (int r : replicas) {
                int mine = led.getOrDefault(r, 0);
                int theirs = led.getOrDefault(leader, 0);
                if (mine < theirs || (mine == theirs && r < leader)) {
                    leader = r;
                }
            }
            replicas.remove(Integer.valueOf(leader));
            replicas.add(0, leader);
            led.merge(leader, 1, Integer::sum);
            out.add(replicas);
        }
        return out;
    }
}

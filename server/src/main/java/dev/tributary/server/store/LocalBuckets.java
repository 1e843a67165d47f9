package dev.tributary.server.store;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.AppliedTable;
import dev.tributary.coordinator.store.MetadataListener;
import dev.tributary.coordinator.store.MetadataLog;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.server.replica.ReplicaManager;
import dev.tributary.storage.BucketStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this server's open buckets and its {@link TableCatalog} equal to what the applied metadata
 * assigns to it (T49): the one path by which a table, a partition, a new schema or a drop reaches
 * the store, on every server alike, whether the change came from this server's coordinator or from
 * the replicated log (KRaft's brokers applying metadata deltas). DDL only writes records.
 *
 * <p>A bucket group (a table's buckets, or one partition's) is held here when its assignment names
 * this server, or, not assigned yet, when this server holds unassigned buckets: the server that
 * runs the coordinator does, which is what a lone server and a cluster of one are, so a new table
 * is open before its assignment record follows and a table from before assignments existed keeps
 * serving until it is assigned. A partitioned table is known here (its schema registered, no
 * buckets) when any of its partitions is held here or this server holds unassigned buckets.
 *
 * <p>A group open here whose replicas all moved to other servers (a rebalance or drain) stops
 * serving when the metadata change that ends the move applies, and its copy is deleted {@link
 * #deleteMovedAwayCopies later} unless the group came back meanwhile: a restarting server applies
 * the metadata it applied before once more, a move away and a later move back included, and must
 * not delete the data it holds now on the way (found by the fault soak). The move ended only after
 * its new replicas were in sync, so nothing acknowledged is lost with the copy. A bucket whose
 * replicas moved away while other buckets of its group stay here is emptied the same way ({@link
 * AwayCopies}), and keeps refusing writes. A group open here that the metadata assigns elsewhere
 * without having assigned it here (served before its assignment existed) keeps its copy and keeps
 * serving, with a warning. Called on the metadata store's apply thread. A change that fails (a
 * bucket that cannot be opened) is logged by the store and tried again at the table's next change
 * or the next reset; a failure at the first reset fails the server's start, as any table that
 * cannot be recovered does.
 */
public final class LocalBuckets implements MetadataListener {
    private static final Logger LOG = LoggerFactory.getLogger(LocalBuckets.class);
    private static final long ALL_PARTITIONS = Long.MIN_VALUE;

    private final int serverId;
    private final boolean holdsUnassigned;
    private final BucketStore store;
    private final TableCatalog catalog;
    private final IntFunction<Optional<String>> addresses;

    /** The largest table id the applied metadata named (dropped tables too): ids only grow. */
    private volatile long maxTableIdSeen;

    /**
     * Whether the applied metadata may lag the cluster's: on a server of several voters. A server
     * that coordinates from its start (a lone server, a single voter) holds the only copy, so an id
     * it does not know does not exist.
     */
    private final boolean metadataMayLag;

    private volatile ReplicaManager replicas;

    /** Groups whose replicas all moved away, open but not served. */
    private final AwayCopies<Group> movedAway;

    /**
     * Buckets whose replicas moved away from this server while it keeps other buckets of their
     * group: each is emptied when due, as {@link #movedAway} groups are deleted.
     */
    private final AwayCopies<TableBucket> bucketsMovedAway;

    /** A table's buckets ({@link TableBucket#NO_PARTITION}) or one partition's. */
    record Group(long tableId, long partitionId) {}

    private final MetadataLog metadata;

    /**
     * The metadata log's last index at the last reset (the start, or a snapshot installed from the
     * leader: both skip the changes that delete copies), -1 once checked: when applied that far,
     * the disk is checked for {@link StrayCopies}.
     */
    private long strayCopiesAfterIndex = -1;

    /** Every table of the metadata, held here or not: who holds a bucket. */
    private final Map<Long, AppliedTable> applied = new ConcurrentHashMap<>();

    /** Every partitioned table's partitions by name, for the write and read paths. */
    private final Map<Long, Map<String, PartitionInfo>> partitionsByName =
            new ConcurrentHashMap<>();

    /**
     * @param serverId this server's id in the metadata (0 for a lone server)
     * @param holdsUnassigned whether buckets not assigned yet are this server's (it runs the
     *     coordinator from its start, so its metadata is the only copy and never lags)
     * @param addresses the registered RPC address of a server id, for errors naming a bucket's
     *     server
     * @param metadata the metadata this follows, for how far it has applied its log
     */
    public LocalBuckets(
            int serverId,
            boolean holdsUnassigned,
            BucketStore store,
            TableCatalog catalog,
            IntFunction<Optional<String>> addresses,
            MetadataLog metadata,
            Clock clock) {
        this.serverId = serverId;
        this.metadata = metadata;
        this.movedAway = new AwayCopies<>(metadata, clock);
        this.bucketsMovedAway = new AwayCopies<>(metadata, clock);
        this.holdsUnassigned = holdsUnassigned;
        this.metadataMayLag = !holdsUnassigned;
        this.store = store;
        this.catalog = catalog;
        this.addresses = addresses;
    }

    /**
     * Gives the replicated buckets held here their leader and follower roles from now on (T50), as
     * the metadata applied after this call names them.
     */
    public void useReplicas(ReplicaManager replicas) {
        this.replicas = replicas;
    }

    /**
     * The table with this id, for a request about its buckets.
     *
     * @throws NotLeaderForBucketException if the table exists but none of its buckets is held here
     * @throws dev.tributary.common.exception.NotFoundException if no such table exists
     */
    public TableInfo table(long tableId) {
        Optional<TableInfo> local = catalog.find(tableId);
        if (local.isPresent()) {
            return local.get();
        }
        AppliedTable elsewhere = applied.get(tableId);
        if (elsewhere != null) {
            throw new NotLeaderForBucketException(
                    "no bucket of table "
                            + elsewhere.table().path()
                            + " is held by this server ("
                            + serverId
                            + "); its buckets are on "
                            + holders(elsewhere)
                            + ": send the request to the bucket's server");
        }
        checkNotStillToCome(tableId);
        return catalog.get(tableId);
    }

    /**
     * Refuses as retriable a table id above every id this server's metadata has seen, where that
     * metadata may lag: the table was created after what this server applied so far (it restarted,
     * or lost its data, and catches up), not dropped.
     */
    private void checkNotStillToCome(long tableId) {
        if (metadataMayLag && tableId > maxTableIdSeen) {
            throw new RetriableException(
                    "table id "
                            + tableId
                            + " is not known to this server yet: its metadata is catching up;"
                            + " retry");
        }
    }

    /**
     * Checks that this server holds a bucket before a write, read or lookup touches it.
     *
     * @param partitionId the partition, or {@link TableBucket#NO_PARTITION}
     * @throws NotLeaderForBucketException naming the server that holds it, if another one does (or
     *     none yet, and this server does not take unassigned buckets)
     */
    public void requireHeld(TableInfo table, long partitionId, int bucket) {
        AppliedTable t = applied.get(table.tableId());
        Optional<BucketAssignment> a = t == null ? Optional.empty() : t.assignment(partitionId);
        if (a.isEmpty()) {
            if (holdsUnassigned) {
                return;
            }
            throw new NotLeaderForBucketException(
                    describe(table, partitionId, bucket)
                            + " is not assigned to a server yet; retry shortly");
        }
        if (bucket < 0 || bucket >= a.get().bucketCount()) {
            return; // the caller's range check names the problem
        }
        int holder = a.get().serverOf(bucket);
        if (holder == BucketReplicas.NO_LEADER) {
            throw new NotLeaderForBucketException(
                    describe(table, partitionId, bucket)
                            + " has no leader: none of its in-sync replicas "
                            + a.get().replicasOf(bucket).isr()
                            + " is alive; retry once one of them is back");
        }
        if (holder != serverId) {
            throw new NotLeaderForBucketException(
                    describe(table, partitionId, bucket)
                            + " is held by "
                            + server(holder)
                            + ", not by this server ("
                            + serverId
                            + "): send the request there");
        }
    }

    /**
     * Whether every bucket of a table (or of one of its partitions) is held by this server, as the
     * applied metadata says.
     */
    public boolean holdsAll(long tableId, long partitionId) {
        AppliedTable t = applied.get(tableId);
        if (t == null) {
            return false;
        }
        Optional<BucketAssignment> a = t.assignment(partitionId);
        return a.isEmpty()
                ? holdsUnassigned
                : a.get().servers().stream().allMatch(s -> s == serverId);
    }

    /** Every table of the metadata, held here or not. */
    public List<TableInfo> allTables() {
        return applied.values().stream().map(AppliedTable::table).toList();
    }

    /** A table of the metadata, held here or not (for what any server may say about it). */
    public Optional<TableInfo> known(long tableId) {
        return Optional.ofNullable(applied.get(tableId)).map(AppliedTable::table);
    }

    /**
     * The partitions of a table as this server's applied metadata holds them (every server follows
     * the metadata, so this needs no coordinator); empty for an unknown or unpartitioned table.
     */
    public List<PartitionInfo> partitions(long tableId) {
        AppliedTable t = applied.get(tableId);
        return t == null ? List.of() : t.partitions();
    }

    /** A partition of a table by its name, as the applied metadata holds it. */
    public Optional<PartitionInfo> partition(long tableId, String name) {
        return Optional.ofNullable(partitionsByName.getOrDefault(tableId, Map.of()).get(name));
    }

    /**
     * A partition of {@code table} by the name a request gave: as written, or in its normalized
     * form (the values in the partition columns' formats).
     *
     * @throws InvalidInputException when the name is not a partition of the table's columns
     */
    public Optional<PartitionInfo> partitionNamed(TableInfo table, String name) {
        Optional<PartitionInfo> p = partition(table.tableId(), name);
        if (p.isPresent()) {
            return p;
        }
        PartitionSpec spec =
                PartitionRouter.of(table.descriptor()).normalize(PartitionSpec.parse(name));
        return partition(table.tableId(), spec.name());
    }

    /** This server's id in the metadata (0 for a lone server). */
    public int serverId() {
        return serverId;
    }

    /**
     * One bucket's holder as this server's applied metadata says.
     *
     * @param serverId the leading server, or {@link BucketReplicas#NO_LEADER}
     * @param rpcAddress the leader's registered RPC address, if known
     * @param replicas the bucket's replicas, in-sync set and leader epoch
     */
    public record Leader(
            int bucket, int serverId, Optional<String> rpcAddress, BucketReplicas replicas) {}

    /**
     * The holders of a table's buckets or of one partition's.
     *
     * @param partitionId the partition, or {@link TableBucket#NO_PARTITION}
     * @param bucketCount the buckets of the table (of each partition)
     * @param leaders by ascending bucket; a bucket no server serves yet is absent
     */
    public record Leaders(long partitionId, int bucketCount, List<Leader> leaders) {
        public Leaders {
            leaders = List.copyOf(leaders);
        }
    }

    /**
     * Which server holds each bucket of a table (unpartitioned: {@code partition} empty) or of one
     * of its partitions, named by id or name, from the metadata this server applied. A bucket not
     * assigned yet is this server's when it takes unassigned buckets, else absent (no server serves
     * it yet). Answers about tables held elsewhere too: that is what a client asks it for.
     *
     * @param partitionId the partition's id, or {@link TableBucket#NO_PARTITION} to name it by
     *     {@code partitionName} or for an unpartitioned table
     * @param partitionName the partition's name, or {@code null}
     * @throws dev.tributary.common.exception.NotFoundException if the table does not exist
     * @throws dev.tributary.common.exception.PartitionNotFoundException if the partition does not
     * @throws dev.tributary.common.exception.InvalidInputException if a partition is named for an
     *     unpartitioned table or none for a partitioned one
     */
    public Leaders leaders(long tableId, long partitionId, String partitionName) {
        return leaders(tableId, partitionId, partitionName, false);
    }

    /**
     * Like {@link #leaders(long, long, String)}; with {@code withLeaderless} a bucket whose in-sync
     * replicas are all down is listed too, with {@link BucketReplicas#NO_LEADER}: an operator asks
     * to see those, a client routing writes skips them.
     */
    public Leaders leaders(
            long tableId, long partitionId, String partitionName, boolean withLeaderless) {
        AppliedTable t = applied.get(tableId);
        if (t == null) {
            checkNotStillToCome(tableId);
            throw new NotFoundException(
                    "table id "
                            + tableId
                            + " does not exist (dropped or never created); describe the table"
                            + " again to get its current id");
        }
        TableInfo table = t.table();
        boolean named = partitionId != TableBucket.NO_PARTITION || partitionName != null;
        if (table.descriptor().isPartitioned() != named) {
            throw new InvalidInputException(
                    table.descriptor().isPartitioned()
                            ? "table " + table.path() + " is partitioned: name the partition"
                            : "table " + table.path() + " is not partitioned; name no partition");
        }
        long pid = named ? partitionOf(t, partitionId, partitionName) : TableBucket.NO_PARTITION;
        int count = table.descriptor().bucketCount();
        Optional<BucketAssignment> a = t.assignment(pid);
        List<Leader> out = new ArrayList<>(count);
        if (a.isEmpty()) {
            if (holdsUnassigned) {
                for (int b = 0; b < count; b++) {
                    out.add(
                            new Leader(
                                    b,
                                    serverId,
                                    addresses.apply(serverId),
                                    BucketReplicas.single(serverId)));
                }
            }
        } else {
            for (int b = 0; b < Math.min(count, a.get().bucketCount()); b++) {
                BucketReplicas r = a.get().replicasOf(b);
                if (r.hasLeader()) {
                    out.add(new Leader(b, r.leader(), addresses.apply(r.leader()), r));
                } else if (withLeaderless) {
                    out.add(new Leader(b, BucketReplicas.NO_LEADER, Optional.empty(), r));
                }
            }
        }
        return new Leaders(pid, count, out);
    }

    /**
     * The buckets of one partition (or of the table), named.
     *
     * @param partition the partition's name; {@code null} for an unpartitioned table
     */
    public record NamedLeaders(String partition, Leaders leaders) {}

    /**
     * Every bucket of a table with its replicas, leaderless ones included (T50): the table's, or
     * those of its first {@code maxPartitions} partitions by name; empty for an unknown table.
     */
    public List<NamedLeaders> replicas(long tableId, int maxPartitions) {
        AppliedTable t = applied.get(tableId);
        if (t == null) {
            return List.of();
        }
        if (!t.table().descriptor().isPartitioned()) {
            return List.of(
                    new NamedLeaders(null, leaders(tableId, TableBucket.NO_PARTITION, null, true)));
        }
        return t.partitions().stream()
                .sorted(java.util.Comparator.comparing(PartitionInfo::name))
                .limit(maxPartitions)
                .map(p -> new NamedLeaders(p.name(), leaders(tableId, p.partitionId(), null, true)))
                .toList();
    }

    private long partitionOf(AppliedTable t, long partitionId, String name) {
        Optional<PartitionInfo> p =
                partitionId != TableBucket.NO_PARTITION
                        ? t.partitions().stream()
                                .filter(q -> q.partitionId() == partitionId)
                                .findFirst()
                        : partitionNamed(t.table(), name);
        return p.map(PartitionInfo::partitionId)
                .orElseThrow(
                        () ->
                                new PartitionNotFoundException(
                                        "partition "
                                                + (partitionId != TableBucket.NO_PARTITION
                                                        ? "id " + partitionId
                                                        : name)
                                                + " of table "
                                                + t.table().path()
                                                + " does not exist"));
    }

    private static String describe(TableInfo table, long partitionId, int bucket) {
        return "bucket "
                + bucket
                + (partitionId == TableBucket.NO_PARTITION ? "" : " of partition id " + partitionId)
                + " of table "
                + table.path();
    }

    private String server(int id) {
        return "server " + id + addresses.apply(id).map(a -> " at " + a).orElse("");
    }

    private String holders(AppliedTable t) {
        Set<Integer> ids = new java.util.TreeSet<>();
        t.assignments().values().forEach(a -> ids.addAll(a.servers()));
        ids.remove(BucketReplicas.NO_LEADER);
        return ids.isEmpty()
                ? "no server yet"
                : ids.stream().map(this::server).collect(Collectors.joining(", "));
    }

    @Override
    public synchronized void onReset(StoredState state) {
        strayCopiesAfterIndex = AwayCopies.lastLogIndex(metadata);
        Set<Long> gone = new HashSet<>();
        catalog.all().forEach(t -> gone.add(t.tableId()));
        gone.addAll(applied.keySet());
        for (AppliedTable t :
                AppliedTable.allOf(
                        state.tables().values(),
                        state.partitions().values(),
                        state.assignments())) {
            gone.remove(t.tableId());
            follow(t);
        }
        gone.forEach(this::remove);
        // last: while the tables are followed one by one (opening each takes a while on a
        // restarted or wiped server), a request for one not followed yet must be refused as
        // still to come, not as dropped (the fault soak's writers got NOT_FOUND for a live table)
        maxTableIdSeen = Math.max(maxTableIdSeen, state.maxTableId());
    }

    @Override
    public synchronized void onTableChanged(long tableId, Optional<AppliedTable> table) {
        if (table.isPresent()) {
            follow(table.get());
        } else {
            remove(tableId);
        }
    }

    private void follow(AppliedTable applied) {
        AppliedTable before = this.applied.put(applied.tableId(), applied);
        maxTableIdSeen = Math.max(maxTableIdSeen, applied.tableId());
        TableInfo t = applied.table();
        long id = t.tableId();
        boolean partitioned = t.descriptor().isPartitioned();
        boolean local = belongsHere(applied);
        boolean open = store.hasTable(id);
        Group whole = new Group(id, TableBucket.NO_PARTITION);
        if (local && movedAway.forget(whole)) {
            LOG.info("table {} (id {}) came back here; its copy is kept", t.path(), id);
        }
        if (!local && !open) {
            indexPartitions(applied);
            return;
        }
        if (!local && !partitioned) {
            if (movedAway.contains(whole)) {
                indexPartitions(applied);
                return;
            }
            if (movedAway(before, TableBucket.NO_PARTITION)) {
                forgetReplicaRoles(id, ALL_PARTITIONS);
                catalog.remove(id);
                movedAway.movedAway(whole);
                LOG.info(
                        "table {} (id {}) moved to other servers; its copy here is deleted unless"
                                + " it comes back",
                        t.path(),
                        id);
                indexPartitions(applied);
                return;
            }
            LOG.warn(
                    "table {} (id {}) is assigned to other servers but open here without having"
                            + " been assigned here; its copy is kept, and it keeps serving",
                    t.path(),
                    id);
        }
        // opens what is missing, applies a newer schema to what is open
        store.openTable(id, t.descriptor(), t.schemaId(), t.schema());
        if (!open) {
            LOG.info("opened table {} (id {})", t.path(), id);
        }
        if (partitioned) {
            // also when none of its partitions is held here any more: the last one may just have
            // been removed
            followPartitions(applied, before);
        }
        // roles first: a replicated bucket's log must not take a write as a single copy in the
        // moment between being published and getting its role (after a restart, a client whose
        // route still names this server as leader would be acknowledged a write nobody copies)
        applyReplicaRoles(applied);
        followBucketMoves(applied, before);
        catalog.put(t);
        indexPartitions(applied);
    }

    /**
     * Notes the buckets of groups held here whose replicas this change moved away from this server,
     * and forgets those that came back.
     */
    private void followBucketMoves(AppliedTable applied, AppliedTable before) {
        for (BucketAssignment a : applied.assignments().values()) {
            if (movedAway.contains(new Group(a.tableId(), a.partitionId()))
                    || !holds(applied, a.partitionId())) {
                continue; // the whole group's copy is handled as one
            }
            Optional<BucketAssignment> was =
                    before == null ? Optional.empty() : before.assignment(a.partitionId());
            for (int b = 0; b < a.bucketCount(); b++) {
                TableBucket bucket = new TableBucket(a.tableId(), a.partitionId(), b);
                if (a.replicasOf(b).replicas().contains(serverId)) {
                    if (bucketsMovedAway.forget(bucket)) {
                        LOG.info("bucket {} came back here; its copy is kept", bucket);
                    }
                } else if (was.isPresent()
                        && b < was.get().bucketCount()
                        && was.get().replicasOf(b).replicas().contains(serverId)
                        && !bucketsMovedAway.contains(bucket)) {
                    bucketsMovedAway.movedAway(bucket);
                    LOG.info(
                            "bucket {} moved to servers {}; its copy here is deleted unless it"
                                    + " comes back",
                            bucket,
                            a.replicasOf(b).replicas());
                }
            }
        }
    }

    private void applyReplicaRoles(AppliedTable applied) {
        ReplicaManager r = replicas;
        if (r == null) {
            return;
        }
        for (BucketAssignment a : applied.assignments().values()) {
            boolean open =
                    a.partitionId() == TableBucket.NO_PARTITION
                            ? store.hasTable(a.tableId())
                            : store.hasPartition(a.tableId(), a.partitionId());
            if (open && !movedAway.contains(new Group(a.tableId(), a.partitionId()))) {
                r.apply(a);
            }
        }
    }

    private void forgetReplicaRoles(long tableId, long partitionId) {
        ReplicaManager r = replicas;
        if (r != null) {
            r.forget(
                    b ->
                            b.tableId() == tableId
                                    && (partitionId == ALL_PARTITIONS
                                            || b.partitionId() == partitionId));
        }
    }

    /**
     * Publishes a table's partitions to the write and read paths: only once the store has opened
     * those held here, so a write never resolves a partition before it can be appended to.
     */
    private void indexPartitions(AppliedTable applied) {
        if (applied.table().descriptor().isPartitioned()) {
            Map<String, PartitionInfo> byName = new HashMap<>();
            applied.partitions().forEach(p -> byName.put(p.name(), p));
            partitionsByName.put(applied.tableId(), byName);
        }
    }

    private void followPartitions(AppliedTable applied, AppliedTable before) {
        long id = applied.tableId();
        Set<Long> inMetadata = new HashSet<>();
        for (PartitionInfo p : applied.partitions()) {
            inMetadata.add(p.partitionId());
            Group group = new Group(id, p.partitionId());
            if (!holds(applied, p.partitionId())) {
                if (store.hasPartition(id, p.partitionId())
                        && !movedAway.contains(group)
                        && movedAway(before, p.partitionId())) {
                    forgetReplicaRoles(id, p.partitionId());
                    movedAway.movedAway(group);
                    LOG.info(
                            "partition {} of {} moved to other servers; its copy here is deleted"
                                    + " unless it comes back",
                            p.name(),
                            applied.table().path());
                }
                continue;
            }
            movedAway.forget(group);
            if (!store.hasPartition(id, p.partitionId())) {
                store.openPartition(id, p.partitionId(), p.spec());
            }
            if (p.isDropping()) {
                // T33: a dropping partition takes no more writes, also after a restart
                store.sealPartition(id, p.partitionId());
            }
        }
        for (long open : List.copyOf(store.partitionIds(id))) {
            if (!inMetadata.contains(open)) {
                movedAway.forget(new Group(id, open));
                forgetReplicaRoles(id, open);
                store.dropPartition(id, open);
                LOG.info("removed partition id {} of {}", open, applied.table().path());
            }
        }
    }

    /**
     * Whether this server opens the table: it holds a bucket of it (of a partitioned table: of one
     * of its partitions, or new ones while it holds unassigned buckets). On a cluster a table with
     * fewer buckets than servers belongs to some servers only.
     */
    public boolean belongsHere(long tableId) {
        AppliedTable t = applied.get(tableId);
        return t != null && belongsHere(t);
    }

    private boolean belongsHere(AppliedTable applied) {
        return applied.table().descriptor().isPartitioned()
                ? holdsUnassigned
                        || applied.partitions().stream()
                                .anyMatch(p -> holds(applied, p.partitionId()))
                : holds(applied, TableBucket.NO_PARTITION);
    }

    /**
     * Whether the assignment before this change gave this server a replica of the group (called
     * when the current one gives it none: a move away ended). A group open here that was never
     * assigned here (served before its assignment existed) is not deleted.
     */
    private boolean movedAway(AppliedTable before, long partitionId) {
        return before != null
                && before.assignment(partitionId)
                        .map(
                                a ->
                                        a.buckets().stream()
                                                .anyMatch(b -> b.replicas().contains(serverId)))
                        .orElse(false);
    }

    /** Whether a replica of some bucket of the group is this server's (leader or follower). */
    private boolean holds(AppliedTable applied, long partitionId) {
        Optional<BucketAssignment> a = applied.assignment(partitionId);
        return a.isEmpty()
                ? holdsUnassigned
                : a.get().buckets().stream().anyMatch(b -> b.replicas().contains(serverId));
    }

    /**
     * Deletes the copies of groups whose replicas moved away at least {@code after} ago and did not
     * come back, once this server applied every metadata change its log held when they moved: a
     * move away seen while a restart replays the log is not final until the replay ends (run
     * periodically, off the metadata apply thread). The first call after the metadata caught up
     * since the start (or since a snapshot from the leader) also deletes the copies of tables and
     * partitions dropped while this server was away, and notes those that moved away meanwhile
     * ({@link StrayCopies}).
     */
    public synchronized void deleteMovedAwayCopies(Duration after) {
        if (strayCopiesAfterIndex >= 0 && metadata.appliedIndex() >= strayCopiesAfterIndex) {
            handle(StrayCopies.find(store, serverId, applied, maxTableIdSeen, this::holds));
            strayCopiesAfterIndex = -1; // a failure above is tried again at the next call
        }
        bucketsMovedAway.removeDue(after, this::emptyIfStillAway);
        movedAway.removeDue(after, this::deleteIfStillAway);
    }

    private void handle(StrayCopies.Found stray) {
        for (long id : stray.droppedTables()) {
            store.dropTable(id);
            LOG.info("table id {} was dropped while this server was away; removed its copy", id);
        }
        for (Group g : stray.droppedPartitions()) {
            store.dropPartition(g.tableId(), g.partitionId());
            LOG.info(
                    "partition id {} of table id {} was dropped while this server was away;"
                            + " removed its copy",
                    g.partitionId(),
                    g.tableId());
        }
        for (Group g : stray.groupsAway()) {
            movedAway.movedAway(g);
            LOG.info(
                    "table id {} (partition id {}) moved to other servers while this server was"
                            + " away; its copy here is deleted unless it comes back",
                    g.tableId(),
                    g.partitionId());
        }
        for (TableBucket b : stray.bucketsAway()) {
            bucketsMovedAway.movedAway(b);
            LOG.info(
                    "bucket {} moved to other servers while this server was away; its copy here"
                            + " is deleted unless it comes back",
                    b);
        }
    }

    /** Deletes the copy of a group that moved away, unless it belongs here again. */
    private void deleteIfStillAway(Group g) {
        AppliedTable t = applied.get(g.tableId());
        if (g.partitionId() == TableBucket.NO_PARTITION) {
            if (t == null || !belongsHere(t)) {
                store.dropTable(g.tableId());
                LOG.info("table id {} moved to other servers; removed its copy here", g.tableId());
            }
        } else if (t == null || !holds(t, g.partitionId())) {
            store.dropPartition(g.tableId(), g.partitionId());
            LOG.info(
                    "partition id {} of table id {} moved to other servers; removed its copy here",
                    g.partitionId(),
                    g.tableId());
        }
    }

    /**
     * Empties a bucket that moved away, if its group is still open and held here and the bucket is
     * not back; it keeps refusing writes.
     */
    private void emptyIfStillAway(TableBucket bucket) {
        AppliedTable t = applied.get(bucket.tableId());
        Optional<BucketAssignment> a =
                t == null ? Optional.empty() : t.assignment(bucket.partitionId());
        boolean open =
                bucket.isPartitioned()
                        ? store.hasPartition(bucket.tableId(), bucket.partitionId())
                        : store.hasTable(bucket.tableId());
        if (a.isEmpty()
                || !open
                || !holds(t, bucket.partitionId())
                || movedAway.contains(new Group(bucket.tableId(), bucket.partitionId()))) {
            return; // gone, or the whole group's copy is deleted as one
        }
        BucketReplicas now = a.get().replicasOf(bucket.bucket());
        if (now.replicas().contains(serverId)) {
            return;
        }
        store.resetBucket(bucket);
        ReplicaManager r = replicas;
        if (r != null) {
            r.refuseWrites(bucket, now.replicas());
        }
        LOG.info("bucket {} moved to servers {}; removed its copy here", bucket, now.replicas());
    }

    private void remove(long tableId) {
        movedAway.forgetIf(g -> g.tableId() == tableId);
        bucketsMovedAway.forgetIf(b -> b.tableId() == tableId);
        applied.remove(tableId);
        partitionsByName.remove(tableId);
        Optional<TableInfo> t = catalog.find(tableId);
        catalog.remove(tableId);
        if (t.isPresent() || store.hasTable(tableId)) {
            forgetReplicaRoles(tableId, ALL_PARTITIONS);
            store.dropTable(tableId);
            LOG.info(
                    "dropped table {} (id {})",
                    t.map(i -> i.path().toString()).orElse(""),
                    tableId);
        }
    }
}

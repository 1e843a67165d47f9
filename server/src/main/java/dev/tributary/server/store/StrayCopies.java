package dev.tributary.server.store;

import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.store.AppliedTable;
import dev.tributary.server.store.LocalBuckets.Group;
import dev.tributary.storage.BucketStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * The copies on this server's disk that the applied metadata no longer gives it. A server that was
 * away (stopped, cut off) while tables or partitions were dropped, or their replicas moved to other
 * servers, may learn only the end state, from a metadata snapshot: it never applies the changes at
 * which {@link LocalBuckets} deletes a copy, so without this look at its disk the copy stays for
 * ever. Run once the metadata applied here reached what its log held at the start, so that no
 * change still to be replayed brings a copy back.
 *
 * <p>A copy moved away counts only if it was a replica of a replicated bucket here (its log holds a
 * high watermark checkpoint, {@link BucketStore#replicatedBuckets}): a copy written as the only one
 * before assignments existed is kept, as {@link LocalBuckets} keeps it.
 */
final class StrayCopies {
    /**
     * What the disk holds that the metadata does not give this server.
     *
     * @param droppedTables tables the metadata dropped: their ids are at most the largest it named
     * @param droppedPartitions partitions of known tables that the metadata dropped
     * @param groupsAway groups (not open here) whose replicas are all on other servers now
     * @param bucketsAway buckets of groups open here whose replicas are on other servers now
     */
    record Found(
            List<Long> droppedTables,
            List<Group> droppedPartitions,
            List<Group> groupsAway,
            List<TableBucket> bucketsAway) {}

    private StrayCopies() {}

    /**
     * @param applied every table of the applied metadata
     * @param maxTableId the largest table id the metadata named, dropped tables included
     * @param holdsHere whether the metadata gives this server a replica of some bucket of a group
     */
    static Found find(
            BucketStore store,
            int serverId,
            Map<Long, AppliedTable> applied,
            long maxTableId,
            BiPredicate<AppliedTable, Long> holdsHere) {
        Found found =
                new Found(
                        new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (long id : store.storedTableIds()) {
            AppliedTable t = applied.get(id);
            if (t == null) {
                if (id <= maxTableId && !store.hasTable(id)) {
                    found.droppedTables().add(id);
                }
            } else if (!t.table().descriptor().isPartitioned()) {
                group(
                        store,
                        serverId,
                        t,
                        TableBucket.NO_PARTITION,
                        store.hasTable(id),
                        holdsHere,
                        found);
            } else {
                Set<Long> known = new HashSet<>();
                t.partitions().forEach(p -> known.add(p.partitionId()));
                for (long p : store.storedPartitionIds(id)) {
                    boolean open = store.hasPartition(id, p);
                    if (!known.contains(p)) {
                        if (!open) {
                            found.droppedPartitions().add(new Group(id, p));
                        }
                    } else {
                        group(store, serverId, t, p, open, holdsHere, found);
                    }
                }
            }
        }
        return found;
    }

    private static void group(
            BucketStore store,
            int serverId,
            AppliedTable t,
            long partitionId,
            boolean open,
            BiPredicate<AppliedTable, Long> holdsHere,
            Found found) {
        long id = t.table().tableId();
        Optional<BucketAssignment> a = t.assignment(partitionId);
        if (a.isEmpty()) {
            return;
        }
        Set<Integer> replicated = store.replicatedBuckets(id, partitionId);
        if (!holdsHere.test(t, partitionId)) {
            if (!open && !replicated.isEmpty()) {
                found.groupsAway().add(new Group(id, partitionId));
            }
            return;
        }
        if (!open) {
            return;
        }
        for (int b : replicated) {
            TableBucket bucket = new TableBucket(id, partitionId, b);
            if (b < a.get().bucketCount()
                    && !a.get().replicasOf(b).replicas().contains(serverId)
                    && store.replicaLog(bucket).writtenEndOffset() > 0) {
                found.bucketsAway().add(bucket);
            }
        }
    }
}

package dev.tributary.server.store;

import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.AppliedTable;
import dev.tributary.coordinator.store.MetadataListener;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.storage.BucketStore;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
 * <p>Assignments never move today (moving buckets needs part 2's replicas): a group open here that
 * the metadata assigns elsewhere keeps serving, with a warning. Called on the metadata store's
 * apply thread. A change that fails (a bucket that cannot be opened) is logged by the store and
 * tried again at the table's next change or the next reset; a failure at the first reset fails the
 * server's start, as any table that cannot be recovered does.
 */
public final class LocalBuckets implements MetadataListener {
    private static final Logger LOG = LoggerFactory.getLogger(LocalBuckets.class);

    private final int serverId;
    private final boolean holdsUnassigned;
    private final BucketStore store;
    private final TableCatalog catalog;

    /**
     * @param serverId this server's id in the metadata (0 for a lone server)
     * @param holdsUnassigned whether buckets not assigned yet are this server's (it runs the
     *     coordinator)
     */
    public LocalBuckets(
            int serverId, boolean holdsUnassigned, BucketStore store, TableCatalog catalog) {
        this.serverId = serverId;
        this.holdsUnassigned = holdsUnassigned;
        this.store = store;
        this.catalog = catalog;
    }

    @Override
    public void onReset(StoredState state) {
        Set<Long> gone = new HashSet<>();
        catalog.all().forEach(t -> gone.add(t.tableId()));
        for (TableInfo t : state.tables().values()) {
            gone.remove(t.tableId());
            follow(AppliedTable.of(t, state.partitions().values(), state.assignments()));
        }
        gone.forEach(this::remove);
    }

    @Override
    public void onTableChanged(long tableId, Optional<AppliedTable> table) {
        if (table.isPresent()) {
            follow(table.get());
        } else {
            remove(tableId);
        }
    }

    private void follow(AppliedTable applied) {
        TableInfo t = applied.table();
        long id = t.tableId();
        boolean partitioned = t.descriptor().isPartitioned();
        boolean local =
                partitioned
                        ? holdsUnassigned
                                || applied.partitions().stream()
                                        .anyMatch(p -> holds(applied, p.partitionId()))
                        : holds(applied, TableBucket.NO_PARTITION);
        Optional<TableInfo> known = catalog.find(id);
        if (!local) {
            if (partitioned && store.hasTable(id)) {
                // its last partition held here may just have been removed
                followPartitions(applied);
            } else if (known.isPresent()) {
                LOG.warn(
                        "table {} (id {}) is assigned to other servers but open here; it keeps"
                                + " serving (moving buckets between servers is not supported)",
                        t.path(),
                        id);
            }
            if (known.isPresent()) {
                catalog.put(t);
            }
            return;
        }
        if (!store.hasTable(id)) {
            store.openTable(id, t.descriptor(), t.schemaId(), t.schema());
            LOG.info("opened table {} (id {})", t.path(), id);
        } else if (known.isPresent() && t.schemaId() > known.get().schemaId()) {
            store.updateSchema(id, t.schemaId(), t.schema());
        }
        if (partitioned) {
            followPartitions(applied);
        }
        catalog.put(t);
    }

    private void followPartitions(AppliedTable applied) {
        long id = applied.tableId();
        Set<Long> inMetadata = new HashSet<>();
        for (PartitionInfo p : applied.partitions()) {
            inMetadata.add(p.partitionId());
            if (!holds(applied, p.partitionId())) {
                continue;
            }
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
                store.dropPartition(id, open);
                LOG.info("removed partition id {} of {}", open, applied.table().path());
            }
        }
    }

    private boolean holds(AppliedTable applied, long partitionId) {
        Optional<BucketAssignment> a = applied.assignment(partitionId);
        return a.isEmpty() ? holdsUnassigned : a.get().servers().contains(serverId);
    }

    private void remove(long tableId) {
        Optional<TableInfo> t = catalog.find(tableId);
        catalog.remove(tableId);
        if (t.isPresent() || store.hasTable(tableId)) {
            store.dropTable(tableId);
            LOG.info(
                    "dropped table {} (id {})",
                    t.map(i -> i.path().toString()).orElse(""),
                    tableId);
        }
    }
}

package dev.tributary.server.store;

import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.cluster.ReportedBucket;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.spi.KvSnapshotRef;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.kv.KvSnapshotInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The coordinator's view of the buckets, read from the store's in-memory state. */
public final class StoreBucketStates implements BucketStateSource {
    private final BucketStore store;
    private final TableCatalog catalog;

    public StoreBucketStates(BucketStore store, TableCatalog catalog) {
        this.store = store;
        this.catalog = catalog;
    }

    @Override
    public List<BucketState> bucketStates(long tableId, TablePath path, int bucketCount) {
        List<BucketState> out = new ArrayList<>(bucketCount);
        boolean open = store.hasTable(tableId);
        boolean primaryKey =
                open
                        && catalog.find(tableId)
                                .map(t -> t.descriptor().hasPrimaryKey())
                                .orElse(false);
        for (int b = 0; b < bucketCount; b++) {
            if (!open) {
                out.add(BucketState.log(b, 0));
                continue;
            }
            TableBucket tb = new TableBucket(tableId, b);
            Optional<KvSnapshotInfo> snap =
                    primaryKey ? store.latestSnapshot(tb) : Optional.empty();
            out.add(
                    new BucketState(
                            b,
                            store.endOffset(tb),
                            snap.map(s -> new KvSnapshotRef(s.snapshotId(), s.logOffset()))
                                    .orElse(null)));
        }
        return out;
    }

    @Override
    public List<BucketState> partitionBucketStates(
            long tableId, long partitionId, TablePath path, int bucketCount) {
        List<BucketState> out = new ArrayList<>(bucketCount);
        boolean open = store.hasPartition(tableId, partitionId);
        boolean primaryKey =
                open
                        && catalog.find(tableId)
                                .map(t -> t.descriptor().hasPrimaryKey())
                                .orElse(false);
        for (int b = 0; b < bucketCount; b++) {
            if (!open) {
                out.add(BucketState.log(b, 0));
                continue;
            }
            TableBucket tb = new TableBucket(tableId, partitionId, b);
            Optional<KvSnapshotInfo> snap =
                    primaryKey ? store.latestSnapshot(tb) : Optional.empty();
            out.add(
                    new BucketState(
                            b,
                            store.endOffset(tb),
                            snap.map(s -> new KvSnapshotRef(s.snapshotId(), s.logOffset()))
                                    .orElse(null)));
        }
        return out;
    }

    /**
     * The state of every bucket this server holds (today every bucket of every open table and
     * partition), for its heartbeats (T49); in-memory reads only. A table or partition dropped
     * while it is read is left out.
     */
    public List<ReportedBucket> heldBuckets() {
        List<ReportedBucket> out = new ArrayList<>();
        for (TableInfo t : catalog.all()) {
            long tableId = t.tableId();
            if (!store.hasTable(tableId)) {
                continue;
            }
            int n = t.descriptor().bucketCount();
            try {
                if (store.isPartitioned(tableId)) {
                    for (long p : store.partitionIds(tableId)) {
                        addHeld(out, tableId, p, partitionBucketStates(tableId, p, t.path(), n));
                    }
                } else {
                    addHeld(
                            out,
                            tableId,
                            TableBucket.NO_PARTITION,
                            bucketStates(tableId, t.path(), n));
                }
            } catch (NotFoundException dropped) {
                // dropped meanwhile: the next full report no longer names it
            }
        }
        return out;
    }

    private static void addHeld(
            List<ReportedBucket> out, long tableId, long partitionId, List<BucketState> states) {
        for (BucketState s : states) {
            out.add(
                    new ReportedBucket(
                            tableId, partitionId, s.bucket(), s.endOffset(), s.newestKvSnapshot()));
        }
    }

    @Override
    public Set<Long> drainChangedPartitions(long tableId) {
        return store.drainChangedPartitions(tableId);
    }
}

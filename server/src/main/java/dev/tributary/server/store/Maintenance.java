package dev.tributary.server.store;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.coordinator.store.TieredOffsets;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.server.cluster.CoordinatorRole;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.RetentionResult;
import dev.tributary.storage.kv.KvSnapshotInfo;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One maintenance pass of the store, run by the server's scheduler: hand the store the tiered
 * offsets the coordinator recorded (retention of lake tables is gated by them), take due KV
 * snapshots, then run retention. A failure is logged and the next pass tries again.
 */
public final class Maintenance implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);

    private final CoordinatorRole coordinator;
    private final BucketStore store;
    private final Supplier<Map<Long, TieringRecord>> replicated;

    /**
     * @param replicated the tiering records of this server's copy of the cluster metadata, for a
     *     server that does not coordinate (it may lag the coordinator: retention then keeps data a
     *     little longer, never less)
     */
    public Maintenance(
            CoordinatorRole coordinator,
            BucketStore store,
            Supplier<Map<Long, TieringRecord>> replicated) {
        this.coordinator = coordinator;
        this.store = store;
        this.replicated = replicated;
    }

    @Override
    public void run() {
        try {
            pushTieredOffsets();
            List<KvSnapshotInfo> snaps = store.maybeSnapshot();
            if (!snaps.isEmpty()) {
                LOG.info("took {} KV snapshots", snaps.size());
            }
            RetentionResult r = store.runRetention();
            if (r.segmentsDeleted() > 0 || r.snapshotsDeleted() > 0) {
                LOG.info(
                        "retention deleted {} segments ({} bytes) and {} snapshots",
                        r.segmentsDeleted(),
                        r.bytesDeleted(),
                        r.snapshotsDeleted());
            }
        } catch (RuntimeException e) {
            LOG.warn("maintenance pass failed; retrying at the next one", e);
        }
    }

    /**
     * Copies every lake table's recorded tiered offsets into the store: the coordinator's, or on a
     * server that does not coordinate, the tiering records its copy of the metadata applied.
     */
    public void pushTieredOffsets() {
        if (coordinator.running().isPresent()) {
            for (TableTieringStatus t :
                    TableService.join(coordinator.current().status()).tables()) {
                push(t.tableId(), t.offsets());
            }
        } else {
            replicated.get().values().forEach(r -> push(r.tableId(), r.offsets()));
        }
    }

    private void push(long tableId, TieredOffsets offsets) {
        if (!store.hasTable(tableId)) {
            return;
        }
        for (Map.Entry<PartitionBucket, Long> e : offsets.asSortedMap().entrySet()) {
            TableBucket b = TableBucket.of(tableId, e.getKey());
            if (b.isPartitioned() && !store.hasPartition(b.tableId(), b.partitionId())) {
                continue; // removed meanwhile
            }
            store.setTieredOffset(b, e.getValue());
        }
    }
}

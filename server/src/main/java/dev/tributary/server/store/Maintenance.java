package dev.tributary.server.store;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.server.cluster.CoordinatorRole;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.RetentionResult;
import dev.tributary.storage.kv.KvSnapshotInfo;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One maintenance pass of the store, run by the server's scheduler: hand the store the tiered
 * offsets the coordinator recorded (retention of lake tables is gated by them; on a server that
 * does not coordinate they stay as they were, which only keeps data longer), take due KV snapshots,
 * then run retention. A failure is logged and the next pass tries again.
 */
public final class Maintenance implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);

    private final CoordinatorRole coordinator;
    private final BucketStore store;

    public Maintenance(CoordinatorRole coordinator, BucketStore store) {
        this.coordinator = coordinator;
        this.store = store;
    }

    @Override
    public void run() {
        try {
            // the tiered offsets are the coordinator's; elsewhere retention keeps what it knew
            if (coordinator.running().isPresent()) {
                pushTieredOffsets();
            }
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

    /** Copies every lake table's recorded tiered offsets into the store. */
    public void pushTieredOffsets() {
        for (TableTieringStatus t : TableService.join(coordinator.current().status()).tables()) {
            if (!store.hasTable(t.tableId())) {
                continue;
            }
            for (Map.Entry<PartitionBucket, Long> e : t.offsets().asSortedMap().entrySet()) {
                TableBucket b = TableBucket.of(t.tableId(), e.getKey());
                if (b.isPartitioned() && !store.hasPartition(b.tableId(), b.partitionId())) {
                    continue; // removed meanwhile
                }
                store.setTieredOffset(b, e.getValue());
            }
        }
    }
}

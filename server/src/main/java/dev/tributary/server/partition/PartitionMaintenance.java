package dev.tributary.server.partition;

import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.server.cluster.CoordinatorRole;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of partition upkeep on the server's {@link Clock} (T31, T33): for every table with
 * auto-partitioning, create the partitions due ahead and drop those past retention; then remove
 * every dropping partition that may go. The decisions are {@link TimePartitions}'; the server's
 * scheduler runs a pass every {@code server.auto-partition.check-interval}, and tests call {@link
 * #runOnce()} after moving a manual clock. A failure is logged and the next pass tries again.
 */
public final class PartitionMaintenance implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionMaintenance.class);

    private final Supplier<Collection<TableInfo>> tables;
    private final PartitionService partitions;
    private final CoordinatorRole coordinator;
    private final Clock clock;

    public PartitionMaintenance(
            Supplier<Collection<TableInfo>> tables,
            PartitionService partitions,
            CoordinatorRole coordinator,
            Clock clock) {
        this.tables = tables;
        this.partitions = partitions;
        this.coordinator = coordinator;
        this.clock = clock;
    }

    @Override
    public void run() {
        if (coordinator.running().isEmpty()) {
            return; // the coordinator's server creates and removes partitions
        }
        try {
            runOnce();
        } catch (RuntimeException e) {
            LOG.warn("partition maintenance failed; retrying at the next pass", e);
        }
    }

    /** One pass now. */
    public synchronized void runOnce() {
        Instant now = Instant.ofEpochMilli(clock.currentTimeMillis());
        for (TableInfo table : tables.get()) {
            try {
                autoPartition(table, now);
            } catch (RuntimeException e) {
                LOG.warn("auto-partitioning {} failed; retrying at the next pass", table.path(), e);
            }
        }
        partitions.removeDropped();
    }

    /** Creates and expires the partitions of one table (a no-op without auto-partitioning). */
    public synchronized void autoPartition(TableInfo table, Instant now) {
        Optional<TimePartitions> rule = TimePartitions.of(table.descriptor());
        if (rule.isEmpty()) {
            return;
        }
        for (PartitionSpec spec : rule.get().toPrecreate(now)) {
            if (coordinator.current().cachedPartition(table.tableId(), spec.name()).isEmpty()) {
                partitions.create(table.path(), spec, true);
            }
        }
        List<PartitionInfo> existing =
                List.copyOf(coordinator.current().cachedPartitions(table.tableId()));
        for (PartitionInfo p : existing) {
            if (!p.isDropping() && rule.get().expired(p.spec(), now)) {
                LOG.info(
                        "partition {} of {} is past its retention; dropping it",
                        p.name(),
                        table.path());
                partitions.drop(table.path(), p.spec(), true, false);
            }
        }
    }
}

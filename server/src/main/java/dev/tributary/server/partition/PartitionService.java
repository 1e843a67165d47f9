package dev.tributary.server.partition;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.PartitionRegistry;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.server.cluster.CoordinatorRole;
import dev.tributary.server.lake.LakeTables;
import dev.tributary.server.store.LocalBuckets;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.server.store.TableService;
import dev.tributary.storage.BucketStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Partitions across the coordinator (durable metadata, the source of truth), the store (each
 * partition's buckets) and the lake (T30, T33): adding them explicitly or on a write's demand,
 * dropping them, and removing dropping partitions once nothing of them would be lost.
 *
 * <p>A drop marks the partition DROPPING in the metadata before anything else; from then on it
 * refuses writes. It is removed by {@link #removeDropped}, for a lake-enabled table only when the
 * coordinator finds every bucket tiered to its final end offset: metadata first, then the data. A
 * crash at any step resumes after a restart: {@link #recover} reopens DROPPING partitions sealed
 * and deletes the data of partitions the metadata no longer lists.
 */
public final class PartitionService {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionService.class);

    private final CoordinatorRole coordinator;
    private final LocalBuckets held;
    private final BucketStore store;
    private final TableCatalog catalog;
    private final LakeTables lakeTables;
    private final Clock clock;

    public PartitionService(
            CoordinatorRole coordinator,
            LocalBuckets held,
            BucketStore store,
            TableCatalog catalog,
            LakeTables lakeTables,
            Clock clock) {
        this.coordinator = coordinator;
        this.held = held;
        this.store = store;
        this.catalog = catalog;
        this.lakeTables = lakeTables;
        this.clock = clock;
    }

    /**
     * After a start, deletes the data of a table's partitions that the metadata no longer holds (a
     * drop that crashed before deleting them). The partitions it holds are open already ({@link
     * dev.tributary.server.store.LocalBuckets}).
     */
    public void recover(TableInfo table) {
        if (!table.descriptor().isPartitioned()) {
            return;
        }
        Set<Long> known = new HashSet<>();
        for (PartitionInfo p : held.partitions(table.tableId())) {
            known.add(p.partitionId());
        }
        List<Long> deleted = store.deleteUnknownPartitions(table.tableId(), known);
        if (!deleted.isEmpty()) {
            LOG.info(
                    "deleted the data of {} partitions of {} that were removed before a restart",
                    deleted.size(),
                    table.path());
        }
    }

    /**
     * Adds a partition (explicitly or by auto-partitioning).
     *
     * @return the partition, new or (with {@code ignoreIfExists}) existing
     */
    public PartitionInfo create(TablePath path, PartitionSpec spec, boolean ignoreIfExists) {
        PartitionRegistry.Created c =
                TableService.join(
                        coordinator.current().createPartition(path, spec, ignoreIfExists));
        PartitionInfo p = c.partition();
        if (c.created()) {
            LOG.info("added partition {} of {} (id {})", p.name(), path, p.partitionId());
        }
        return p;
    }

    /**
     * The partition a write to {@code table} names (T30): an ACTIVE partition, created now when it
     * is missing and the table creates partitions on first write.
     *
     * @throws PartitionNotFoundException naming the partition when it does not exist and may not be
     *     created (or is being dropped); nothing of the batch is written
     * @throws InvalidInputException for values that do not fit the partition columns
     */
    public PartitionInfo resolveForWrite(TableInfo table, String name) {
        if (!table.descriptor().isPartitioned()) {
            throw new InvalidInputException(
                    "table "
                            + table.path()
                            + " is not partitioned; a write to it must not name a partition");
        }
        if (name == null || name.isEmpty()) {
            throw new InvalidInputException(
                    "table "
                            + table.path()
                            + " is partitioned by "
                            + table.descriptor().partitionKeys()
                            + "; every write must name its partition");
        }
        PartitionInfo p = held.partitionNamed(table, name).orElse(null);
        if (p == null) {
            p =
                    createOnWrite(
                            table,
                            PartitionRouter.of(table.descriptor())
                                    .normalize(PartitionSpec.parse(name)));
        }
        if (p.isDropping()) {
            throw new PartitionNotFoundException(
                    "partition "
                            + p.name()
                            + " of table "
                            + table.path()
                            + " is being dropped and takes no more writes; nothing of the batch"
                            + " was written");
        }
        return p;
    }

    /**
     * An existing partition of {@code table} by name, for reads and lookups (never created).
     *
     * @throws PartitionNotFoundException when there is none
     */
    public PartitionInfo existing(TableInfo table, String name) {
        if (!table.descriptor().isPartitioned()) {
            throw new InvalidInputException(
                    "table " + table.path() + " is not partitioned; name no partition");
        }
        if (name == null || name.isEmpty()) {
            throw new InvalidInputException(
                    "table "
                            + table.path()
                            + " is partitioned by "
                            + table.descriptor().partitionKeys()
                            + "; name the partition");
        }
        return held.partitionNamed(table, name)
                .orElseThrow(
                        () ->
                                new PartitionNotFoundException(
                                        "partition "
                                                + name
                                                + " of table "
                                                + table.path()
                                                + " does not exist"));
    }

    private PartitionInfo createOnWrite(TableInfo table, PartitionSpec spec) {
        if (!table.options().get(TableOptions.PARTITION_DYNAMIC_CREATE)) {
            throw new PartitionNotFoundException(
                    "partition "
                            + spec.name()
                            + " of table "
                            + table.path()
                            + " does not exist and the table does not create partitions on write ("
                            + TableOptions.PARTITION_DYNAMIC_CREATE.key()
                            + "=false); nothing of the batch was written. Add it with 'tributary"
                            + " partition add "
                            + table.path()
                            + " "
                            + spec.name()
                            + "'");
        }
        Optional<TimePartitions> rule = TimePartitions.of(table.descriptor());
        if (rule.isPresent() && rule.get().expired(spec, Instant.ofEpochMilli(now()))) {
            throw new PartitionNotFoundException(
                    "partition "
                            + spec.name()
                            + " of table "
                            + table.path()
                            + " is older than the table's auto-partition retention ("
                            + TableOptions.AUTO_PARTITION_NUM_RETENTION.key()
                            + "), so it is not created; nothing of the batch was written");
        }
        return create(table.path(), spec, true);
    }

    /**
     * Drops a partition: marks it DROPPING and tries to remove it at once (a table without the
     * lake, or one whose partition is already tiered, loses it now).
     *
     * @return the partition as it is now, and whether it is gone; empty if it did not exist and
     *     {@code ignoreIfNotExists}
     */
    public Optional<Dropped> drop(
            TablePath path, PartitionSpec spec, boolean ignoreIfNotExists, boolean dropLake) {
        Optional<PartitionInfo> p =
                TableService.join(
                        coordinator
                                .current()
                                .dropPartition(path, spec, ignoreIfNotExists, dropLake));
        if (p.isEmpty()) {
            return Optional.empty();
        }
        // the table may have no bucket on this server: the metadata knows it anyway
        TableInfo table =
                held.known(p.get().tableId()).orElseGet(() -> catalog.get(p.get().tableId()));
        boolean removed = tryRemove(table, p.get());
        if (!removed) {
            LOG.info(
                    "partition {} of {} is dropping: it goes once it is tiered to its end",
                    p.get().name(),
                    path);
        }
        return Optional.of(new Dropped(p.get(), removed));
    }

    /** A drop's outcome: the partition and whether it is gone already. */
    public record Dropped(PartitionInfo partition, boolean removed) {}

    public List<PartitionInfo> list(TablePath path) {
        return TableService.join(coordinator.current().listPartitions(path));
    }

    /** One pass over every DROPPING partition: removes those that may go now (T33). */
    public void removeDropped() {
        for (TableInfo table : catalog.all()) {
            if (!table.descriptor().isPartitioned()) {
                continue;
            }
            for (PartitionInfo p : List.copyOf(held.partitions(table.tableId()))) {
                if (p.isDropping()) {
                    try {
                        tryRemove(table, p);
                    } catch (RuntimeException e) {
                        LOG.warn(
                                "removing partition {} of {} failed; retrying at the next pass",
                                p.name(),
                                table.path(),
                                e);
                    }
                }
            }
        }
    }

    /**
     * Removes a DROPPING partition if nothing of it would be lost: writes sealed and drained, and
     * (lake-enabled tables) every bucket tiered to its end. The lake partition goes first when the
     * user asked for it, then the metadata, then the data.
     *
     * @return true when it is gone
     */
    boolean tryRemove(TableInfo table, PartitionInfo p) {
        long tableId = table.tableId();
        if (!held.holdsAll(tableId, p.partitionId())) {
            // its end offsets are known exactly only where its buckets are: a removal across
            // servers (the holders confirming their sealed ends) is not built, so it stays
            LOG.debug(
                    "partition {} of {} stays DROPPING: its buckets are on other servers",
                    p.name(),
                    table.path());
            return false;
        }
        if (store.hasPartition(tableId, p.partitionId())
                && !store.sealPartition(tableId, p.partitionId())) {
            return false; // a write that passed the state check is still running
        }
        Map<Integer, Long> ends = new HashMap<>();
        if (store.hasPartition(tableId, p.partitionId())) {
            for (int b = 0; b < table.descriptor().bucketCount(); b++) {
                ends.put(b, store.endOffset(new TableBucket(tableId, p.partitionId(), b)));
            }
        }
        if (p.dropLakePartition() && table.lakeEnabled()) {
            Optional<String> blocker =
                    TableService.join(
                            coordinator
                                    .current()
                                    .removePartition(tableId, p.partitionId(), ends, true));
            if (blocker.isPresent()) {
                LOG.debug("partition {} of {} stays: {}", p.name(), table.path(), blocker.get());
                return false;
            }
            lakeTables.dropPartition(table, p.spec());
        }
        Optional<String> blocker =
                TableService.join(
                        coordinator
                                .current()
                                .removePartition(tableId, p.partitionId(), ends, false));
        if (blocker.isPresent()) {
            LOG.debug("partition {} of {} stays: {}", p.name(), table.path(), blocker.get());
            return false;
        }
        // its buckets went with the metadata record (LocalBuckets)
        LOG.info(
                "removed partition {} of {} (id {}){}",
                p.name(),
                table.path(),
                p.partitionId(),
                table.lakeEnabled()
                        ? p.dropLakePartition()
                                ? ", tiered to its end; its lake partition was dropped too"
                                : ", tiered to its end; its lake partition stays"
                        : "");
        return true;
    }

    private long now() {
        return clock.currentTimeMillis();
    }

    /** The server clock's wall time. */
    public long nowMillis() {
        return now();
    }
}

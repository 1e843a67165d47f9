package dev.tributary.server.store;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.metadata.TableRegistry;
import dev.tributary.server.ServerExtension;
import dev.tributary.server.cluster.CoordinatorRole;
import dev.tributary.server.lake.LakeTables;
import dev.tributary.server.partition.PartitionMaintenance;
import dev.tributary.server.partition.PartitionService;
import dev.tributary.server.partition.TimePartitions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DDL across the coordinator (durable metadata, tiering) and the lake (lake tables), in that order.
 * The store's buckets and the {@link TableCatalog} follow the metadata records themselves ({@link
 * LocalBuckets}, before the coordinator's call returns on this server), so a table is open when its
 * CREATE returns and gone when its DROP does. The metadata is the source of truth: start-up
 * re-creates missing lake tables of every table, so a crash between the steps heals itself. A lake
 * table that cannot be created takes its new table back.
 */
public final class TableService {
    private static final Logger LOG = LoggerFactory.getLogger(TableService.class);

    private final CoordinatorRole coordinator;
    private final TableCatalog catalog;
    private final LocalBuckets held;
    private final LakeTables lakeTables;
    private final List<ServerExtension> extensions;
    private final NewTableDefaults defaults;
    private PartitionService partitions;
    private PartitionMaintenance partitionMaintenance;

    public TableService(
            CoordinatorRole coordinator,
            TableCatalog catalog,
            LocalBuckets held,
            LakeTables lakeTables,
            List<ServerExtension> extensions,
            NewTableDefaults defaults) {
        this.coordinator = coordinator;
        this.catalog = catalog;
        this.held = held;
        this.lakeTables = lakeTables;
        this.extensions = extensions;
        this.defaults = defaults;
    }

    /**
     * A table of the metadata by id, whether or not this server holds a bucket of it (what the
     * coordinator's status and admin answers need on a cluster).
     *
     * @throws dev.tributary.common.exception.NotFoundException if no such table exists
     */
    public TableInfo table(long tableId) {
        return held.known(tableId).orElseGet(() -> catalog.get(tableId));
    }

    /**
     * Connects the partition side (T30, T31): recovery opens partitions, a new auto-partitioned
     * table gets its partitions at once.
     */
    public void usePartitions(PartitionService service, PartitionMaintenance maintenance) {
        this.partitions = service;
        this.partitionMaintenance = maintenance;
    }

    /**
     * After a start (the catalog already follows the metadata): deletes what a crash left of
     * removed partitions and re-creates missing lake tables.
     */
    public void recover() {
        for (TableInfo t : catalog.all()) {
            if (partitions != null) {
                partitions.recover(t);
            }
            // stored before the check existed: the table serves, the option is not applied
            for (String warning : t.options().warnings()) {
                LOG.warn(
                        "table {}: {}; remove it with 'tributary table alter {} --reset <key>'",
                        t.path(),
                        warning,
                        t.path());
            }
        }
        // every table of the metadata: on a cluster the coordinator may hold none of a table's
        // buckets, and its lake table is still this coordinator's to keep
        lakeTables.recover(held.allTables());
    }

    public TableInfo createTable(
            TablePath path, TableDescriptor descriptor, boolean ignoreIfExists) {
        TableDescriptor withDefaults;
        try {
            withDefaults = defaults.apply(descriptor);
            // partition options are the server's: refused before anything is stored
            validatePartitionOptions(withDefaults);
        } catch (InvalidInputException e) {
            // IF NOT EXISTS of a table that exists answers with it, whatever the descriptor
            if (ignoreIfExists) {
                try {
                    return join(coordinator.current().describeTable(path));
                } catch (NotFoundException absent) {
                    e.addSuppressed(absent);
                }
            }
            throw e;
        }
        TableRegistry.Created c =
                join(
                        coordinator
                                .current()
                                .createTableReporting(path, withDefaults, ignoreIfExists));
        TableInfo t = c.table();
        if (c.created()) {
            if (held.belongsHere(t.tableId()) && catalog.find(t.tableId()).isEmpty()) {
                // LocalBuckets logged why; the table exists and opens at the next start
                throw new StorageException(
                        "table "
                                + path
                                + " was created but this server could not open its buckets (see"
                                + " the server log); restart the server once the cause is fixed");
            }
            try {
                lakeTables.onCreated(t);
            } catch (RuntimeException e) {
                // the table is already durable: take it back, so the user can fix the cause and
                // create it again instead of keeping a table that never tiers
                rollBackCreate(t, e);
                throw e;
            }
            for (ServerExtension e : extensions) {
                e.onTableCreated(t);
            }
            if (partitionMaintenance != null && t.descriptor().isPartitioned()) {
                try {
                    partitionMaintenance.autoPartition(
                            t, java.time.Instant.ofEpochMilli(partitions.nowMillis()));
                } catch (RuntimeException e) {
                    LOG.warn(
                            "pre-creating the partitions of {} failed; the next pass retries",
                            t.path(),
                            e);
                }
            }
        }
        return t;
    }

    private void rollBackCreate(TableInfo table, RuntimeException cause) {
        try {
            join(coordinator.current().dropTable(table.path(), true));
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
            LOG.error("could not roll back table {} after its lake table failed", table.path(), e);
        }
    }

    public TableInfo alterTable(TablePath path, List<TableChange> changes) {
        TableInfo before = join(coordinator.current().describeTable(path));
        Map<String, String> properties = new HashMap<>(before.descriptor().properties());
        for (TableChange c : changes) {
            if (c instanceof TableChange.SetProperty set) {
                properties.put(set.key(), set.value());
            } else if (c instanceof TableChange.ResetProperty reset) {
                properties.remove(reset.key());
            }
        }
        // refused before anything is stored, not after
        lakeTables.checkTierable(path, properties);
        validatePartitionOptions(before.descriptor().withProperties(properties));
        TableInfo after = join(coordinator.current().alterTable(path, changes));
        lakeTables.onAltered(before, after);
        for (ServerExtension e : extensions) {
            e.onTableAltered(before, after);
        }
        return after;
    }

    /**
     * Drops a table (its buckets follow the record); extensions are told whether the user also
     * asked to drop its lake table.
     */
    public Optional<TableInfo> dropTable(
            TablePath path, boolean ignoreIfNotExists, boolean dropLakeTable) {
        Optional<TableInfo> dropped =
                join(coordinator.current().dropTable(path, ignoreIfNotExists));
        dropped.ifPresent(t -> forget(t, dropLakeTable));
        return dropped;
    }

    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade) {
        List<TableInfo> inDatabase =
                held.allTables().stream().filter(t -> t.path().database().equals(name)).toList();
        join(coordinator.current().dropDatabase(name, ignoreIfNotExists, cascade));
        for (TableInfo t : inDatabase) {
            forget(t, false);
        }
    }

    private void forget(TableInfo t, boolean dropLakeTable) {
        for (ServerExtension e : extensions) {
            e.onTableDropped(t, dropLakeTable);
        }
        lakeTables.onDropped(t, dropLakeTable);
    }

    /**
     * Auto-partitioning options must fit the table (T31). Every table option's key and value is
     * checked by the coordinator ({@link dev.tributary.common.config.TableOptionsValidator}).
     */
    private static void validatePartitionOptions(TableDescriptor table) {
        TimePartitions.of(table);
    }

    /** Waits for a coordinator future and rethrows its typed failure unwrapped. */
    public static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof TributaryException te) {
                throw te;
            }
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }
}

package dev.tributary.server.store;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.server.ServerExtension;
import dev.tributary.server.lake.LakeTables;
import dev.tributary.server.partition.PartitionMaintenance;
import dev.tributary.server.partition.PartitionService;
import dev.tributary.server.partition.TimePartitions;
import dev.tributary.storage.BucketStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DDL across the coordinator (durable metadata, tiering), the store (buckets) and the lake (lake
 * tables), in that order: the metadata is the source of truth, and start-up re-opens (creating if
 * missing) the buckets and lake tables of every registered table, so a crash between the steps
 * heals itself. A lake table that cannot be created takes its new table back.
 */
public final class TableService {
    private static final Logger LOG = LoggerFactory.getLogger(TableService.class);

    private final Coordinator coordinator;
    private final BucketStore store;
    private final TableCatalog catalog;
    private final LakeTables lakeTables;
    private final List<ServerExtension> extensions;
    private final NewTableDefaults defaults;
    private PartitionService partitions;
    private PartitionMaintenance partitionMaintenance;

    public TableService(
            Coordinator coordinator,
            BucketStore store,
            TableCatalog catalog,
            LakeTables lakeTables,
            List<ServerExtension> extensions,
            NewTableDefaults defaults) {
        this.coordinator = coordinator;
        this.store = store;
        this.catalog = catalog;
        this.lakeTables = lakeTables;
        this.extensions = extensions;
        this.defaults = defaults;
    }

    /**
     * Connects the partition side (T30, T31): recovery opens partitions, a new auto-partitioned
     * table gets its partitions at once.
     */
    public void usePartitions(PartitionService service, PartitionMaintenance maintenance) {
        this.partitions = service;
        this.partitionMaintenance = maintenance;
    }

    /** Opens the buckets of every registered table (recovery) and fills the catalog. */
    public void recover() {
        for (String db : join(coordinator.listDatabases()).stream().map(d -> d.name()).toList()) {
            for (TablePath path : join(coordinator.listTables(db))) {
                TableInfo t = join(coordinator.describeTable(path));
                store.openTable(t.tableId(), t.descriptor(), t.schemaId(), t.schema());
                if (partitions != null) {
                    partitions.recover(t);
                }
                catalog.put(t);
                LOG.info("recovered table {} (id {})", t.path(), t.tableId());
                // stored before the check existed: the table serves, the option is not applied
                for (String warning : t.options().warnings()) {
                    LOG.warn(
                            "table {}: {}; remove it with 'tributary table alter {} --reset <key>'",
                            t.path(),
                            warning,
                            t.path());
                }
            }
        }
        lakeTables.recover(catalog.all());
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
                    return join(coordinator.describeTable(path));
                } catch (NotFoundException absent) {
                    e.addSuppressed(absent);
                }
            }
            throw e;
        }
        TableInfo t = join(coordinator.createTable(path, withDefaults, ignoreIfExists));
        if (!store.hasTable(t.tableId())) {
            store.openTable(t.tableId(), t.descriptor(), t.schemaId(), t.schema());
            try {
                lakeTables.onCreated(t);
            } catch (RuntimeException e) {
                // the table is already durable: take it back, so the user can fix the cause and
                // create it again instead of keeping a table that never tiers
                rollBackCreate(t, e);
                throw e;
            }
            catalog.put(t);
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
            join(coordinator.dropTable(table.path(), true));
            store.dropTable(table.tableId());
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
            LOG.error("could not roll back table {} after its lake table failed", table.path(), e);
        }
    }

    public TableInfo alterTable(TablePath path, List<TableChange> changes) {
        TableInfo before = join(coordinator.describeTable(path));
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
        TableInfo after = join(coordinator.alterTable(path, changes));
        if (after.schemaId() != before.schemaId()) {
            store.updateSchema(after.tableId(), after.schemaId(), after.schema());
        }
        catalog.put(after);
        lakeTables.onAltered(before, after);
        for (ServerExtension e : extensions) {
            e.onTableAltered(before, after);
        }
        return after;
    }

    /**
     * Drops a table from the coordinator and the store; extensions are told whether the user also
     * asked to drop its lake table.
     */
    public Optional<TableInfo> dropTable(
            TablePath path, boolean ignoreIfNotExists, boolean dropLakeTable) {
        Optional<TableInfo> dropped = join(coordinator.dropTable(path, ignoreIfNotExists));
        dropped.ifPresent(t -> forget(t, dropLakeTable));
        return dropped;
    }

    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade) {
        join(coordinator.dropDatabase(name, ignoreIfNotExists, cascade));
        for (TableInfo t : catalog.all()) {
            if (t.path().database().equals(name)) {
                forget(t, false);
            }
        }
    }

    private void forget(TableInfo t, boolean dropLakeTable) {
        catalog.remove(t.tableId());
        store.dropTable(t.tableId());
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

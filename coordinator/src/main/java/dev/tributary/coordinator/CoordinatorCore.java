package dev.tributary.coordinator;

import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.maintenance.MaintenanceConfig;
import dev.tributary.coordinator.maintenance.MaintenanceManager;
import dev.tributary.coordinator.metadata.BucketAssignments;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.PartitionRegistry;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.metadata.TableRegistry;
import dev.tributary.coordinator.runtime.LakeIo;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.spi.LakeMaintenanceStep;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.coordinator.tiering.TieringManager;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The coordinator's logic: the table registry plus the tiering manager and the lake maintenance
 * manager, wired so that every DDL reaches both. Single-threaded: {@link Coordinator} runs it on
 * its event loop; tests and the simulator drive it directly with a {@code ManualLoop}.
 */
public final class CoordinatorCore {
    private final TableRegistry registry;
    private final PartitionRegistry partitions;
    private final BucketAssignments assignments;
    private final MetadataStore store;
    private final TieringManager tiering;
    private final MaintenanceManager maintenance;
    private final long incarnation;

    /**
     * Loads the store, starts a new incarnation and rebuilds every table's tiering state, without
     * lake maintenance.
     *
     * @param timers timers on the thread that will call this core
     * @param loop posts tasks to that thread (used by lake I/O to report back)
     * @param io where lake commits, reconciliation reads and file deletions run
     */
    public CoordinatorCore(
            TieringConfig config,
            Clock clock,
            TimerService timers,
            Executor loop,
            LakeIo io,
            MetadataStore store,
            BucketStateSource buckets,
            LakeCommitStep lake) {
        this(config, clock, timers, loop, io, store, buckets, lake, null, null, null);
    }

    /**
     * Loads the store, starts a new incarnation, rebuilds every table's tiering state and starts
     * lake maintenance (T38, T39).
     *
     * @param maintenanceConfig maintenance settings, or {@code null} for no maintenance
     * @param maintenanceIo where maintenance lake I/O runs, apart from {@code io}
     * @param maintenanceLake the lake's maintenance step, or {@code null} for no maintenance
     */
    public CoordinatorCore(
            TieringConfig config,
            Clock clock,
            TimerService timers,
            Executor loop,
            LakeIo io,
            MetadataStore store,
            BucketStateSource buckets,
            LakeCommitStep lake,
            MaintenanceConfig maintenanceConfig,
            LakeIo maintenanceIo,
            LakeMaintenanceStep maintenanceLake) {
        StoredState state = store.load();
        this.incarnation = store.startIncarnation();
        this.registry = new TableRegistry(store, clock, state);
        this.partitions = new PartitionRegistry(store, clock, state);
        this.assignments = new BucketAssignments(store, state);
        this.store = store;
        this.maintenance =
                maintenanceConfig == null || maintenanceLake == null
                        ? null
                        : new MaintenanceManager(
                                maintenanceConfig,
                                clock,
                                timers,
                                loop,
                                maintenanceIo,
                                maintenanceLake,
                                Math.multiplyExact(incarnation, TieringManager.EPOCH_STRIDE),
                                config::backoffMillis);
        this.tiering =
                new TieringManager(
                        config,
                        clock,
                        timers,
                        loop,
                        io,
                        store,
                        buckets,
                        partitions,
                        lake,
                        incarnation,
                        maintenance);
        tiering.restore(state.tables().values(), state.tiering());
        if (maintenance != null) {
            maintenance.restore(state.tables().values());
        }
    }

    public TableRegistry registry() {
        return registry;
    }

    public TieringManager tiering() {
        return tiering;
    }

    public PartitionRegistry partitions() {
        return partitions;
    }

    /** Which server holds each bucket (T49); readable from any thread. */
    public BucketAssignments assignments() {
        return assignments;
    }

    /**
     * Assigns the buckets of every table and partition that has no assignment yet (see {@link
     * BucketAssignments#assignMissing}); called when a server registers.
     *
     * @return how many assignments were written
     */
    public int assignMissingBuckets() {
        return assignments.assignMissing(store.load());
    }

    /** Lake maintenance, empty when the coordinator runs none. */
    public Optional<MaintenanceManager> maintenance() {
        return Optional.ofNullable(maintenance);
    }

    public long incarnation() {
        return incarnation;
    }

    public DatabaseInfo createDatabase(String name, String comment, boolean ignoreIfExists) {
        return registry.createDatabase(name, comment, ignoreIfExists);
    }

    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade) {
        for (TableInfo t : registry.dropDatabase(name, ignoreIfNotExists, cascade)) {
            tiering.onTableDropped(t.tableId());
            partitions.forgetTable(t.tableId());
            assignments.forgetTable(t.tableId());
            if (maintenance != null) {
                maintenance.onTableDropped(t.tableId());
            }
        }
    }

    public TableInfo createTable(
            TablePath path, TableDescriptor descriptor, boolean ignoreIfExists) {
        return createTableReporting(path, descriptor, ignoreIfExists).table();
    }

    /** {@link #createTable}, also saying whether this call created the table. */
    public TableRegistry.Created createTableReporting(
            TablePath path, TableDescriptor descriptor, boolean ignoreIfExists) {
        TableRegistry.Created c = registry.createTable(path, descriptor, ignoreIfExists);
        if (c.created()) {
            if (!c.table().descriptor().isPartitioned()) {
                assignments.assign(c.table(), TableBucket.NO_PARTITION);
            }
            tiering.onTableCreated(c.table());
            if (maintenance != null) {
                maintenance.onTableCreated(c.table());
            }
        }
        return c;
    }

    public TableInfo alterTable(TablePath path, List<TableChange> changes) {
        TableRegistry.Altered a = registry.alterTable(path, changes);
        tiering.onTableAltered(a.before(), a.after());
        if (maintenance != null) {
            maintenance.onTableAltered(a.before(), a.after());
        }
        return a.after();
    }

    public Optional<TableInfo> dropTable(TablePath path, boolean ignoreIfNotExists) {
        Optional<TableInfo> dropped = registry.dropTable(path, ignoreIfNotExists);
        dropped.ifPresent(
                t -> {
                    tiering.onTableDropped(t.tableId());
                    partitions.forgetTable(t.tableId());
                    assignments.forgetTable(t.tableId());
                    if (maintenance != null) {
                        maintenance.onTableDropped(t.tableId());
                    }
                });
        return dropped;
    }

    /** Adds a partition (T30); see {@link PartitionRegistry#create}. */
    public PartitionRegistry.Created createPartition(
            TablePath path, PartitionSpec spec, boolean ignoreIfExists) {
        TableInfo table = registry.describe(path);
        PartitionRegistry.Created c = partitions.create(table, spec, ignoreIfExists);
        if (c.created()) {
            assignments.assign(table, c.partition().partitionId());
        }
        return c;
    }

    /**
     * Marks a partition DROPPING (T33): it refuses writes from now on, and goes once {@link
     * #removePartition} finds it tiered (at once for a table without the lake).
     */
    public Optional<PartitionInfo> dropPartition(
            TablePath path, PartitionSpec spec, boolean ignoreIfNotExists, boolean dropLake) {
        return partitions.markDropping(registry.describe(path), spec, ignoreIfNotExists, dropLake);
    }

    /** See {@link TieringManager#removePartition}. */
    public Optional<String> removePartition(
            long tableId, long partitionId, Map<Integer, Long> endOffsets, boolean checkOnly) {
        Optional<String> blocker =
                tiering.removePartition(tableId, partitionId, endOffsets, checkOnly);
        if (blocker.isEmpty() && !checkOnly) {
            assignments.forgetPartition(tableId, partitionId);
        }
        return blocker;
    }

    public List<PartitionInfo> listPartitions(TablePath path) {
        return partitions.list(registry.describe(path).tableId());
    }

    public Schema schema(long tableId, int schemaId) {
        return registry.schema(tableId, schemaId);
    }
}

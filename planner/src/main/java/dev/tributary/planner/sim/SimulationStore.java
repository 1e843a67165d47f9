package dev.tributary.planner.sim;

import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.coordinator.store.TieringRecord;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The coordinator's metadata in memory, for a simulation: nothing outlives the run, and the single
 * simulation thread is the only caller.
 */
final class SimulationStore implements MetadataStore {
    private final Map<String, DatabaseInfo> databases = new HashMap<>();
    private final Map<Long, TableInfo> tables = new HashMap<>();
    private final Map<Long, TieringRecord> tiering = new HashMap<>();
    private final Map<Long, PartitionInfo> partitions = new HashMap<>();
    private final Map<Integer, ServerRegistration> servers = new HashMap<>();
    private final Map<BucketAssignment.Group, BucketAssignment> assignments = new HashMap<>();
    private long maxTableId;
    private long maxPartitionId;
    private long incarnation;

    @Override
    public StoredState load() {
        return new StoredState(
                databases,
                tables,
                tiering,
                maxTableId,
                incarnation,
                partitions,
                maxPartitionId,
                servers,
                assignments);
    }

    @Override
    public long startIncarnation() {
        return ++incarnation;
    }

    @Override
    public void putDatabase(DatabaseInfo database) {
        databases.put(database.name(), database);
    }

    @Override
    public void removeDatabase(String name) {
        databases.remove(name);
    }

    @Override
    public void putTable(TableInfo table) {
        tables.put(table.tableId(), table);
        maxTableId = Math.max(maxTableId, table.tableId());
    }

    @Override
    public void removeTable(long tableId) {
        tables.remove(tableId);
        tiering.remove(tableId);
        partitions.values().removeIf(p -> p.tableId() == tableId);
        assignments.keySet().removeIf(g -> g.tableId() == tableId);
    }

    @Override
    public void putPartition(PartitionInfo partition) {
        maxPartitionId = Math.max(maxPartitionId, partition.partitionId());
        if (tables.containsKey(partition.tableId())) {
            partitions.put(partition.partitionId(), partition);
        }
    }

    @Override
    public void removePartition(long tableId, long partitionId) {
        PartitionInfo p = partitions.get(partitionId);
        if (p == null || p.tableId() != tableId) {
            return;
        }
        partitions.remove(partitionId);
        assignments.remove(new BucketAssignment.Group(tableId, partitionId));
        TieringRecord r = tiering.get(tableId);
        if (r != null) {
            tiering.put(tableId, r.withoutPartition(partitionId));
        }
    }

    @Override
    public boolean putTieringRecord(TieringRecord record) {
        if (!tables.containsKey(record.tableId())) {
            return false;
        }
        tiering.put(record.tableId(), record);
        return true;
    }

    @Override
    public Map<Integer, ServerRegistration> servers() {
        return Map.copyOf(servers);
    }

    @Override
    public boolean putAssignment(BucketAssignment assignment) {
        boolean exists =
                tables.containsKey(assignment.tableId())
                        && (assignment.partitionId() == TableBucket.NO_PARTITION
                                || partitions.containsKey(assignment.partitionId()));
        if (exists) {
            assignments.put(assignment.group(), assignment);
        }
        return exists;
    }

    @Override
    public void putServer(ServerRegistration server) {
        ServerRegistration before = servers.get(server.serverId());
        servers.put(
                server.serverId(),
                before != null && before.draining() ? server.withDraining(true) : server);
    }

    @Override
    public void removeServer(int serverId) {
        servers.remove(serverId);
    }

    @Override
    public void setDraining(int serverId, boolean draining) {
        servers.computeIfPresent(serverId, (id, s) -> s.withDraining(draining));
    }

    @Override
    public Optional<TieringRecord> tieringRecord(long tableId) {
        return Optional.ofNullable(tiering.get(tableId));
    }

    @Override
    public void close() {}
}

package dev.tributary.coordinator.store;

import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The in-memory image both store implementations keep; callers synchronize. */
final class MutableState {
    final Map<String, DatabaseInfo> databases = new HashMap<>();
    final Map<Long, TableInfo> tables = new HashMap<>();
    final Map<Long, TieringRecord> tiering = new HashMap<>();
    final Map<Long, PartitionInfo> partitions = new HashMap<>();
    final Map<Integer, ServerRegistration> servers = new HashMap<>();
    final Map<BucketAssignment.Group, BucketAssignment> assignments = new HashMap<>();
    long maxTableId;
    long maxPartitionId;
    long incarnation;

    void putDatabase(DatabaseInfo db) {
        databases.put(db.name(), db);
    }

    void removeDatabase(String name) {
        databases.remove(name);
    }

    void putTable(TableInfo t) {
        tables.put(t.tableId(), t);
        maxTableId = Math.max(maxTableId, t.tableId());
    }

    void removeTable(long id) {
        tables.remove(id);
        tiering.remove(id);
        partitions.values().removeIf(p -> p.tableId() == id);
        assignments.keySet().removeIf(g -> g.tableId() == id);
    }

    boolean putTiering(TieringRecord r) {
        if (!tables.containsKey(r.tableId())) {
            return false;
        }
        tiering.put(r.tableId(), r);
        return true;
    }

    Optional<TieringRecord> tiering(long id) {
        return Optional.ofNullable(tiering.get(id));
    }

    /** False (and nothing stored) when the partition's table no longer exists. */
    boolean putPartition(PartitionInfo p) {
        maxPartitionId = Math.max(maxPartitionId, p.partitionId());
        if (!tables.containsKey(p.tableId())) {
            return false;
        }
        partitions.put(p.partitionId(), p);
        return true;
    }

    void removePartition(long tableId, long partitionId) {
        PartitionInfo p = partitions.get(partitionId);
        if (p != null && p.tableId() == tableId) {
            partitions.remove(partitionId);
            assignments.remove(new BucketAssignment.Group(tableId, partitionId));
        }
        TieringRecord r = tiering.get(tableId);
        if (r != null) {
            tiering.put(tableId, r.withoutPartition(partitionId));
        }
    }

    /** Registers a server; a registration replacing another keeps its drain mark. */
    void putServer(ServerRegistration server) {
        ServerRegistration before = servers.get(server.serverId());
        servers.put(
                server.serverId(),
                before != null && before.draining() ? server.withDraining(true) : server);
    }

    void removeServer(int serverId) {
        servers.remove(serverId);
    }

    /** Nothing if the server is not registered. */
    void setDraining(int serverId, boolean draining) {
        servers.computeIfPresent(serverId, (id, s) -> s.withDraining(draining));
    }

    /** False (and nothing stored) when the table or the partition no longer exists. */
    boolean putAssignment(BucketAssignment a) {
        if (!tables.containsKey(a.tableId())) {
            return false;
        }
        if (a.partitionId() != TableBucket.NO_PARTITION) {
            PartitionInfo p = partitions.get(a.partitionId());
            if (p == null || p.tableId() != a.tableId()) {
                return false;
            }
        }
        assignments.put(a.group(), a);
        return true;
    }

    /** A sorted, immutable copy of the registered servers. */
    Map<Integer, ServerRegistration> serversCopy() {
        return java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(servers));
    }

    /** An immutable copy of the tiering records by table id. */
    Map<Long, TieringRecord> tieringCopy() {
        return Map.copyOf(tiering);
    }

    StoredState snapshot() {
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
}

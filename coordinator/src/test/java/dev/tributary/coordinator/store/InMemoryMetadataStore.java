package dev.tributary.coordinator.store;

import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import java.util.Optional;

/**
 * A non-durable store for unit tests and benchmarks of the coordinator's own cost. Keeps its state
 * across "restarts" when the same instance is reused.
 */
public final class InMemoryMetadataStore implements MetadataStore {
    private final MutableState state = new MutableState();

    @Override
    public synchronized StoredState load() {
        return state.snapshot();
    }

    @Override
    public synchronized long startIncarnation() {
        return ++state.incarnation;
    }

    @Override
    public synchronized void putDatabase(DatabaseInfo database) {
        state.putDatabase(database);
    }

    @Override
    public synchronized void removeDatabase(String name) {
        state.removeDatabase(name);
    }

    @Override
    public synchronized void putTable(TableInfo table) {
        state.putTable(table);
    }

    @Override
    public synchronized void removeTable(long tableId) {
        state.removeTable(tableId);
    }

    @Override
    public synchronized boolean putTieringRecord(TieringRecord record) {
        return state.putTiering(record);
    }

    @Override
    public synchronized boolean putAssignment(
            dev.tributary.coordinator.metadata.BucketAssignment assignment) {
        return state.putAssignment(assignment);
    }

    @Override
    public synchronized void putPartition(PartitionInfo partition) {
        state.putPartition(partition);
    }

    @Override
    public synchronized void removePartition(long tableId, long partitionId) {
        state.removePartition(tableId, partitionId);
    }

    @Override
    public synchronized void putServer(ServerRegistration server) {
        state.putServer(server);
    }

    @Override
    public synchronized void removeServer(int serverId) {
        state.removeServer(serverId);
    }

    @Override
    public synchronized void setDraining(int serverId, boolean draining) {
        state.setDraining(serverId, draining);
    }

    @Override
    public synchronized java.util.Map<Integer, ServerRegistration> servers() {
        return state.serversCopy();
    }

    @Override
    public synchronized Optional<TieringRecord> tieringRecord(long tableId) {
        return state.tiering(tableId);
    }

    @Override
    public void close() {}
}

package dev.tributary.planner.sim;

import dev.tributary.coordinator.metadata.DatabaseInfo;
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
    private long maxTableId;
    private long incarnation;

    @Override
    public StoredState load() {
        return new StoredState(databases, tables, tiering, maxTableId, incarnation);
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
    public Optional<TieringRecord> tieringRecord(long tableId) {
        return Optional.ofNullable(tiering.get(tableId));
    }

    @Override
    public void close() {}
}

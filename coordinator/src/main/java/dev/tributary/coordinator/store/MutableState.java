package dev.tributary.coordinator.store;

import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The in-memory image both store implementations keep; callers synchronize. */
final class MutableState {
    final Map<String, DatabaseInfo> databases = new HashMap<>();
    final Map<Long, TableInfo> tables = new HashMap<>();
    final Map<Long, TieringRecord> tiering = new HashMap<>();
    long maxTableId;
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

    StoredState snapshot() {
        return new StoredState(databases, tables, tiering, maxTableId, incarnation);
    }
}

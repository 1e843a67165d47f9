package dev.tributary.server.store;

import dev.tributary.common.exception.NotFoundException;
import dev.tributary.coordinator.metadata.TableInfo;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tables the data path may touch, by id: a lock-free copy of the registry's tables, updated
 * after each DDL is durable. Write and read calls look tables up here instead of going through the
 * coordinator's event loop.
 */
public final class TableCatalog {
    private final Map<Long, TableInfo> byId = new ConcurrentHashMap<>();

    public void put(TableInfo table) {
        byId.put(table.tableId(), table);
    }

    public void remove(long tableId) {
        byId.remove(tableId);
    }

    /**
     * The table with this id.
     *
     * @throws NotFoundException if there is none (never created, or dropped)
     */
    public TableInfo get(long tableId) {
        TableInfo t = byId.get(tableId);
        if (t == null) {
            throw new NotFoundException(
                    "table id "
                            + tableId
                            + " does not exist (dropped or never created); describe the table"
                            + " again to get its current id");
        }
        return t;
    }

    /** The table with this id, if it exists. */
    public java.util.Optional<TableInfo> find(long tableId) {
        return java.util.Optional.ofNullable(byId.get(tableId));
    }

    public Collection<TableInfo> all() {
        return List.copyOf(byId.values());
    }
}

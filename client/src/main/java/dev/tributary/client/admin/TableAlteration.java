package dev.tributary.client.admin;

import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The changes of one ALTER TABLE, applied atomically: set or reset properties, append nullable
 * columns (rows written before read back with NULL in them).
 */
public final class TableAlteration {
    private final Map<String, String> set = new LinkedHashMap<>();
    private final List<String> reset = new ArrayList<>();
    private final List<Column> addColumns = new ArrayList<>();

    public static TableAlteration create() {
        return new TableAlteration();
    }

    public TableAlteration setProperty(String key, String value) {
        set.put(key, value);
        return this;
    }

    public TableAlteration resetProperty(String key) {
        reset.add(key);
        return this;
    }

    /** Appends a column; {@code type} must be nullable. */
    public TableAlteration addColumn(String name, DataType type) {
        addColumns.add(new Column(name, type));
        return this;
    }

    public Map<String, String> setProperties() {
        return set;
    }

    public List<String> resetProperties() {
        return reset;
    }

    public List<Column> addedColumns() {
        return addColumns;
    }

    public boolean isEmpty() {
        return set.isEmpty() && reset.isEmpty() && addColumns.isEmpty();
    }
}

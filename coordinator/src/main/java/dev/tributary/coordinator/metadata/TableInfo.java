package dev.tributary.coordinator.metadata;

import dev.tributary.common.config.TableConfig;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A registered table: the id the coordinator assigned (monotonic, never reused), its path, its
 * current descriptor (latest schema and properties) and every schema version it has had. Immutable;
 * ALTER produces a new instance. Its table options are parsed once, here, into {@link #options()};
 * equality is over the stored fields, not that derived view.
 */
public final class TableInfo {
    private final long tableId;
    private final TablePath path;
    private final TableDescriptor descriptor;
    private final int schemaId;
    private final NavigableMap<Integer, Schema> schemas;
    private final long createdTimeMillis;
    private final long modifiedTimeMillis;
    private final TableConfig options;

    /**
     * @param tableId unique id, never reused after a drop
     * @param path {@code db.table}
     * @param descriptor current descriptor (its schema is the one with {@code schemaId})
     * @param schemaId id of the current schema; batches written under it carry this id
     * @param schemas every schema version by id (ids start at 1 and grow by one per added column)
     * @param createdTimeMillis wall-clock creation time
     * @param modifiedTimeMillis wall-clock time of the last ALTER (or creation)
     */
    public TableInfo(
            long tableId,
            TablePath path,
            TableDescriptor descriptor,
            int schemaId,
            NavigableMap<Integer, Schema> schemas,
            long createdTimeMillis,
            long modifiedTimeMillis) {
        this.tableId = tableId;
        this.path = Objects.requireNonNull(path, "path");
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
        this.schemaId = schemaId;
        this.schemas = Collections.unmodifiableNavigableMap(new TreeMap<>(schemas));
        this.createdTimeMillis = createdTimeMillis;
        this.modifiedTimeMillis = modifiedTimeMillis;
        if (!descriptor.schema().equals(this.schemas.get(schemaId))) {
            throw new IllegalArgumentException(
                    "schema id " + schemaId + " does not match the descriptor's schema");
        }
        this.options = TableConfig.of(descriptor.properties());
    }

    /** A first version: schema id 1. */
    public static TableInfo create(
            long tableId, TablePath path, TableDescriptor descriptor, long nowMillis) {
        return new TableInfo(
                tableId,
                path,
                descriptor,
                1,
                new TreeMap<>(Map.of(1, descriptor.schema())),
                nowMillis,
                nowMillis);
    }

    public long tableId() {
        return tableId;
    }

    public TablePath path() {
        return path;
    }

    public TableDescriptor descriptor() {
        return descriptor;
    }

    public int schemaId() {
        return schemaId;
    }

    public NavigableMap<Integer, Schema> schemas() {
        return schemas;
    }

    public long createdTimeMillis() {
        return createdTimeMillis;
    }

    public long modifiedTimeMillis() {
        return modifiedTimeMillis;
    }

    public Schema schema() {
        return descriptor.schema();
    }

    public Map<String, String> properties() {
        return descriptor.properties();
    }

    /**
     * The table's options, parsed when this instance was built. A table stored before T56 may hold
     * keys that are refused today; they are ignored and listed in its {@code warnings()}.
     */
    public TableConfig options() {
        return options;
    }

    public boolean lakeEnabled() {
        return options.get(TableOptions.DATALAKE_ENABLED);
    }

    public Duration freshness() {
        return options.get(TableOptions.DATALAKE_FRESHNESS);
    }

    public String tieringGroup() {
        return options.get(TableOptions.TIERING_GROUP);
    }

    public String lakeFormat() {
        return options.get(TableOptions.DATALAKE_FORMAT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableInfo t
                && tableId == t.tableId
                && schemaId == t.schemaId
                && createdTimeMillis == t.createdTimeMillis
                && modifiedTimeMillis == t.modifiedTimeMillis
                && path.equals(t.path)
                && descriptor.equals(t.descriptor)
                && schemas.equals(t.schemas);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tableId, path, schemaId, modifiedTimeMillis);
    }

    @Override
    public String toString() {
        return "TableInfo[tableId="
                + tableId
                + ", path="
                + path
                + ", schemaId="
                + schemaId
                + ", descriptor="
                + descriptor
                + "]";
    }
}

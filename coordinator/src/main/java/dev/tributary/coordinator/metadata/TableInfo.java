package dev.tributary.coordinator.metadata;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.time.Duration;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A registered table: the id the coordinator assigned (monotonic, never reused), its path, its
 * current descriptor (latest schema and properties) and every schema version it has had. Immutable;
 * ALTER produces a new instance.
 *
 * @param tableId unique id, never reused after a drop
 * @param path {@code db.table}
 * @param descriptor current descriptor (its schema is the one with {@code schemaId})
 * @param schemaId id of the current schema; batches written under it carry this id
 * @param schemas every schema version by id (ids start at 1 and grow by one per added column)
 * @param createdTimeMillis wall-clock creation time
 * @param modifiedTimeMillis wall-clock time of the last ALTER (or creation)
 */
public record TableInfo(
        long tableId,
        TablePath path,
        TableDescriptor descriptor,
        int schemaId,
        NavigableMap<Integer, Schema> schemas,
        long createdTimeMillis,
        long modifiedTimeMillis) {

    public TableInfo {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(descriptor, "descriptor");
        schemas = java.util.Collections.unmodifiableNavigableMap(new TreeMap<>(schemas));
        if (!descriptor.schema().equals(schemas.get(schemaId))) {
            throw new IllegalArgumentException(
                    "schema id " + schemaId + " does not match the descriptor's schema");
        }
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

    public Schema schema() {
        return descriptor.schema();
    }

    public Map<String, String> properties() {
        return descriptor.properties();
    }

    /** The table's properties read through typed options. */
    public Configuration options() {
        return Configuration.fromMap(descriptor.properties());
    }

    public boolean lakeEnabled() {
        return options().get(TieringTableOptions.DATALAKE_ENABLED);
    }

    public Duration freshness() {
        return options().get(TieringTableOptions.DATALAKE_FRESHNESS);
    }

    public String tieringGroup() {
        return options().get(TieringTableOptions.TIERING_GROUP);
    }

    public String lakeFormat() {
        return options().get(TieringTableOptions.DATALAKE_FORMAT);
    }
}

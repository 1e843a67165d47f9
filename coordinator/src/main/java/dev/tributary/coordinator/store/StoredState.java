package dev.tributary.coordinator.store;

import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import java.util.Map;

/**
 * Everything a {@link MetadataStore} holds, as loaded at startup.
 *
 * @param databases by name
 * @param tables by table id
 * @param tiering tiering records by table id (only for tables that exist)
 * @param maxTableId the largest table id ever assigned (also of dropped tables), 0 if none
 * @param incarnation the number of the last coordinator start, 0 if never started
 */
public record StoredState(
        Map<String, DatabaseInfo> databases,
        Map<Long, TableInfo> tables,
        Map<Long, TieringRecord> tiering,
        long maxTableId,
        long incarnation) {

    public StoredState {
        databases = Map.copyOf(databases);
        tables = Map.copyOf(tables);
        tiering = Map.copyOf(tiering);
    }
}

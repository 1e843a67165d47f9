package dev.tributary.coordinator.store;

import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

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
        // Sorted, so that restarts rebuild state in the same order every time (reproducible
        // simulations); Map.copyOf would iterate in a per-JVM random order.
        databases = Collections.unmodifiableMap(new TreeMap<>(databases));
        tables = Collections.unmodifiableMap(new TreeMap<>(tables));
        tiering = Collections.unmodifiableMap(new TreeMap<>(tiering));
    }
}

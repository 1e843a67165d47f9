package dev.tributary.coordinator.store;

import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
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
 * @param partitions partitions of partitioned tables by partition id (only for tables that exist)
 * @param maxPartitionId the largest partition id ever assigned (also of removed ones), 0 if none
 * @param servers the registered servers by server id (T49)
 * @param assignments the servers of each table's or partition's buckets (T49), only for tables and
 *     partitions that exist
 */
public record StoredState(
        Map<String, DatabaseInfo> databases,
        Map<Long, TableInfo> tables,
        Map<Long, TieringRecord> tiering,
        long maxTableId,
        long incarnation,
        Map<Long, PartitionInfo> partitions,
        long maxPartitionId,
        Map<Integer, ServerRegistration> servers,
        Map<BucketAssignment.Group, BucketAssignment> assignments) {

    public StoredState {
        // Sorted, so that restarts rebuild state in the same order every time (reproducible
        // simulations); Map.copyOf would iterate in a per-JVM random order.
        databases = Collections.unmodifiableMap(new TreeMap<>(databases));
        tables = Collections.unmodifiableMap(new TreeMap<>(tables));
        tiering = Collections.unmodifiableMap(new TreeMap<>(tiering));
        partitions = Collections.unmodifiableMap(new TreeMap<>(partitions));
        servers = Collections.unmodifiableMap(new TreeMap<>(servers));
        assignments = Collections.unmodifiableMap(new TreeMap<>(assignments));
    }
}

package dev.tributary.coordinator.maintenance;

import dev.tributary.coordinator.metadata.TableInfo;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lake tables under maintenance and each group's compaction queue (its own entry next to the
 * group's tiering queue). A {@link TableMaintenance} stays reachable from I/O outcomes and timers
 * after its table was dropped or its lake disabled; {@link #isCurrent} tells those late callers
 * that the table they hold is gone. Event-loop thread only.
 */
final class MaintenanceTables {
    private final Map<Long, TableMaintenance> tables = new HashMap<>();
    private final Map<String, ArrayDeque<TableMaintenance>> queues = new HashMap<>();

    /** The table's maintenance, or {@code null} if it is not a lake table. */
    TableMaintenance get(long tableId) {
        return tables.get(tableId);
    }

    TableMaintenance add(TableInfo table) {
        TableMaintenance t = new TableMaintenance(table);
        tables.put(table.tableId(), t);
        return t;
    }

    /** Forgets the table, and takes it out of its compaction queue. */
    void remove(TableMaintenance t) {
        tables.remove(t.tableId());
        if (t.state == MaintenanceState.QUEUED) {
            dequeue(t);
        }
    }

    /** Whether {@code t} is still the table's maintenance (not dropped or disabled since). */
    boolean isCurrent(TableMaintenance t) {
        return tables.get(t.tableId()) == t;
    }

    /** Every table, copied: callers end grants while they iterate. */
    List<TableMaintenance> all() {
        return List.copyOf(tables.values());
    }

    // ---------------------------------------------------------------- compaction queues

    /** Queues a QUEUED table in its group's compaction queue. */
    void enqueue(TableMaintenance t) {
        t.queuedInGroup = t.group();
        queue(t.group()).add(t);
    }

    void dequeue(TableMaintenance t) {
        queue(t.queuedInGroup).remove(t);
    }

    /** The next queued table of {@code group} that is still current and QUEUED, or null. */
    TableMaintenance pollQueued(String group) {
        ArrayDeque<TableMaintenance> q = queues.get(group);
        while (q != null && !q.isEmpty()) {
            TableMaintenance t = q.poll();
            if (isCurrent(t) && t.state == MaintenanceState.QUEUED) {
                return t;
            }
        }
        return null;
    }

    /** The table's position in its compaction queue (0 = next), or -1 if it is not queued. */
    int position(TableMaintenance t) {
        if (t.state != MaintenanceState.QUEUED) {
            return -1;
        }
        return List.copyOf(queue(t.queuedInGroup)).indexOf(t);
    }

    private ArrayDeque<TableMaintenance> queue(String group) {
        return queues.computeIfAbsent(group, g -> new ArrayDeque<>());
    }
}

package dev.tributary.coordinator.store;

import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One table as the applied metadata holds it (T49): its definition, its partitions and the servers
 * of its buckets. What a server needs to decide which of the table's buckets it opens.
 *
 * @param table the table's current definition
 * @param partitions its partitions (empty for an unpartitioned table), by ascending id
 * @param assignments the assigned bucket groups by partition id ({@link TableBucket#NO_PARTITION}
 *     for an unpartitioned table's buckets); a group not assigned yet is absent
 */
public record AppliedTable(
        TableInfo table, List<PartitionInfo> partitions, Map<Long, BucketAssignment> assignments) {

    public AppliedTable {
        partitions = List.copyOf(partitions);
        assignments = Map.copyOf(assignments);
    }

    /**
     * Picks a table's partitions and assignments out of the whole metadata's.
     *
     * @param partitions every partition, of any table
     * @param assignments every assignment, of any table
     */
    public static AppliedTable of(
            TableInfo table,
            Collection<PartitionInfo> partitions,
            Map<BucketAssignment.Group, BucketAssignment> assignments) {
        List<PartitionInfo> own = new ArrayList<>();
        for (PartitionInfo p : partitions) {
            if (p.tableId() == table.tableId()) {
                own.add(p);
            }
        }
        return assemble(table, own, assignments);
    }

    /**
     * Every table of the metadata, its partitions grouped in one pass (a reset sees every table:
     * picking each table's partitions out of all of them would be tables x partitions).
     */
    public static List<AppliedTable> allOf(
            Collection<TableInfo> tables,
            Collection<PartitionInfo> partitions,
            Map<BucketAssignment.Group, BucketAssignment> assignments) {
        Map<Long, List<PartitionInfo>> byTable = new HashMap<>();
        for (PartitionInfo p : partitions) {
            byTable.computeIfAbsent(p.tableId(), id -> new ArrayList<>()).add(p);
        }
        List<AppliedTable> out = new ArrayList<>(tables.size());
        for (TableInfo t : tables) {
            out.add(assemble(t, byTable.getOrDefault(t.tableId(), new ArrayList<>()), assignments));
        }
        return out;
    }

    private static AppliedTable assemble(
            TableInfo table,
            List<PartitionInfo> own,
            Map<BucketAssignment.Group, BucketAssignment> assignments) {
        long id = table.tableId();
        own.sort(Comparator.comparingLong(PartitionInfo::partitionId));
        Map<Long, BucketAssignment> assigned = new HashMap<>();
        List<Long> groups = new ArrayList<>();
        groups.add(TableBucket.NO_PARTITION);
        own.forEach(p -> groups.add(p.partitionId()));
        for (long g : groups) {
            BucketAssignment a = assignments.get(new BucketAssignment.Group(id, g));
            if (a != null) {
                assigned.put(g, a);
            }
        }
        return new AppliedTable(table, own, assigned);
    }

    public long tableId() {
        return table.tableId();
    }

    /** The assignment of the table's buckets ({@code NO_PARTITION}) or of one partition's. */
    public Optional<BucketAssignment> assignment(long partitionId) {
        return Optional.ofNullable(assignments.get(partitionId));
    }
}

package dev.tributary.coordinator.maintenance;

import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.util.List;

/**
 * Compaction work handed to a job next to (never instead of) tiering work: only when no table of
 * the job's group is pending (T38). The job compacts each unit with the lake's compactor, in the
 * background of its readers' tiering, and commits every result of the grant at once through {@code
 * commitMaintenance}.
 *
 * @param tableId the table id
 * @param path the table path
 * @param descriptor the table's descriptor
 * @param maintenanceId the grant's id; heartbeats and the commit name it, compacted files carry it
 * @param baseSnapshotId the lake snapshot the plan was made from
 * @param units the (partition, bucket) units to compact, most files first
 * @param maxFiles the table's {@code table.datalake.compaction.max-files}
 * @param deadlineMillis the grant is given up at this time (coordinator clock) if not committed
 */
public record MaintenanceGrant(
        long tableId,
        TablePath path,
        TableDescriptor descriptor,
        long maintenanceId,
        long baseSnapshotId,
        List<LakeBucket> units,
        int maxFiles,
        long deadlineMillis) {
    public MaintenanceGrant {
        units = List.copyOf(units);
    }

    public MaintenanceAttempt attempt() {
        return new MaintenanceAttempt(tableId, maintenanceId);
    }
}

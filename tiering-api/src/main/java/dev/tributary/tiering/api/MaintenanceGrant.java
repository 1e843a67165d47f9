package dev.tributary.tiering.api;

import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.time.Duration;
import java.util.List;

/**
 * Compaction work handed to a job next to (never instead of) tiering work: only when no table of
 * the job's group is pending (T38). The job compacts each unit with the lake's compactor, in the
 * background of its readers' tiering, and commits every result of the grant at once with a {@link
 * MaintenanceCommit}.
 *
 * @param tableId the table id
 * @param path the table path
 * @param descriptor the table's descriptor
 * @param maintenanceId the grant's id; heartbeats and the commit name it, compacted files carry it
 * @param baseSnapshotId the lake snapshot the plan was made from
 * @param units the (partition, bucket) units to compact, most files first
 * @param maxFiles the table's {@code table.datalake.compaction.max-files}
 * @param timeout the grant is given up this long after it was granted (each side counts it on its
 *     own clock from when it granted or received it)
 */
public record MaintenanceGrant(
        long tableId,
        TablePath path,
        TableDescriptor descriptor,
        long maintenanceId,
        long baseSnapshotId,
        List<LakeBucket> units,
        int maxFiles,
        Duration timeout) {
    public MaintenanceGrant {
        units = List.copyOf(units);
    }

    public MaintenanceAttempt attempt() {
        return new MaintenanceAttempt(tableId, maintenanceId);
    }
}

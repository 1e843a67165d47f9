package dev.tributary.client.tiering;

import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.time.Duration;
import java.util.List;

/**
 * Compaction work for the job (T38), granted only when no table of its group was pending: compact
 * each (partition, bucket) unit with the lake's compactor, in the background of tiering, then
 * commit every result at once with {@link TieringGateway#commitMaintenance}.
 *
 * @param descriptor the table's descriptor
 * @param baseSnapshotId the lake snapshot the plan was made from
 * @param units the (partition, bucket) units to compact, most files first
 * @param maxFiles the table's {@code table.datalake.compaction.max-files}
 * @param timeout the grant is given up this long after it was received
 */
public record MaintenanceGrant(
        long tableId,
        TablePath tablePath,
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

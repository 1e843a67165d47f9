package dev.tributary.coordinator.maintenance;

import dev.tributary.coordinator.status.TableMaintenanceStatus;

/** A lake table's {@link TableMaintenanceStatus} (T28, T38, T39) from its maintenance state. */
final class MaintenanceStatusBuilder {
    private MaintenanceStatusBuilder() {}

    /**
     * @param queuePosition the table's position in its compaction queue, -1 unless queued
     */
    static TableMaintenanceStatus of(TableMaintenance t, int queuePosition) {
        return new TableMaintenanceStatus(
                t.state,
                t.settings.autoCompaction(),
                t.settings.maxFiles(),
                queuePosition,
                t.granted() ? t.maintenanceId : -1,
                t.jobId,
                t.stats,
                t.statsAtMillis,
                t.nextPassMillis,
                t.lastCompaction,
                t.compactions,
                t.yielded,
                t.failures,
                t.bytesRewritten,
                t.lastExpiryMillis,
                t.snapshotsExpired,
                t.filesDeleted,
                t.bytesReclaimed,
                t.lastError);
    }
}

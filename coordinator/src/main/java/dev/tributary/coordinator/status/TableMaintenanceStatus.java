package dev.tributary.coordinator.status;

import dev.tributary.coordinator.maintenance.MaintenanceState;
import dev.tributary.lake.api.maintenance.LakeTableStats;

/**
 * A lake table's maintenance (T38, T39): where it stands, what the lake held at the last pass, and
 * what compaction and snapshot expiry did. Counters are since the coordinator started.
 *
 * @param state the maintenance state
 * @param autoCompaction the table's {@code table.datalake.auto-compaction}
 * @param maxFiles the table's {@code table.datalake.compaction.max-files}
 * @param queuePosition 0-based position in its group's compaction queue, -1 unless queued
 * @param maintenanceId the current grant, -1 if none
 * @param jobId the job compacting it, or {@code null}
 * @param stats the lake table at the last pass (files per bucket, snapshots retained)
 * @param statsAtMillis when they were read, -1 before the first pass
 * @param nextPassMillis when the next pass is due, -1 if none is scheduled
 * @param lastCompaction the last compaction that ended, or {@code null}
 * @param compactions compactions committed
 * @param compactionsYielded compactions that gave way to tiering
 * @param compactionFailures compactions that failed, timed out or lost their job
 * @param bytesRewritten bytes of files compactions replaced
 * @param lastExpiryMillis when snapshots were last expired, -1 if never
 * @param snapshotsExpired snapshots expired
 * @param filesDeleted data and delete files expiry deleted
 * @param bytesReclaimed their bytes
 * @param lastError the last maintenance failure, or {@code null}
 */
public record TableMaintenanceStatus(
        MaintenanceState state,
        boolean autoCompaction,
        int maxFiles,
        int queuePosition,
        long maintenanceId,
        String jobId,
        LakeTableStats stats,
        long statsAtMillis,
        long nextPassMillis,
        MaintenanceRun lastCompaction,
        long compactions,
        long compactionsYielded,
        long compactionFailures,
        long bytesRewritten,
        long lastExpiryMillis,
        long snapshotsExpired,
        long filesDeleted,
        long bytesReclaimed,
        String lastError) {}

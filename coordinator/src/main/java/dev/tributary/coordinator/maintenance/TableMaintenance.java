package dev.tributary.coordinator.maintenance;

import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.status.MaintenanceRun;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.LakeTableStats;
import dev.tributary.lake.api.maintenance.MaintenanceCommitResult;

/** The maintenance manager's mutable state for one lake table. Event-loop thread only. */
final class TableMaintenance {
    TableInfo table;
    MaintenanceTableOptions.Settings settings;
    MaintenanceState state = MaintenanceState.IDLE;

    // Passes.
    boolean passWanted;
    long lastPassMillis = -1;
    TimerService.Timer passTimer;
    long nextPassMillis = -1;
    String queuedInGroup;
    CompactionPlan plan;

    // The current grant.
    long maintenanceId = -1;
    String jobId;
    long grantedAtMillis = -1;
    long lastHeartbeatNanos;
    TimerService.Timer deadline;

    // What users see.
    LakeTableStats stats = LakeTableStats.EMPTY;
    long statsAtMillis = -1;
    MaintenanceRun lastCompaction;
    long compactions;
    long yielded;
    long failures;
    long consecutiveFailures;
    long bytesRewritten;
    long lastExpiryMillis = -1;
    long snapshotsExpired;
    long filesDeleted;
    long bytesReclaimed;
    String lastError;

    TableMaintenance(TableInfo table) {
        this.table = table;
        this.settings = MaintenanceTableOptions.Settings.of(table.options());
    }

    long tableId() {
        return table.tableId();
    }

    String group() {
        return table.tieringGroup();
    }

    void transition(MaintenanceState next) {
        state = state.transitionTo(next, tableId());
    }

    /** A grant is out: the job may still write files named after it. */
    boolean granted() {
        return state == MaintenanceState.COMPACTING || state == MaintenanceState.COMMITTING;
    }

    void cancelPassTimer() {
        if (passTimer != null) {
            passTimer.cancel();
            passTimer = null;
        }
        nextPassMillis = -1;
    }

    /** The record of the current grant's end, as the status shows it. */
    MaintenanceRun endedRun(
            MaintenanceRun.Outcome outcome,
            MaintenanceCommitResult r,
            String message,
            long endedAtMillis) {
        return new MaintenanceRun(
                maintenanceId,
                jobId,
                grantedAtMillis,
                endedAtMillis,
                outcome,
                plan == null ? 0 : plan.units().size(),
                r == null ? 0 : r.filesRemoved(),
                r == null ? 0 : r.filesAdded(),
                r == null ? 0 : r.bytesRewritten(),
                r == null ? 0 : r.bytesWritten(),
                r == null ? -1 : r.snapshotId(),
                message);
    }

    void endGrant() {
        if (deadline != null) {
            deadline.cancel();
            deadline = null;
        }
        jobId = null;
        grantedAtMillis = -1;
    }
}

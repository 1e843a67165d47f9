package dev.tributary.coordinator.tiering;

import dev.tributary.coordinator.status.CoordinatorStatus;
import dev.tributary.coordinator.status.JobStatus;
import dev.tributary.coordinator.status.TableTieringStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds T28 status snapshots from the manager's state (on the event loop). */
final class TieringStatusBuilder {
    private TieringStatusBuilder() {}

    static CoordinatorStatus build(TieringManager m) {
        Map<Long, Integer> positions = new HashMap<>();
        int pending = 0;
        for (PendingQueue q : m.queuesView().values()) {
            int i = 0;
            for (TableTiering t : q.inOrder()) {
                positions.put(t.tableId(), i++);
            }
            pending += q.size();
        }
        List<TableTieringStatus> tables = new ArrayList<>(m.tablesView().size());
        for (TableTiering t : m.tablesView().values()) {
            tables.add(table(m, t, positions));
        }
        tables.sort(Comparator.comparing(s -> s.path().toString()));
        List<JobStatus> jobs = new ArrayList<>();
        for (JobInfo j : m.jobsView()) {
            jobs.add(
                    new JobStatus(
                            j.jobId,
                            j.group,
                            j.parallelism,
                            j.lastHeartbeatMillis,
                            new ArrayList<>(j.tables),
                            j.tableRequests,
                            j.pushedPlans,
                            m.waiting(j.jobId)));
        }
        jobs.sort(Comparator.comparing(JobStatus::jobId));
        return new CoordinatorStatus(
                m.clock().currentTimeMillis(), tables, jobs, pending, m.tieringCount());
    }

    /** One table; {@code positions} may be null, then the position is computed (O(queue)). */
    static TableTieringStatus table(
            TieringManager m, TableTiering t, Map<Long, Integer> positions) {
        int position = -1;
        if (t.state == TieringState.PENDING) {
            if (positions != null) {
                position = positions.getOrDefault(t.tableId(), -1);
            } else {
                PendingQueue q = m.queuesView().get(t.queuedInGroup);
                position = q == null ? -1 : q.inOrder().indexOf(t);
            }
        }
        return new TableTieringStatus(
                t.tableId(),
                t.table.path(),
                t.group(),
                t.state,
                t.epoch,
                t.jobId,
                position,
                t.pendingSinceMillis,
                t.state == TieringState.TIERING ? t.roundStartMillis : -1,
                t.commitInFlight,
                t.nextDueMillis,
                t.table.freshness(),
                t.record.lastRound(),
                t.rounds.snapshot(),
                t.consecutiveFailures,
                t.totalFailures,
                t.lastFailure,
                t.record.offsets(),
                t.record.lastTieredTimeMillis(),
                t.record.lakeSnapshotId(),
                m.maintenanceStatus(t.tableId()));
    }
}

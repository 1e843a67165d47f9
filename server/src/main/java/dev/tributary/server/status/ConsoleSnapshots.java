package dev.tributary.server.status;

import dev.tributary.common.exception.NotFoundException;
import dev.tributary.coordinator.status.JobStatus;
import dev.tributary.server.plan.TieringPlanService;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Takes {@link ConsoleSnapshot}s: one status, then the history up to its instant. */
public final class ConsoleSnapshots {
    private final TieringStatusService status;
    private final LagHistory history;
    private final TieringPlanService plans;

    /**
     * @param plans the tiering planner's verdicts shown per table; {@code null} for none
     */
    public ConsoleSnapshots(
            TieringStatusService status, LagHistory history, TieringPlanService plans) {
        this.status = status;
        this.history = history;
        this.plans = plans;
    }

    /**
     * @param table {@code db.table} for a table page (its round history included), or {@code null}
     *     for the overview
     * @param sinceMillis history samples after this time only; -1 for all
     * @throws NotFoundException if {@code table} is not a lake table
     */
    public ConsoleSnapshot take(String table, long sinceMillis) {
        TieringStatusService.Overview o = status.overview();
        long now = o.timeMillis();
        Map<Long, String> names = new HashMap<>();
        int failing = 0;
        TableStatusView selected = null;
        Map<String, List<TableStatusView>> pending = new TreeMap<>();
        for (TableStatusView t : o.tables()) {
            names.put(t.tableId(), t.table());
            if (t.consecutiveFailures() > 0) {
                failing++;
            }
            if (t.table().equals(table)) {
                selected = t;
            }
            if (t.queuePosition() >= 0) {
                pending.computeIfAbsent(t.group(), g -> new ArrayList<>()).add(t);
            }
        }
        if (table != null && selected == null) {
            throw new NotFoundException(
                    "'"
                            + table
                            + "' is not a lake table: it does not exist or has"
                            + " table.datalake.enabled=false; the overview at / lists the lake"
                            + " tables");
        }
        List<ConsoleSnapshot.Queue> queues = new ArrayList<>();
        pending.forEach(
                (group, ts) -> {
                    ts.sort(Comparator.comparingInt(TableStatusView::queuePosition));
                    queues.add(
                            new ConsoleSnapshot.Queue(
                                    group, ts.stream().map(TableStatusView::table).toList()));
                });
        List<ConsoleSnapshot.Job> jobs = new ArrayList<>();
        for (JobStatus j : o.jobs()) {
            List<String> held = new ArrayList<>();
            for (long id : j.tables()) {
                held.add(names.getOrDefault(id, "table " + id));
            }
            jobs.add(
                    new ConsoleSnapshot.Job(
                            j.jobId(),
                            j.group(),
                            j.lastHeartbeatMillis(),
                            now - j.lastHeartbeatMillis() <= status.heartbeatTimeoutMillis(),
                            held));
        }
        List<TableStatusView> tables;
        List<LagHistoryView.Series> series = history.between(sinceMillis, now);
        if (selected != null) {
            tables = List.of(selected);
            long id = selected.tableId();
            series = series.stream().filter(s -> s.tableId() == id).toList();
        } else {
            tables = o.tables().stream().map(TableStatusView::withoutRounds).toList();
        }
        return new ConsoleSnapshot(
                now,
                plans == null ? null : plans.verdicts(),
                new ConsoleSnapshot.Summary(
                        o.tables().size(),
                        o.tieringCount(),
                        o.pendingCount(),
                        failing,
                        o.liveJobs(),
                        o.jobs().size()),
                tables,
                jobs,
                queues,
                new ConsoleSnapshot.History(
                        history.intervalMillis(),
                        history.retentionMillis(),
                        Math.max(sinceMillis, newest(series)),
                        sinceMillis,
                        series));
    }

    private static long newest(List<LagHistoryView.Series> series) {
        long newest = -1;
        for (LagHistoryView.Series s : series) {
            int n = s.timeMillis().length;
            if (n > 0) {
                newest = Math.max(newest, s.timeMillis()[n - 1]);
            }
        }
        return newest;
    }
}

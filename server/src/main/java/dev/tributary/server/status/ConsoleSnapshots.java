package dev.tributary.server.status;

import dev.tributary.common.exception.NotFoundException;
import dev.tributary.coordinator.status.CoordinatorStatus;
import dev.tributary.coordinator.status.JobStatus;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.server.plan.TieringPlanService;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Takes {@link ConsoleSnapshot}s: one status, then the history up to its instant. A snapshot's size
 * depends on the page's tables, never on the rounds that ran or on the tables of other pages: the
 * overview has one row per table of its page and at most {@link #OVERVIEW_POINTS} lag samples per
 * table; a table's page has its round history (capped by the coordinator) and its lag samples
 * (capped by the retention).
 */
public final class ConsoleSnapshots {
    /** Lag samples per table in one overview answer, enough for a small plot. */
    public static final int OVERVIEW_POINTS = 120;

    private final TieringStatusService status;
    private final LagHistory history;
    private final TieringPlanService plans;
    private final Supplier<Map<String, Object>> cluster;
    private final LongFunction<List<Map<String, Object>>> replicas;

    /**
     * @param plans the tiering planner's verdicts shown per table; {@code null} for none
     * @param cluster the overview's cluster section (T49); {@code null} for none
     * @param replicas a table page's bucket replicas by table id (T50, {@link ReplicaRows}); {@code
     *     null} for none
     */
    public ConsoleSnapshots(
            TieringStatusService status,
            LagHistory history,
            TieringPlanService plans,
            Supplier<Map<String, Object>> cluster,
            LongFunction<List<Map<String, Object>>> replicas) {
        this.status = status;
        this.history = history;
        this.plans = plans;
        this.cluster = cluster;
        this.replicas = replicas;
    }

    /**
     * @param table {@code db.table} for a table page (its round history included), or {@code null}
     *     for the overview
     * @param sinceMillis history samples after this time only; -1 for all
     * @param page the overview's tables; ignored for a table page
     * @throws NotFoundException if {@code table} is not a lake table
     */
    public ConsoleSnapshot take(String table, long sinceMillis, PageRequest page) {
        CoordinatorStatus o = status.coordinatorStatus();
        long now = o.timeMillis();
        Map<Long, String> names = new HashMap<>();
        TableTieringStatus selected = null;
        Map<String, List<TableTieringStatus>> pending = new TreeMap<>();
        for (TableTieringStatus t : o.tables()) {
            names.put(t.tableId(), t.path().toString());
            if (t.path().toString().equals(table)) {
                selected = t;
            }
            if (t.queuePosition() >= 0) {
                pending.computeIfAbsent(t.group(), g -> new ArrayList<>()).add(t);
            }
        }
        if (table != null && selected == null) {
            throw TieringStatusService.notALakeTable(table);
        }
        List<ConsoleSnapshot.Queue> queues = new ArrayList<>();
        pending.forEach(
                (group, ts) -> {
                    ts.sort(Comparator.comparingInt(TableTieringStatus::queuePosition));
                    queues.add(
                            new ConsoleSnapshot.Queue(
                                    group,
                                    ts.size(),
                                    ts.stream()
                                            .limit(ConsoleSnapshot.NAMES_SHOWN)
                                            .map(t -> t.path().toString())
                                            .toList()));
                });
        List<ConsoleSnapshot.Job> jobs = new ArrayList<>();
        for (JobStatus j : o.jobs()) {
            List<String> held = new ArrayList<>();
            for (long id : j.tables()) {
                if (held.size() == ConsoleSnapshot.NAMES_SHOWN) {
                    break;
                }
                held.add(names.getOrDefault(id, "table " + id));
            }
            jobs.add(
                    new ConsoleSnapshot.Job(
                            j.jobId(),
                            j.group(),
                            j.lastHeartbeatMillis(),
                            now - j.lastHeartbeatMillis() <= status.heartbeatTimeoutMillis(),
                            j.tables().size(),
                            held));
        }
        List<?> tables;
        Set<Long> shown = new LinkedHashSet<>();
        Set<String> shownNames = new LinkedHashSet<>();
        List<LagHistoryView.Series> series;
        if (selected != null) {
            page = PageRequest.FIRST;
            TableStatusView v = status.view(selected);
            tables = List.of(v);
            shown.add(v.tableId());
            shownNames.add(v.table());
            series = history.between(sinceMillis, now, shown, Integer.MAX_VALUE);
        } else {
            List<TableRow> rows = new ArrayList<>();
            for (TableTieringStatus t : page.of(o.tables())) {
                TableRow r = TableRow.of(status.view(t));
                rows.add(r);
                shown.add(r.tableId());
                shownNames.add(r.table());
            }
            tables = rows;
            series = history.between(sinceMillis, now, shown, OVERVIEW_POINTS);
        }
        return new ConsoleSnapshot(
                now,
                plans == null ? null : verdictsOf(plans.verdicts(), shownNames),
                new ConsoleSnapshot.Summary(
                        o.tables().size(),
                        o.tieringCount(),
                        o.pendingCount(),
                        TieringStatusService.failing(o),
                        status.liveJobs(o),
                        o.jobs().size(),
                        status.lake()),
                new ConsoleSnapshot.Page(page.offset(), page.limit(), o.tables().size()),
                tables,
                jobs,
                queues,
                new ConsoleSnapshot.History(
                        history.intervalMillis(),
                        history.retentionMillis(),
                        Math.max(sinceMillis, newest(series)),
                        sinceMillis,
                        series),
                selected == null && cluster != null ? cluster.get() : null,
                selected != null && replicas != null ? replicas.apply(selected.tableId()) : null);
    }

    /** The verdicts of the tables shown only. */
    private static TieringPlanService.Verdicts verdictsOf(
            TieringPlanService.Verdicts all, Set<String> tables) {
        if (all == null || all.tables() == null) {
            return all;
        }
        Map<String, TieringPlanService.Verdict> mine = new LinkedHashMap<>();
        for (String t : tables) {
            TieringPlanService.Verdict v = all.tables().get(t);
            if (v != null) {
                mine.put(t, v);
            }
        }
        return new TieringPlanService.Verdicts(
                all.computedAtMillis(), all.horizonMillis(), mine, all.error());
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

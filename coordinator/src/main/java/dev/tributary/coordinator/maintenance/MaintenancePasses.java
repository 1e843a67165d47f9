package dev.tributary.coordinator.maintenance;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.runtime.LakeIoRunner;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.spi.LakeMaintenanceStep;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.ExpiryPolicy;
import dev.tributary.lake.api.maintenance.ExpiryResult;
import java.util.function.LongUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When each table's maintenance pass runs, and what it finds (T38, T39): a pass expires snapshots
 * by the table's retention, reads the live files per bucket and plans compaction within the table's
 * budget, on the maintenance I/O threads; a plan goes to the group's compaction queue (IDLE ->
 * CHECKING -> QUEUED), no plan leaves the table IDLE.
 *
 * <p>Passes run at most every {@code table.datalake.compaction.interval}, after consecutive
 * failures with backoff, and at once when asked ({@link #request}{@code (t, true)}). Event-loop
 * thread only.
 */
final class MaintenancePasses {
    private static final Logger LOG = LoggerFactory.getLogger(MaintenancePasses.class);

    private record Pass(CompactionPlan plan, ExpiryResult expiry) {}

    private final MaintenanceConfig config;
    private final Clock clock;
    private final TimerService timers;
    private final LakeIoRunner io;
    private final LakeMaintenanceStep lake;
    private final LongUnaryOperator backoffMillis;
    private final MaintenanceTables tables;
    private final MaintenanceManager.Listener listener;

    MaintenancePasses(
            MaintenanceConfig config,
            Clock clock,
            TimerService timers,
            LakeIoRunner io,
            LakeMaintenanceStep lake,
            LongUnaryOperator backoffMillis,
            MaintenanceTables tables,
            MaintenanceManager.Listener listener) {
        this.config = config;
        this.clock = clock;
        this.timers = timers;
        this.io = io;
        this.lake = lake;
        this.backoffMillis = backoffMillis;
        this.tables = tables;
        this.listener = listener;
    }

    /**
     * Runs a pass now if the table is idle and its interval has passed (or {@code now}), else when
     * that time comes or the current step ends.
     */
    void request(TableMaintenance t, boolean now) {
        t.passWanted = true;
        if (t.state != MaintenanceState.IDLE) {
            return; // runs when the current step ends
        }
        long at = clock.currentTimeMillis();
        long due = at;
        if (t.consecutiveFailures > 0) {
            due = t.lastPassMillis + backoffMillis.applyAsLong(t.consecutiveFailures);
        } else if (!now && t.lastPassMillis >= 0) {
            due = t.lastPassMillis + t.settings.interval().toMillis();
        }
        if (due <= at) {
            t.cancelPassTimer();
            start(t);
        } else if (t.passTimer == null || t.nextPassMillis > due) {
            t.cancelPassTimer();
            t.nextPassMillis = due;
            t.passTimer =
                    timers.schedule(
                            due - at,
                            () -> {
                                t.passTimer = null;
                                t.nextPassMillis = -1;
                                if (tables.isCurrent(t)
                                        && t.state == MaintenanceState.IDLE
                                        && t.passWanted) {
                                    start(t);
                                }
                            });
        }
    }

    private void start(TableMaintenance t) {
        t.transition(MaintenanceState.CHECKING);
        t.passWanted = false;
        t.lastPassMillis = clock.currentTimeMillis();
        MaintenanceTableOptions.Settings s = t.settings;
        boolean compact = s.autoCompaction() && config.jobSlots() > 0;
        var path = t.table.path();
        ExpiryPolicy expiry = new ExpiryPolicy(t.tableId(), s.numRetained(), s.timeRetained());
        CompactionPolicy policy = new CompactionPolicy(s.maxFiles(), s.maxBuckets());
        io.run(
                t.tableId(),
                config.timeout(),
                "maintenance pass of " + path + " ran past tiering.maintenance.timeout",
                abandoned -> {
                    ExpiryResult expired = lake.expireSnapshots(path, expiry);
                    CompactionPlan plan =
                            compact
                                    ? lake.planCompaction(path, policy)
                                    : CompactionPlan.none(lake.stats(path));
                    return new Pass(plan, expired);
                },
                new LakeIoRunner.Outcome<Pass>() {
                    @Override
                    public void succeeded(Pass pass) {
                        onDone(t, pass);
                    }

                    @Override
                    public void failed(Throwable cause, boolean outcomeUnknown) {
                        onFailed(t, cause);
                    }
                });
    }

    private void onDone(TableMaintenance t, Pass pass) {
        if (!tables.isCurrent(t)) {
            return;
        }
        long now = clock.currentTimeMillis();
        t.stats = pass.plan().stats();
        t.statsAtMillis = now;
        ExpiryResult e = pass.expiry();
        if (e != null && e.snapshotsExpired() > 0) {
            t.lastExpiryMillis = now;
            t.snapshotsExpired += e.snapshotsExpired();
            t.filesDeleted += e.filesDeleted();
            t.bytesReclaimed += e.bytesDeleted();
        }
        if (!pass.plan().isEmpty() && t.settings.autoCompaction() && config.jobSlots() > 0) {
            t.plan = pass.plan();
            t.transition(MaintenanceState.QUEUED);
            tables.enqueue(t);
            listener.queued(t.group());
            return;
        }
        // nothing to compact: the table is healthy again (a compaction that keeps failing keeps
        // its backoff until one commits)
        t.consecutiveFailures = 0;
        t.transition(MaintenanceState.IDLE);
        if (t.passWanted) {
            request(t, false);
        }
    }

    private void onFailed(TableMaintenance t, Throwable e) {
        if (!tables.isCurrent(t)) {
            return;
        }
        t.consecutiveFailures++;
        t.lastError = "maintenance pass failed: " + e;
        LOG.warn("maintenance pass of {} failed; retrying with backoff", t.table.path(), e);
        t.transition(MaintenanceState.IDLE);
        request(t, false);
    }
}

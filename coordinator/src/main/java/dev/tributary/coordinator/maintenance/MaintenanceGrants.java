package dev.tributary.coordinator.maintenance;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.runtime.LakeIoRunner;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.spi.LakeMaintenanceStep;
import dev.tributary.coordinator.status.MaintenanceRun;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceGrant;
import dev.tributary.tiering.api.MaintenanceReport;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Grants of queued compactions to jobs and their leases (T38, T18, T23): hands the head of a
 * group's compaction queue to a job (QUEUED -> COMPACTING), renews it with the job's heartbeats,
 * and gives it up when it is not committed within {@code tiering.maintenance.timeout}, its job goes
 * silent, registers again or reports it failed (COMPACTING -> IDLE). A grant that ends without
 * committing leaves files only the table's next orphan sweep may delete: {@link #deadUpTo} says up
 * to which grant. Event-loop thread only.
 */
final class MaintenanceGrants {
    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceGrants.class);

    private final MaintenanceConfig config;
    private final Clock clock;
    private final TimerService timers;
    private final LakeIoRunner io;
    private final LakeMaintenanceStep lake;
    private final MaintenanceTables tables;
    private final MaintenancePasses passes;
    private final MaintenanceManager.Listener listener;
    private long nextMaintenanceId;

    /**
     * @param io the maintenance I/O, for deleting the files of dead grants
     * @param idBase the first maintenance id of this start; above every id of earlier starts
     */
    MaintenanceGrants(
            MaintenanceConfig config,
            Clock clock,
            TimerService timers,
            LakeIoRunner io,
            LakeMaintenanceStep lake,
            long idBase,
            MaintenanceTables tables,
            MaintenancePasses passes,
            MaintenanceManager.Listener listener) {
        this.config = config;
        this.clock = clock;
        this.timers = timers;
        this.io = io;
        this.lake = lake;
        this.nextMaintenanceId = idBase;
        this.tables = tables;
        this.passes = passes;
        this.listener = listener;
    }

    /** See {@link MaintenanceManager#grant}. */
    MaintenanceGrant grant(String jobId, String group) {
        TableMaintenance t = tables.pollQueued(group);
        if (t == null) {
            return null;
        }
        long now = clock.currentTimeMillis();
        t.transition(MaintenanceState.COMPACTING);
        t.maintenanceId = nextMaintenanceId++;
        t.jobId = jobId;
        t.grantedAtMillis = now;
        t.lastHeartbeatNanos = clock.nanoTime();
        long id = t.maintenanceId;
        t.deadline =
                timers.schedule(
                        config.timeout().toMillis(),
                        () ->
                                giveUp(
                                        t,
                                        id,
                                        "not committed within tiering.maintenance.timeout ("
                                                + config.timeout()
                                                + ")"));
        LOG.info(
                "compaction {} of {} ({} partition buckets over {} files) granted to job {}",
                id,
                t.table.path(),
                t.plan.units().size(),
                t.settings.maxFiles(),
                jobId);
        return new MaintenanceGrant(
                t.tableId(),
                t.table.path(),
                t.table.descriptor(),
                id,
                t.plan.stats().snapshotId(),
                t.plan.units(),
                t.settings.maxFiles(),
                config.timeout());
    }

    /** See {@link MaintenanceManager#heartbeat}. */
    List<MaintenanceAttempt> heartbeat(
            String jobId, List<MaintenanceAttempt> inFlight, List<MaintenanceReport> reports) {
        List<MaintenanceAttempt> stale = new ArrayList<>();
        long nanos = clock.nanoTime();
        for (MaintenanceAttempt a : inFlight) {
            TableMaintenance t = current(a, jobId);
            if (t == null) {
                stale.add(a);
            } else {
                t.lastHeartbeatNanos = nanos;
            }
        }
        for (MaintenanceReport r : reports) {
            TableMaintenance t = tables.get(r.attempt().tableId());
            abort(t, r.attempt(), r.discardedResults());
            if (current(r.attempt(), jobId) != null && t.state == MaintenanceState.COMPACTING) {
                giveUp(
                        t,
                        r.attempt().maintenanceId(),
                        "failed in job " + jobId + ": " + r.reason());
            }
        }
        return stale;
    }

    /** The table if {@code a} is its current grant held by {@code jobId}, else null. */
    TableMaintenance current(MaintenanceAttempt a, String jobId) {
        TableMaintenance t = tables.get(a.tableId());
        if (t == null
                || !t.granted()
                || t.maintenanceId != a.maintenanceId()
                || !jobId.equals(t.jobId)) {
            return null;
        }
        return t;
    }

    /** See {@link MaintenanceManager#jobRestarted}. */
    void jobRestarted(String jobId) {
        for (TableMaintenance t : tables.all()) {
            if (t.state == MaintenanceState.COMPACTING && jobId.equals(t.jobId)) {
                giveUp(t, t.maintenanceId, "job " + jobId + " registered again (restarted)");
            }
        }
    }

    /** See {@link MaintenanceManager#sweep}. */
    void sweep(long timeoutNanos) {
        long now = clock.nanoTime();
        for (TableMaintenance t : tables.all()) {
            if (t.state == MaintenanceState.COMPACTING
                    && now - t.lastHeartbeatNanos >= timeoutNanos) {
                giveUp(t, t.maintenanceId, "no heartbeat from job " + t.jobId);
            }
        }
    }

    /** Ends a grant that will not commit; its files are the next orphan sweep's (T23). */
    private void giveUp(TableMaintenance t, long maintenanceId, String why) {
        if (!tables.isCurrent(t)
                || t.state != MaintenanceState.COMPACTING
                || t.maintenanceId != maintenanceId) {
            return;
        }
        LOG.info("compaction {} of {} given up: {}", maintenanceId, t.table.path(), why);
        failed(t, why);
    }

    /**
     * Ends the table's grant as failed (COMPACTING or COMMITTING -> IDLE): counted, retried with
     * backoff, and nothing deleted now, since the job or the lake may still hold its files; what no
     * snapshot references goes with the table's next orphan sweep.
     */
    void failed(TableMaintenance t, String why) {
        t.lastCompaction =
                t.endedRun(MaintenanceRun.Outcome.FAILED, null, why, clock.currentTimeMillis());
        t.failures++;
        t.consecutiveFailures++;
        t.lastError = "compaction " + t.maintenanceId + ": " + why;
        t.endGrant();
        t.transition(MaintenanceState.IDLE);
        listener.orphansPossible(t.tableId());
        passes.request(t, false);
    }

    /**
     * Deletes the files of results that will never be committed, best effort.
     *
     * @param t the table's maintenance, or {@code null} if it is no lake table any more
     */
    void abort(TableMaintenance t, MaintenanceAttempt a, List<byte[]> results) {
        if (results.isEmpty()) {
            return;
        }
        if (t == null) {
            listener.orphansPossible(a.tableId());
            return;
        }
        var path = t.table.path();
        io.run(
                t.tableId(),
                config.timeout(),
                "deleting the files of compaction "
                        + a.maintenanceId()
                        + " of "
                        + path
                        + " ran past tiering.maintenance.timeout",
                abandoned -> {
                    lake.abortCompaction(path, results);
                    return null;
                },
                new LakeIoRunner.Outcome<Void>() {
                    @Override
                    public void succeeded(Void nothing) {}

                    @Override
                    public void failed(Throwable e, boolean outcomeUnknown) {
                        LOG.warn(
                                "deleting the files of compaction {} of {} failed; the next"
                                        + " commit's orphan cleanup deletes them",
                                a.maintenanceId(),
                                path,
                                e);
                        listener.orphansPossible(a.tableId());
                    }
                });
    }

    /** See {@link MaintenanceManager#deadUpTo}. */
    long deadUpTo(long tableId) {
        TableMaintenance t = tables.get(tableId);
        if (t != null && t.granted()) {
            return t.maintenanceId - 1;
        }
        return nextMaintenanceId - 1;
    }
}

package dev.tributary.coordinator.tiering;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.maintenance.MaintenanceManager;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.RoundReport;
import dev.tributary.tiering.api.TableAck;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Answers the tiering jobs' calls (T13, T18, T19, T23, T3): a job's registration, and its
 * heartbeats: an ack (or {@code FENCED}) per attempt it holds, the attempts to force-finish, the
 * round reports it sends, its compaction grants, and at most one piece of work when it asks, held
 * as a long poll when there is none yet.
 *
 * <p>Separate from {@link TieringManager} because this is the protocol towards the jobs: it checks
 * each claim a job makes against the table's current attempt and turns the job's word into the
 * state machine's events, which stay with the manager, reached through {@link Rounds}. Not thread
 * safe: runs on the coordinator's event loop like the manager.
 */
final class JobHeartbeats {
    /** What the job protocol needs from the table state machine; every call on the loop. */
    interface Rounds {
        /** The table's current state, or {@code null} if it is not a lake table now. */
        TableTiering current(long tableId);

        /** Tiering -> Failed, then Pending after a backoff. */
        void fail(TableTiering t, String why);

        /** The job finished the round with nothing to commit (or force-finished it, T13). */
        void finishWithoutCommit(TableTiering t, boolean forceFinished);

        /** A round, else (if accepted) a compaction, for a job that asks; {@code null}: none. */
        TableWaiters.Work assignWork(JobInfo job, boolean acceptMaintenance);
    }

    private final TieringConfig config;
    private final Clock clock;
    private final JobRegistry jobs;
    private final TableWaiters waiters;
    private final TieringCommits commits;
    private final Rounds rounds;

    /** Lake maintenance (T38, T39), or {@code null} when there is none. */
    private final MaintenanceManager maintenance;

    JobHeartbeats(
            TieringConfig config,
            Clock clock,
            JobRegistry jobs,
            TableWaiters waiters,
            TieringCommits commits,
            MaintenanceManager maintenance,
            Rounds rounds) {
        this.config = config;
        this.clock = clock;
        this.jobs = jobs;
        this.waiters = waiters;
        this.commits = commits;
        this.maintenance = maintenance;
        this.rounds = rounds;
    }

    /**
     * Registers (or re-registers) a job. A re-registering job has restarted: its rounds that are
     * not committing are failed, so their epochs are fenced (T19).
     *
     * @param parallelism the job's readers, 0 when unknown; kept for status and planning (T44)
     */
    JobSettings registerJob(String jobId, String group, int parallelism) {
        JobRegistry.checkRegistration(jobId, parallelism);
        String g = Attempts.normalizeGroup(group);
        JobInfo known = jobs.get(jobId);
        if (known != null) {
            for (Long id : List.copyOf(known.tables)) {
                TableTiering t = rounds.current(id);
                if (t != null && t.state == TieringState.TIERING && !t.commitPending()) {
                    rounds.fail(t, "job " + jobId + " registered again (restarted)");
                }
            }
        }
        if (known != null && maintenance != null) {
            maintenance.jobRestarted(jobId);
        }
        jobs.registered(jobId, g, parallelism);
        return new JobSettings(
                jobId,
                g,
                config.heartbeatInterval(),
                config.heartbeatTimeout(),
                config.commitOrder(),
                config.commitTimeout(),
                maintenance == null ? 0 : maintenance.config().jobSlots(),
                maintenance == null ? config.commitTimeout() : maintenance.config().timeout());
    }

    /**
     * Handles a heartbeat: renews in-flight rounds, applies reports, and hands out at most one
     * table. Every table entry gets an ack; a stale one is {@code FENCED} (T18, T19). Rounds past
     * their table's freshness are named for force-finish (T13); files of results a report discards
     * are deleted (T23).
     */
    HeartbeatResult heartbeat(HeartbeatRequest request) {
        if (request.requestTable()) {
            // a newer table request answers the job's parked one; plain heartbeats leave it
            waiters.release(request.jobId());
        }
        JobInfo job = jobs.seen(request.jobId(), Attempts.normalizeGroup(request.group()));
        if (request.requestTable()) {
            job.tableRequests++;
        }
        List<TableAck> acks = new ArrayList<>(request.inFlight().size() + request.reports().size());
        List<Attempt> forceFinish = new ArrayList<>();
        long now = clock.currentTimeMillis();
        for (Attempt a : request.inFlight()) {
            TableTiering t = rounds.current(a.tableId());
            String stale = Attempts.staleness(t, a.tableId(), a.epoch(), request.jobId());
            if (stale != null) {
                acks.add(new TableAck(a.tableId(), a.epoch(), TableAck.Status.FENCED, stale));
                continue;
            }
            t.lastHeartbeatNanos = clock.nanoTime();
            acks.add(new TableAck(a.tableId(), a.epoch(), TableAck.Status.OK, null));
            if (!t.commitPending() && now - t.roundStartMillis >= t.freshnessMillis()) {
                forceFinish.add(a);
            }
        }
        for (RoundReport r : request.reports()) {
            TableTiering t = rounds.current(r.tableId());
            commits.abortUncommitted(t, r.epoch(), r.discardedResults());
            String stale = Attempts.staleness(t, r.tableId(), r.epoch(), request.jobId());
            if (stale != null) {
                acks.add(new TableAck(r.tableId(), r.epoch(), TableAck.Status.FENCED, stale));
                continue;
            }
            acks.add(new TableAck(r.tableId(), r.epoch(), TableAck.Status.OK, null));
            if (t.commitPending()) {
                continue; // the commit's outcome decides
            }
            switch (r.outcome()) {
                case FINISHED:
                    rounds.finishWithoutCommit(t, false);
                    break;
                case FORCE_FINISHED:
                    rounds.finishWithoutCommit(t, true);
                    break;
                case FAILED:
                    rounds.fail(
                            t, r.message() == null ? "reported failed by the job" : r.message());
                    break;
                default:
                    throw new AssertionError(r.outcome());
            }
        }
        List<MaintenanceAttempt> fencedMaintenance = List.of();
        if (maintenance != null) {
            fencedMaintenance =
                    maintenance.heartbeat(
                            request.jobId(),
                            request.maintenanceInFlight(),
                            request.maintenanceReports());
        }
        TableWaiters.Work work =
                request.requestTable() ? rounds.assignWork(job, request.acceptMaintenance()) : null;
        return new HeartbeatResult(
                acks,
                forceFinish,
                work == null ? null : work.plan(),
                fencedMaintenance,
                work == null ? null : work.grant());
    }

    /**
     * Like {@link #heartbeat}, but a table request that finds nothing pending may wait for one
     * ({@link HeartbeatRequest#waitForTableMillis()}, capped at the heartbeat interval).
     */
    CompletableFuture<HeartbeatResult> heartbeatAsync(HeartbeatRequest request) {
        HeartbeatResult now = heartbeat(request);
        if (now.plan() != null
                || now.maintenance() != null
                || !request.requestTable()
                || request.waitForTableMillis() == 0) {
            return CompletableFuture.completedFuture(now);
        }
        long wait = Math.min(request.waitForTableMillis(), config.heartbeatInterval().toMillis());
        return waiters.park(jobs.get(request.jobId()), now, wait, request.acceptMaintenance());
    }
}

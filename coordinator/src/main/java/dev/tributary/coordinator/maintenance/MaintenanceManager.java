package dev.tributary.coordinator.maintenance;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.LakeIo;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.spi.LakeMaintenanceStep;
import dev.tributary.coordinator.status.MaintenanceRun;
import dev.tributary.coordinator.status.TableMaintenanceStatus;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.ExpiryPolicy;
import dev.tributary.lake.api.maintenance.ExpiryResult;
import dev.tributary.lake.api.maintenance.MaintenanceCommitResult;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceGrant;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.MaintenanceReport;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lake maintenance of every lake table (T38, T39), scheduled like rounds but never in their way:
 *
 * <ul>
 *   <li>a <b>pass</b> runs after a round that wrote files, at most every {@code
 *       table.datalake.compaction.interval}: on the maintenance I/O threads (never the tiering
 *       commit threads) it expires snapshots by the table's retention (the newest tiering snapshot
 *       always stays), reads the live files per bucket and plans compaction within the table's
 *       budget ({@code max-buckets} buckets over {@code max-files});
 *   <li>a planned compaction waits in its group's compaction queue, its own entry next to the
 *       tiering queue; a job gets it only when it asks for a table and none is pending, and only if
 *       it has a free maintenance slot: tiering work always goes first;
 *   <li>the job compacts in the background of its readers and commits the grant through {@link
 *       #commit}; the commit runs on the maintenance threads, never waits for and never blocks a
 *       tiering commit, and when the lake refuses it because tiering changed the files, the
 *       compaction gives way: its files are deleted and the bucket is planned again.
 * </ul>
 *
 * A grant is kept alive by the job's heartbeats and given up after {@code
 * tiering.maintenance.timeout}, when the job goes silent or registers again; its files are then the
 * table's next commit's to delete (T23, {@link #deadUpTo}).
 *
 * <p>Not thread safe: the coordinator's event loop only. Maintenance state is not durable: after a
 * restart every table gets a pass, and a grant of the previous run can never commit.
 */
public final class MaintenanceManager {
    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceManager.class);

    /** What the tiering side is told. Runs on the loop. */
    public interface Listener {
        /** Compaction work of {@code group} is queued: jobs of that group waiting for work. */
        void queued(String group);

        /** A grant of the table ended without committing: its files are orphans now (T23). */
        void orphansPossible(long tableId);
    }

    private static final Listener NONE =
            new Listener() {
                @Override
                public void queued(String group) {}

                @Override
                public void orphansPossible(long tableId) {}
            };

    private final MaintenanceConfig config;
    private final Clock clock;
    private final TimerService timers;
    private final Executor loop;
    private final LakeIo io;
    private final LakeMaintenanceStep lake;
    private final LongUnaryOperator backoffMillis;
    private final Map<Long, TableMaintenance> tables = new HashMap<>();
    private final Map<String, ArrayDeque<TableMaintenance>> queues = new HashMap<>();
    private long nextMaintenanceId;
    private Listener listener = NONE;

    /**
     * @param io the maintenance I/O threads
     * @param lake the lake's maintenance step
     * @param idBase the first maintenance id of this start; above every id of earlier starts
     * @param backoffMillis the pause before retrying after n consecutive failures
     */
    public MaintenanceManager(
            MaintenanceConfig config,
            Clock clock,
            TimerService timers,
            Executor loop,
            LakeIo io,
            LakeMaintenanceStep lake,
            long idBase,
            LongUnaryOperator backoffMillis) {
        this.config = config;
        this.clock = clock;
        this.timers = timers;
        this.loop = loop;
        this.io = io;
        this.lake = lake;
        this.nextMaintenanceId = idBase;
        this.backoffMillis = backoffMillis;
    }

    public void listen(Listener l) {
        this.listener = l;
    }

    public MaintenanceConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- table lifecycle

    /** After a start: every lake table gets a pass (statistics, expiry, plan). */
    public void restore(Collection<TableInfo> all) {
        for (TableInfo table : all) {
            if (table.lakeEnabled()) {
                TableMaintenance t = add(table);
                requestPass(t, true);
            }
        }
    }

    public void onTableCreated(TableInfo table) {
        if (table.lakeEnabled()) {
            add(table);
        }
    }

    /**
     * Follows an ALTER: disabling the lake ends the table's maintenance, enabling starts it, and
     * changed maintenance options take effect at the next pass (switching auto-compaction off takes
     * a queued compaction back).
     */
    public void onTableAltered(TableInfo before, TableInfo after) {
        TableMaintenance t = tables.get(after.tableId());
        if (!after.lakeEnabled()) {
            if (t != null) {
                remove(t, "lake tiering was disabled");
            }
            return;
        }
        if (t == null) {
            add(after);
            return;
        }
        MaintenanceTableOptions.Settings old = t.settings;
        String oldGroup = t.group();
        t.table = after;
        t.settings = MaintenanceTableOptions.Settings.of(after.options());
        if (t.state == MaintenanceState.QUEUED && !t.settings.autoCompaction()) {
            queue(t.queuedInGroup).remove(t);
            t.transition(MaintenanceState.IDLE);
        } else if (t.state == MaintenanceState.QUEUED && !oldGroup.equals(t.group())) {
            queue(t.queuedInGroup).remove(t);
            t.queuedInGroup = t.group();
            queue(t.group()).add(t);
            listener.queued(t.group());
        }
        if (!old.equals(t.settings)) {
            requestPass(t, true);
        }
    }

    public void onTableDropped(long tableId) {
        TableMaintenance t = tables.get(tableId);
        if (t != null) {
            remove(t, "table was dropped");
        }
    }

    private TableMaintenance add(TableInfo table) {
        TableMaintenance t = new TableMaintenance(table);
        tables.put(table.tableId(), t);
        return t;
    }

    private void remove(TableMaintenance t, String why) {
        tables.remove(t.tableId());
        t.cancelPassTimer();
        if (t.state == MaintenanceState.QUEUED) {
            queue(t.queuedInGroup).remove(t);
        }
        if (t.state == MaintenanceState.COMPACTING) {
            LOG.info("compaction {} of {} is abandoned: {}", t.maintenanceId, t.table.path(), why);
        }
        t.endGrant();
    }

    // ---------------------------------------------------------------- passes

    /** A round of the table committed; one that wrote files makes a pass worthwhile. */
    public void onTieringCommitted(long tableId, long filesCommitted) {
        TableMaintenance t = tables.get(tableId);
        if (t != null && filesCommitted > 0) {
            requestPass(t, false);
        }
    }

    /**
     * Runs a pass now if the table is idle and its interval has passed (or {@code now}), else when
     * that time comes or the current step ends.
     */
    private void requestPass(TableMaintenance t, boolean now) {
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
            startPass(t);
        } else if (t.passTimer == null || t.nextPassMillis > due) {
            t.cancelPassTimer();
            t.nextPassMillis = due;
            t.passTimer =
                    timers.schedule(
                            due - at,
                            () -> {
                                t.passTimer = null;
                                t.nextPassMillis = -1;
                                if (tables.get(t.tableId()) == t
                                        && t.state == MaintenanceState.IDLE
                                        && t.passWanted) {
                                    startPass(t);
                                }
                            });
        }
    }

    private record Pass(CompactionPlan plan, ExpiryResult expiry) {}

    private void startPass(TableMaintenance t) {
        t.transition(MaintenanceState.CHECKING);
        t.passWanted = false;
        t.lastPassMillis = clock.currentTimeMillis();
        MaintenanceTableOptions.Settings s = t.settings;
        boolean compact = s.autoCompaction() && config.jobSlots() > 0;
        var path = t.table.path();
        ExpiryPolicy expiry = new ExpiryPolicy(t.tableId(), s.numRetained(), s.timeRetained());
        CompactionPolicy policy = new CompactionPolicy(s.maxFiles(), s.maxBuckets());
        runIo(
                t,
                "maintenance pass",
                () -> {
                    ExpiryResult expired = lake.expireSnapshots(path, expiry);
                    CompactionPlan plan =
                            compact
                                    ? lake.planCompaction(path, policy)
                                    : CompactionPlan.none(lake.stats(path));
                    return new Pass(plan, expired);
                },
                pass -> onPassDone(t, pass),
                e -> onPassFailed(t, e));
    }

    private void onPassDone(TableMaintenance t, Pass pass) {
        if (tables.get(t.tableId()) != t) {
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
            t.queuedInGroup = t.group();
            queue(t.group()).add(t);
            listener.queued(t.group());
            return;
        }
        // nothing to compact: the table is healthy again (a compaction that keeps failing keeps
        // its backoff until one commits)
        t.consecutiveFailures = 0;
        t.transition(MaintenanceState.IDLE);
        if (t.passWanted) {
            requestPass(t, false);
        }
    }

    private void onPassFailed(TableMaintenance t, Throwable e) {
        if (tables.get(t.tableId()) != t) {
            return;
        }
        t.consecutiveFailures++;
        t.lastError = "maintenance pass failed: " + e;
        LOG.warn("maintenance pass of {} failed; retrying with backoff", t.table.path(), e);
        t.transition(MaintenanceState.IDLE);
        requestPass(t, false);
    }

    // ---------------------------------------------------------------- grants

    /**
     * The compaction at the head of {@code group}'s queue for job {@code jobId}, or {@code null}.
     * The caller asks only when no tiering table is pending for the job.
     */
    public MaintenanceGrant grant(String jobId, String group) {
        ArrayDeque<TableMaintenance> q = queues.get(group);
        while (q != null && !q.isEmpty()) {
            TableMaintenance t = q.poll();
            if (tables.get(t.tableId()) != t || t.state != MaintenanceState.QUEUED) {
                continue;
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
        return null;
    }

    /**
     * Renews a job's grants and applies its failure reports.
     *
     * @return the grants named in {@code inFlight} that are no longer current: the job stops them
     */
    public List<MaintenanceAttempt> heartbeat(
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
    private TableMaintenance current(MaintenanceAttempt a, String jobId) {
        TableMaintenance t = tables.get(a.tableId());
        if (t == null
                || !t.granted()
                || t.maintenanceId != a.maintenanceId()
                || !jobId.equals(t.jobId)) {
            return null;
        }
        return t;
    }

    /** A job registered again: the grants of its previous life can never commit. */
    public void jobRestarted(String jobId) {
        for (TableMaintenance t : List.copyOf(tables.values())) {
            if (t.state == MaintenanceState.COMPACTING && jobId.equals(t.jobId)) {
                giveUp(t, t.maintenanceId, "job " + jobId + " registered again (restarted)");
            }
        }
    }

    /** Gives up grants whose job has not heartbeated them within {@code timeoutNanos} (T18). */
    public void sweep(long timeoutNanos) {
        long now = clock.nanoTime();
        for (TableMaintenance t : List.copyOf(tables.values())) {
            if (t.state == MaintenanceState.COMPACTING
                    && now - t.lastHeartbeatNanos >= timeoutNanos) {
                giveUp(t, t.maintenanceId, "no heartbeat from job " + t.jobId);
            }
        }
    }

    /** Ends a grant that will not commit; its files are the next orphan sweep's (T23). */
    private void giveUp(TableMaintenance t, long maintenanceId, String why) {
        if (tables.get(t.tableId()) != t
                || t.state != MaintenanceState.COMPACTING
                || t.maintenanceId != maintenanceId) {
            return;
        }
        LOG.info("compaction {} of {} given up: {}", maintenanceId, t.table.path(), why);
        t.lastCompaction = run(t, MaintenanceRun.Outcome.FAILED, null, why);
        t.failures++;
        t.consecutiveFailures++;
        t.lastError = "compaction " + maintenanceId + ": " + why;
        t.endGrant();
        t.transition(MaintenanceState.IDLE);
        listener.orphansPossible(t.tableId());
        requestPass(t, false);
    }

    // ---------------------------------------------------------------- commits

    /**
     * Commits a grant's compaction. Never fails: a stale grant is {@code FENCED} (its files are
     * deleted), a refused one {@code YIELDED}, a failed one {@code FAILED}; each is planned again.
     */
    public CompletableFuture<MaintenanceOutcome> commit(MaintenanceCommit r) {
        TableMaintenance t = current(r.attempt(), r.jobId());
        if (t == null || t.state != MaintenanceState.COMPACTING) {
            abort(tables.get(r.attempt().tableId()), r.attempt(), r.results());
            return CompletableFuture.completedFuture(
                    MaintenanceOutcome.of(
                            MaintenanceOutcome.Kind.FENCED,
                            "compaction "
                                    + r.attempt().maintenanceId()
                                    + " of table "
                                    + r.attempt().tableId()
                                    + " is no longer current"));
        }
        t.transition(MaintenanceState.COMMITTING);
        if (t.deadline != null) {
            t.deadline.cancel();
            t.deadline = null;
        }
        CompletableFuture<MaintenanceOutcome> answer = new CompletableFuture<>();
        var path = t.table.path();
        long tableId = t.tableId();
        long id = t.maintenanceId;
        runIo(
                t,
                "compaction commit",
                () -> {
                    MaintenanceCommitResult result =
                            lake.commitCompaction(path, tableId, id, r.results());
                    if (result.outcome() == MaintenanceCommitResult.Outcome.CONFLICT) {
                        lake.abortCompaction(path, r.results());
                    }
                    return result;
                },
                result -> onCommitted(t, result, answer),
                e -> onCommitFailed(t, e, answer));
        return answer;
    }

    private void onCommitted(
            TableMaintenance t,
            MaintenanceCommitResult result,
            CompletableFuture<MaintenanceOutcome> answer) {
        MaintenanceOutcome outcome =
                switch (result.outcome()) {
                    case COMMITTED ->
                            new MaintenanceOutcome(
                                    MaintenanceOutcome.Kind.COMMITTED, result.snapshotId(), null);
                    case NOTHING_TO_COMMIT ->
                            MaintenanceOutcome.of(MaintenanceOutcome.Kind.NOTHING_TO_COMMIT, null);
                    case CONFLICT ->
                            MaintenanceOutcome.of(
                                    MaintenanceOutcome.Kind.YIELDED, result.conflict());
                };
        if (tables.get(t.tableId()) == t && t.state == MaintenanceState.COMMITTING) {
            MaintenanceRun.Outcome o =
                    switch (result.outcome()) {
                        case COMMITTED -> MaintenanceRun.Outcome.COMMITTED;
                        case NOTHING_TO_COMMIT -> MaintenanceRun.Outcome.NOTHING_TO_COMMIT;
                        case CONFLICT -> MaintenanceRun.Outcome.YIELDED;
                    };
            t.lastCompaction = run(t, o, result, result.conflict());
            t.consecutiveFailures = 0;
            if (o == MaintenanceRun.Outcome.COMMITTED) {
                t.compactions++;
                t.bytesRewritten += result.bytesRewritten();
            } else if (o == MaintenanceRun.Outcome.YIELDED) {
                t.yielded++;
                LOG.info(
                        "compaction {} of {} gave way: {}",
                        t.maintenanceId,
                        t.table.path(),
                        result.conflict());
            }
            t.endGrant();
            t.transition(MaintenanceState.IDLE);
            // after a compaction, statistics and expiry at once; after giving way, by interval
            requestPass(t, o == MaintenanceRun.Outcome.COMMITTED);
        }
        answer.complete(outcome);
    }

    private void onCommitFailed(
            TableMaintenance t, Throwable e, CompletableFuture<MaintenanceOutcome> answer) {
        if (tables.get(t.tableId()) == t && t.state == MaintenanceState.COMMITTING) {
            String why = "commit failed: " + e;
            LOG.warn("compaction {} of {} failed to commit", t.maintenanceId, t.table.path(), e);
            t.lastCompaction = run(t, MaintenanceRun.Outcome.FAILED, null, why);
            t.failures++;
            t.consecutiveFailures++;
            t.lastError = "compaction " + t.maintenanceId + ": " + why;
            t.endGrant();
            t.transition(MaintenanceState.IDLE);
            // the outcome is unknown: nothing is deleted now; what no snapshot references goes
            // with the next orphan sweep
            listener.orphansPossible(t.tableId());
            requestPass(t, false);
        }
        answer.complete(MaintenanceOutcome.of(MaintenanceOutcome.Kind.FAILED, "" + e));
    }

    private MaintenanceRun run(
            TableMaintenance t,
            MaintenanceRun.Outcome outcome,
            MaintenanceCommitResult r,
            String message) {
        return new MaintenanceRun(
                t.maintenanceId,
                t.jobId,
                t.grantedAtMillis,
                clock.currentTimeMillis(),
                outcome,
                t.plan == null ? 0 : t.plan.units().size(),
                r == null ? 0 : r.filesRemoved(),
                r == null ? 0 : r.filesAdded(),
                r == null ? 0 : r.bytesRewritten(),
                r == null ? 0 : r.bytesWritten(),
                r == null ? -1 : r.snapshotId(),
                message);
    }

    /** Deletes the files of results that will never be committed, best effort. */
    private void abort(TableMaintenance t, MaintenanceAttempt a, List<byte[]> results) {
        if (results.isEmpty()) {
            return;
        }
        if (t == null) {
            listener.orphansPossible(a.tableId());
            return;
        }
        var path = t.table.path();
        io.execute(
                () -> {
                    try {
                        lake.abortCompaction(path, results);
                    } catch (Throwable e) {
                        LOG.warn(
                                "deleting the files of compaction {} of {} failed; the next"
                                        + " commit's orphan cleanup deletes them",
                                a.maintenanceId(),
                                path,
                                e);
                        loop.execute(() -> listener.orphansPossible(a.tableId()));
                    }
                });
    }

    // ---------------------------------------------------------------- orphans (T23)

    /**
     * The newest maintenance id whose grant on the table is over: files of grants up to it that no
     * snapshot references are garbage. A grant still out protects its own files and later ones.
     */
    public long deadUpTo(long tableId) {
        TableMaintenance t = tables.get(tableId);
        if (t != null && t.granted()) {
            return t.maintenanceId - 1;
        }
        return nextMaintenanceId - 1;
    }

    // ---------------------------------------------------------------- I/O

    /**
     * Runs {@code work} on the maintenance threads; exactly one callback runs, on the loop. A call
     * running past {@code tiering.maintenance.timeout} is abandoned (interrupted, its thread
     * replaced) and reported failed.
     */
    private <T> void runIo(
            TableMaintenance t,
            String what,
            Callable<T> work,
            Consumer<T> done,
            Consumer<Throwable> failed) {
        java.util.concurrent.atomic.AtomicBoolean answered =
                new java.util.concurrent.atomic.AtomicBoolean();
        TimerService.Timer[] timer = new TimerService.Timer[1];
        LakeIo.Handle handle =
                io.submit(
                        () -> {
                            T value;
                            try {
                                value = work.call();
                            } catch (Throwable e) {
                                loop.execute(
                                        () -> {
                                            if (answered.compareAndSet(false, true)) {
                                                timer[0].cancel();
                                                failed.accept(e);
                                            }
                                        });
                                return;
                            }
                            loop.execute(
                                    () -> {
                                        if (answered.compareAndSet(false, true)) {
                                            timer[0].cancel();
                                            done.accept(value);
                                        }
                                    });
                        });
        timer[0] =
                timers.schedule(
                        config.timeout().toMillis(),
                        () -> {
                            if (answered.compareAndSet(false, true)) {
                                handle.abandon();
                                failed.accept(
                                        new TimeoutException(
                                                what
                                                        + " of "
                                                        + t.table.path()
                                                        + " ran past tiering.maintenance.timeout"));
                            }
                        });
    }

    // ---------------------------------------------------------------- status

    public Optional<TableMaintenanceStatus> status(long tableId) {
        TableMaintenance t = tables.get(tableId);
        if (t == null) {
            return Optional.empty();
        }
        int position = -1;
        if (t.state == MaintenanceState.QUEUED) {
            position = List.copyOf(queue(t.queuedInGroup)).indexOf(t);
        }
        return Optional.of(
                new TableMaintenanceStatus(
                        t.state,
                        t.settings.autoCompaction(),
                        t.settings.maxFiles(),
                        position,
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
                        t.lastError));
    }

    /** The table's state, or empty if it is not a lake table. */
    public Optional<MaintenanceState> state(long tableId) {
        TableMaintenance t = tables.get(tableId);
        return t == null ? Optional.empty() : Optional.of(t.state);
    }

    private ArrayDeque<TableMaintenance> queue(String group) {
        return queues.computeIfAbsent(group, g -> new ArrayDeque<>());
    }
}

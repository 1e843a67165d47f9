package dev.tributary.coordinator.tiering;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.maintenance.MaintenanceManager;
import dev.tributary.coordinator.metadata.PartitionRegistry;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.LakeIo;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.status.CoordinatorStatus;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.status.TableMaintenanceStatus;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.TieringRecord;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.MaintenanceGrant;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tiering brain (T10-T23, T25-T27): per-table state machine, freshness timers, pending queues
 * per group, epochs, job liveness, failures with backoff, and the hand-out of rounds to jobs.
 *
 * <p>Not thread safe by design: every method runs on the coordinator's event loop (or the test's
 * thread with a {@code ManualLoop}). Lake I/O runs on {@code io} and posts its outcome back through
 * {@code loop}, so the loop never blocks on the lake. The commit path (held commits, the lake
 * commit's outcome, files that can never commit, the shutdown drain) is {@link TieringCommits};
 * {@link TableReconciliation} adopts the lake's newest snapshot before a round (T21); {@link
 * JobHeartbeats} answers the jobs' registrations and heartbeats. This class owns the table states
 * and decides what a table does next with their outcome.
 */
public final class TieringManager {
    private static final Logger LOG = LoggerFactory.getLogger(TieringManager.class);

    /** Epochs of incarnation n start at n * EPOCH_STRIDE, above every epoch of earlier runs. */
    public static final long EPOCH_STRIDE = 1_000_000_000L;

    private final TieringConfig config;
    private final Clock clock;
    private final TimerService timers;
    private final MetadataStore store;
    private final LakeCommitStep lake;
    private final TableReconciliation reconciliation;
    private final TieringCommits commits;
    private final JobHeartbeats heartbeats;
    private final RoundPlanner planner;
    private final PartitionRegistry partitions;
    private final long epochBase;

    /** Lake maintenance (T38, T39), or {@code null} when there is none. */
    private final MaintenanceManager maintenance;

    private final Map<Long, TableTiering> tables = new HashMap<>();
    private final Map<String, PendingQueue> queues = new HashMap<>();
    private final JobRegistry jobs;
    private final LinkedHashSet<TableTiering> tiering = new LinkedHashSet<>();

    /**
     * Highest epoch handed out per table in this incarnation, kept across disable/enable so a
     * re-enabled table never reuses an epoch a stale attempt may still hold.
     */
    private final Map<Long, Long> issuedEpochs = new HashMap<>();

    private final TableWaiters waiters;

    private long pendingSeq;

    /** How the commit path, the job protocol and reconciliation reach the state machine. */
    private final Hooks hooks = new Hooks();

    /**
     * @param incarnation this coordinator start's number from {@link
     *     MetadataStore#startIncarnation()}
     * @param io where lake I/O runs
     * @param lake the lake commit step, or {@code null} when no lake is configured (commits then
     *     fail)
     */
    public TieringManager(
            TieringConfig config,
            Clock clock,
            TimerService timers,
            Executor loop,
            LakeIo io,
            MetadataStore store,
            BucketStateSource buckets,
            PartitionRegistry partitions,
            LakeCommitStep lake,
            long incarnation) {
        this(config, clock, timers, loop, io, store, buckets, partitions, lake, incarnation, null);
    }

    /**
     * @param maintenance lake maintenance, whose compactions this manager hands to jobs that have
     *     no tiering work, or {@code null} for none
     */
    public TieringManager(
            TieringConfig config,
            Clock clock,
            TimerService timers,
            Executor loop,
            LakeIo io,
            MetadataStore store,
            BucketStateSource buckets,
            PartitionRegistry partitions,
            LakeCommitStep lake,
            long incarnation,
            MaintenanceManager maintenance) {
        this.config = config;
        this.clock = clock;
        this.timers = timers;
        this.store = store;
        this.lake = lake;
        this.partitions = partitions;
        this.planner = new RoundPlanner(buckets, partitions);
        this.jobs = new JobRegistry(clock);
        this.commits =
                new TieringCommits(
                        config,
                        clock,
                        timers,
                        loop,
                        io,
                        store,
                        partitions,
                        lake,
                        maintenance,
                        jobs,
                        hooks);
        this.epochBase = Math.multiplyExact(incarnation, EPOCH_STRIDE);
        this.reconciliation =
                new TableReconciliation(
                        lake, clock, loop, io, store, partitions, config, epochBase, hooks);
        this.waiters = new TableWaiters(timers);
        this.maintenance = maintenance;
        this.heartbeats =
                new JobHeartbeats(config, clock, jobs, waiters, commits, maintenance, hooks);
        if (maintenance != null) {
            maintenance.listen(
                    new MaintenanceManager.Listener() {
                        @Override
                        public void queued(String group) {
                            waiters.wake(group, TieringManager.this::assignWork);
                        }

                        @Override
                        public void orphansPossible(long tableId) {
                            TableTiering t = tables.get(tableId);
                            if (t != null) {
                                t.orphansPossible = true;
                            }
                        }
                    });
        }
        timers.schedule(config.sweepIntervalMillis(), this::sweep);
    }

    public TieringConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- table lifecycle

    /**
     * Rebuilds state after a start (T12, T17): every lake table is scheduled from its durable last
     * tiered time (due at once if its last round was force-finished), with an epoch above any epoch
     * of earlier runs, and is reconciled with the lake before its first round (T21).
     */
    public void restore(Collection<TableInfo> all, Map<Long, TieringRecord> records) {
        for (TableInfo table : all) {
            if (!table.lakeEnabled()) {
                continue;
            }
            TieringRecord record = records.get(table.tableId());
            if (record == null) {
                record = TieringRecord.initial(table.tableId(), table.createdTimeMillis());
                store.putTieringRecord(record);
            }
            TableTiering t = new TableTiering(table, record);
            t.needsReconcile = lake != null;
            // a crash may have left files of attempts that never committed
            t.orphansPossible = lake != null;
            tables.put(table.tableId(), t);
            schedule(t, record.continueImmediately());
        }
    }

    /** A table was created; a lake-enabled one waits one freshness interval (T11). */
    public void onTableCreated(TableInfo table) {
        if (table.lakeEnabled()) {
            enable(table);
        }
    }

    /**
     * A table was altered: switching tiering on waits one interval (T11); switching it off removes
     * the table from every structure; a new freshness re-times a scheduled table and re-orders a
     * pending one (T10); a new group moves a pending table to that group's queue (T26).
     */
    public void onTableAltered(TableInfo before, TableInfo after) {
        TableTiering t = tables.get(after.tableId());
        boolean now = after.lakeEnabled();
        if (t == null) {
            if (now) {
                enable(after);
            }
            return;
        }
        if (!now) {
            remove(t, "lake tiering was disabled");
            return;
        }
        boolean freshnessChanged = !before.freshness().equals(after.freshness());
        boolean groupChanged = !before.tieringGroup().equals(after.tieringGroup());
        boolean requeue = t.state == TieringState.PENDING && (freshnessChanged || groupChanged);
        if (requeue) {
            queue(t.queuedInGroup).remove(t);
        }
        t.table = after;
        if (requeue) {
            t.queueDeadlineMillis = t.pendingSinceMillis + t.freshnessMillis();
            t.queuedInGroup = t.group();
            queue(t.group()).add(t);
        }
        if (freshnessChanged && t.state == TieringState.SCHEDULED && !t.reconciling) {
            arm(t, scheduleDelay(t, false));
        }
    }

    /** A table was dropped: removed from every structure; its attempts are fenced. */
    public void onTableDropped(long tableId) {
        issuedEpochs.remove(tableId);
        TableTiering t = tables.get(tableId);
        if (t != null) {
            remove(t, "table was dropped");
        }
    }

    private void enable(TableInfo table) {
        long now = clock.currentTimeMillis();
        TieringRecord record =
                store.tieringRecord(table.tableId())
                        .map(old -> old.withEnabledSince(now))
                        .orElseGet(() -> TieringRecord.initial(table.tableId(), now));
        store.putTieringRecord(record);
        TableTiering t = new TableTiering(table, record);
        t.epoch = Math.max(t.epoch, issuedEpochs.getOrDefault(table.tableId(), 0L));
        // A commit of the table's previous enablement may still land or fail ambiguously.
        t.needsReconcile = lake != null && commits.inFlight(table.tableId());
        tables.put(table.tableId(), t);
        schedule(t, false);
    }

    private void remove(TableTiering t, String why) {
        tables.remove(t.tableId());
        t.cancelTimer();
        if (t.state == TieringState.PENDING) {
            queue(t.queuedInGroup).remove(t);
        }
        tiering.remove(t);
        commits.fenceHeld(t, why);
        releaseFromJob(t);
    }

    // ---------------------------------------------------------------- scheduling

    /** New/Tiered -> Scheduled with delay {@code freshness - (now - base)} in [0, freshness]. */
    private void schedule(TableTiering t, boolean dueNow) {
        t.transition(TieringState.SCHEDULED);
        arm(t, scheduleDelay(t, dueNow));
    }

    private long scheduleDelay(TableTiering t, boolean dueNow) {
        if (dueNow) {
            return 0;
        }
        long elapsed = clock.currentTimeMillis() - t.freshnessBaseMillis();
        long freshness = t.freshnessMillis();
        return Math.max(0, Math.min(freshness, freshness - elapsed));
    }

    private void arm(TableTiering t, long delayMillis) {
        t.cancelTimer();
        t.nextDueMillis = clock.currentTimeMillis() + delayMillis;
        t.timer = timers.schedule(delayMillis, () -> onTimer(t));
    }

    private void onTimer(TableTiering t) {
        t.timer = null;
        t.nextDueMillis = -1;
        if (tables.get(t.tableId()) != t) {
            return;
        }
        enterPendingAfterReconcile(t);
    }

    /** Scheduled/Failed -> Pending, first adopting any lake snapshot we do not know (T21). */
    private void enterPendingAfterReconcile(TableTiering t) {
        if (!t.commitInFlight && commits.inFlight(t.tableId())) {
            // A previous enablement's commit still runs: wait for its outcome first.
            arm(t, Math.max(1, config.heartbeatInterval().toMillis() / 2));
            return;
        }
        if (!t.needsReconcile) {
            enterPending(t);
            return;
        }
        reconciliation.start(t);
    }

    /** Every entry into Pending bumps the epoch (T17) and queues the table (T16). */
    private void enterPending(TableTiering t) {
        t.transition(TieringState.PENDING);
        t.cancelTimer();
        t.epoch = Math.max(t.epoch + 1, epochBase);
        issuedEpochs.put(t.tableId(), t.epoch);
        t.pendingSinceMillis = clock.currentTimeMillis();
        t.pendingSeq = pendingSeq++;
        t.queueDeadlineMillis = t.pendingSinceMillis + t.freshnessMillis();
        t.queuedInGroup = t.group();
        queue(t.group()).add(t);
        waiters.wake(t.group(), this::assignWork);
    }

    private PendingQueue queue(String group) {
        return queues.computeIfAbsent(group, g -> PendingQueue.create(config.queuePolicy()));
    }

    // ---------------------------------------------------------------- jobs and heartbeats

    /**
     * Registers (or re-registers) a job. A re-registering job has restarted: its rounds that are
     * not committing are failed, so their epochs are fenced (T19).
     *
     * @param parallelism the job's readers, 0 when unknown; kept for status and planning (T44)
     */
    public JobSettings registerJob(String jobId, String group, int parallelism) {
        return heartbeats.registerJob(jobId, group, parallelism);
    }

    /**
     * Handles a heartbeat: renews in-flight rounds, applies reports, and hands out at most one
     * table. Every table entry gets an ack; a stale one is {@code FENCED} (T18, T19). Rounds past
     * their table's freshness are named for force-finish (T13); files of results a report discards
     * are deleted (T23).
     */
    public HeartbeatResult heartbeat(HeartbeatRequest request) {
        return heartbeats.heartbeat(request);
    }

    /**
     * Like {@link #heartbeat}, but a table request that finds nothing pending may wait for one
     * ({@link HeartbeatRequest#waitForTableMillis()}, capped at the heartbeat interval).
     */
    public CompletableFuture<HeartbeatResult> heartbeatAsync(HeartbeatRequest request) {
        return heartbeats.heartbeatAsync(request);
    }

    /** Answers every parked table request at once (the coordinator is closing). */
    public void releaseWaiters() {
        waiters.releaseAll();
    }

    /**
     * Starts a graceful shutdown: parked table requests are answered, no new lake commit starts (a
     * commit request fails with {@link RetriableException}), and the returned future completes once
     * every lake commit already running has ended. Each of those delivers its outcome as usual: a
     * commit that lands is recorded durably and answered, one that fails is answered as failed, so
     * close does not leave a commit to land behind it.
     */
    public CompletableFuture<Void> beginShutdown() {
        commits.refuseNew();
        waiters.releaseAll();
        return commits.drain();
    }

    /** Ids of the tables whose lake commit I/O still runs. */
    public Set<Long> commitsInFlight() {
        return Set.copyOf(commits.inFlightView());
    }

    /**
     * Work for a job that asks for a table: a pending table's round first; only when there is none,
     * and the job accepts it, the group's next compaction (T38): tiering always goes first.
     */
    private TableWaiters.Work assignWork(JobInfo job, boolean acceptMaintenance) {
        RoundPlan plan = assignNext(job);
        if (plan != null) {
            return new TableWaiters.Work(plan, null);
        }
        if (acceptMaintenance && maintenance != null) {
            MaintenanceGrant grant = maintenance.grant(job.jobId, job.group);
            if (grant != null) {
                return new TableWaiters.Work(null, grant);
            }
        }
        return null;
    }

    /**
     * Pops the job's group queue until a table has work (T16, T26). A table with nothing new
     * finishes its round at once without a lake snapshot and without a job (T27).
     */
    private RoundPlan assignNext(JobInfo job) {
        PendingQueue q = queues.get(job.group);
        if (q == null) {
            return null;
        }
        RoundPlan plan = null;
        while (plan == null) {
            TableTiering t = q.poll();
            if (t == null) {
                break;
            }
            if (t.state != TieringState.PENDING) {
                throw new IllegalStateException(
                        "table " + t.tableId() + " was queued while " + t.state);
            }
            long now = clock.currentTimeMillis();
            RoundPlanner.Work work = planner.work(t.table, t.record, t.partitions);
            t.transition(TieringState.TIERING);
            t.roundId = t.nextRoundId++;
            t.roundStartMillis = now;
            t.queueWaitMillis = Math.max(0, now - t.pendingSinceMillis);
            if (work.isEmpty()) {
                t.jobId = job.jobId;
                finishWithoutCommit(t, false);
                continue;
            }
            t.jobId = job.jobId;
            t.lastHeartbeatNanos = clock.nanoTime();
            t.plan =
                    new RoundPlan(
                            t.tableId(),
                            t.table.path(),
                            t.table.descriptor(),
                            t.table.schemaId(),
                            t.epoch,
                            t.roundId,
                            work.buckets(),
                            t.table.freshness(),
                            work.partitionNames());
            tiering.add(t);
            job.tables.add(t.tableId());
            plan = t.plan;
        }
        return plan;
    }

    /** Tiering -> Tiered -> Scheduled (or -> Pending at once if force-finished, T13). */
    private void finishWithoutCommit(TableTiering t, boolean forceFinished) {
        long now = clock.currentTimeMillis();
        t.transition(TieringState.TIERED);
        t.lastEmptyRoundMillis = now;
        recordEndedWithoutCommit(t, forceFinished, null);
        endRound(t);
        if (forceFinished) {
            enterPendingAfterReconcile(t);
        } else {
            schedule(t, false);
        }
    }

    /** Tiering -> Failed, then Pending after an exponential backoff (T18, T22). */
    private void fail(TableTiering t, String why) {
        t.transition(TieringState.FAILED);
        // its readers abort what they wrote, unless the job is gone: the next commit looks (T23)
        t.orphansPossible = true;
        t.consecutiveFailures++;
        t.totalFailures++;
        t.lastFailure = why;
        LOG.info("tiering round of {} failed: {}", t.table.path(), why);
        recordEndedWithoutCommit(t, false, why);
        endRound(t);
        arm(t, config.backoffMillis(t.consecutiveFailures));
    }

    /** Adds the round that ends now, with nothing committed, to the table's history. */
    private void recordEndedWithoutCommit(TableTiering t, boolean forceFinished, String failure) {
        t.rounds.add(
                RoundSummary.withoutCommit(
                        t.epoch,
                        t.roundId,
                        t.jobId,
                        t.queueWaitMillis,
                        t.roundStartMillis,
                        clock.currentTimeMillis(),
                        forceFinished,
                        failure));
    }

    private void endRound(TableTiering t) {
        tiering.remove(t);
        releaseFromJob(t);
        t.jobId = null;
        t.plan = null;
        t.pendingSinceMillis = -1;
    }

    private void releaseFromJob(TableTiering t) {
        JobInfo job = jobs.get(t.jobId);
        if (job != null && job.tables.remove(t.tableId())) {
            commits.releaseHeld(job);
        }
    }

    /** Fails every round whose job has not heartbeated it within the timeout (T18). */
    private void sweep() {
        timers.schedule(config.sweepIntervalMillis(), this::sweep);
        long now = clock.nanoTime();
        long timeout = config.heartbeatTimeout().toNanos();
        for (TableTiering t : List.copyOf(tiering)) {
            if (!t.commitPending() && now - t.lastHeartbeatNanos >= timeout) {
                fail(t, "no heartbeat from job " + t.jobId + " for " + config.heartbeatTimeout());
            }
        }
        if (maintenance != null) {
            maintenance.sweep(timeout);
        }
        jobs.forgetIdle(10 * timeout);
    }

    // ---------------------------------------------------------------- commits

    /**
     * A fenced commit (T19, T20, T23, T24, T25). The attempt must be the table's current one; the
     * lake commit then runs on the I/O pool while the table is held (up to {@code
     * tiering.commit.timeout}, without reassignment), and its outcome is recorded durably before
     * the table moves on. A retry of the same attempt while its commit runs gets the same future.
     * The files of a stale attempt's results are deleted: it can never commit them.
     *
     * @return the lake snapshot id (-1 when the round wrote no files); fails with {@link
     *     FencedException} for a stale attempt, {@link InvalidInputException} for offsets outside
     *     the round (the round is failed), or {@link StorageException} if the lake commit or the
     *     record failed or timed out (the round is failed and the table reconciled with the lake
     *     before its next round)
     */
    public CompletableFuture<Long> commit(RoundCommit request) {
        return commits.commit(request);
    }

    // ---------------------------------------------------------------- hooks

    /**
     * The state machine's side of {@link TieringCommits}, {@link JobHeartbeats} and {@link
     * TableReconciliation}: the only moves they make on a table's state.
     */
    private final class Hooks
            implements TieringCommits.Rounds, JobHeartbeats.Rounds, TableReconciliation.Rounds {
        @Override
        public TableTiering current(long tableId) {
            return tables.get(tableId);
        }

        @Override
        public void fail(TableTiering t, String why) {
            TieringManager.this.fail(t, why);
        }

        @Override
        public void committed(TableTiering t, boolean forceFinished) {
            t.transition(TieringState.TIERED);
            endRound(t);
            if (forceFinished) {
                enterPendingAfterReconcile(t);
            } else {
                schedule(t, false);
            }
        }

        @Override
        public void finishWithoutCommit(TableTiering t, boolean forceFinished) {
            TieringManager.this.finishWithoutCommit(t, forceFinished);
        }

        @Override
        public TableWaiters.Work assignWork(JobInfo job, boolean acceptMaintenance) {
            return TieringManager.this.assignWork(job, acceptMaintenance);
        }

        @Override
        public void enterPending(TableTiering t) {
            TieringManager.this.enterPending(t);
        }

        @Override
        public void retryAfter(TableTiering t, long delayMillis) {
            arm(t, delayMillis);
        }
    }

    // ---------------------------------------------------------------- partitions (T33)

    /**
     * Removes a partition from the registry and from its table's tiered offsets, durably and
     * atomically, if nothing of it would be lost: its table is not lake-enabled, or every bucket is
     * tiered to {@code endOffsets} (the store's final end offsets of the sealed partition) and no
     * round or commit of the table is running (it could still name the partition).
     *
     * @param checkOnly only answer whether it could go now; remove nothing
     * @return empty when removed (or already gone, or removable with {@code checkOnly}), else why
     *     not yet
     */
    public Optional<String> removePartition(
            long tableId, long partitionId, Map<Integer, Long> endOffsets, boolean checkOnly) {
        TableTiering t = tables.get(tableId);
        String blocker =
                t == null
                        ? null
                        : PartitionRemoval.blocker(
                                t, partitionId, endOffsets, commits.inFlightView());
        if (blocker != null || checkOnly) {
            return Optional.ofNullable(blocker);
        }
        partitions.remove(tableId, partitionId);
        if (t != null) {
            t.record = t.record.withoutPartition(partitionId);
            t.partitions.forget(partitionId);
        }
        return Optional.empty();
    }

    // ---------------------------------------------------------------- status (T28)

    public CoordinatorStatus status() {
        return TieringStatusBuilder.build(this);
    }

    public Optional<TableTieringStatus> tableStatus(long tableId) {
        TableTiering t = tables.get(tableId);
        return t == null
                ? Optional.empty()
                : Optional.of(TieringStatusBuilder.table(this, t, null));
    }

    /** The table's maintenance status, or {@code null} without maintenance. */
    TableMaintenanceStatus maintenanceStatus(long tableId) {
        return maintenance == null ? null : maintenance.status(tableId).orElse(null);
    }

    // Accessors for TieringStatusBuilder and tests in this package.
    Map<Long, TableTiering> tablesView() {
        return tables;
    }

    Map<String, PendingQueue> queuesView() {
        return queues;
    }

    Collection<JobInfo> jobsView() {
        return jobs.all();
    }

    int tieringCount() {
        return tiering.size();
    }

    boolean waiting(String jobId) {
        return waiters.isWaiting(jobId);
    }

    Clock clock() {
        return clock;
    }

    /** The table's current state, or empty if it is not a lake table. */
    public Optional<TieringState> state(long tableId) {
        TableTiering t = tables.get(tableId);
        return t == null ? Optional.empty() : Optional.of(t.state);
    }

    /** The table's current epoch, or -1 if it is not a lake table. */
    public long epoch(long tableId) {
        TableTiering t = tables.get(tableId);
        return t == null ? -1 : t.epoch;
    }

    /** The table's durable record, or empty if it is not a lake table. */
    public Optional<TieringRecord> record(long tableId) {
        TableTiering t = tables.get(tableId);
        return t == null ? Optional.empty() : Optional.of(t.record);
    }

    /** Ids of the pending tables of a group in hand-out order. */
    public List<Long> pendingOrder(String group) {
        PendingQueue q = queues.get(Attempts.normalizeGroup(group));
        if (q == null) {
            return List.of();
        }
        List<Long> out = new ArrayList<>(q.size());
        for (TableTiering t : q.inOrder()) {
            out.add(t.tableId());
        }
        return out;
    }
}

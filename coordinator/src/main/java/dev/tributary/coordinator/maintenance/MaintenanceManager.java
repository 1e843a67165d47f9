package dev.tributary.coordinator.maintenance;

import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.LakeIo;
import dev.tributary.coordinator.runtime.LakeIoRunner;
import dev.tributary.coordinator.runtime.TimerService;
import dev.tributary.coordinator.spi.LakeMaintenanceStep;
import dev.tributary.coordinator.status.TableMaintenanceStatus;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceGrant;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.MaintenanceReport;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
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
 * <p>A facade over the parts with one job each: {@link MaintenanceTables} (the tables and the
 * compaction queues), {@link MaintenancePasses} (when passes run, what they find), {@link
 * MaintenanceGrants} (grants and their leases), {@link CompactionCommits} and {@link
 * MaintenanceStatusBuilder}; the lake I/O runs on a {@link LakeIoRunner}, one step of a table at a
 * time. This class follows the tables' lifecycle and forwards the rest.
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

    private final MaintenanceConfig config;
    private final MaintenanceTables tables = new MaintenanceTables();
    private final MaintenancePasses passes;
    private final MaintenanceGrants grants;
    private final CompactionCommits commits;
    private Listener listener;

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
        // the parts tell whoever listens now, not who listened when they were built
        Listener toListener =
                new Listener() {
                    @Override
                    public void queued(String group) {
                        if (listener != null) {
                            listener.queued(group);
                        }
                    }

                    @Override
                    public void orphansPossible(long tableId) {
                        if (listener != null) {
                            listener.orphansPossible(tableId);
                        }
                    }
                };
        LakeIoRunner runner = new LakeIoRunner(loop, io, timers);
        this.passes =
                new MaintenancePasses(
                        config, clock, timers, runner, lake, backoffMillis, tables, toListener);
        this.grants =
                new MaintenanceGrants(
                        config, clock, timers, runner, lake, idBase, tables, passes, toListener);
        this.commits = new CompactionCommits(config, clock, runner, lake, tables, grants, passes);
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
                passes.request(tables.add(table), true);
            }
        }
    }

    public void onTableCreated(TableInfo table) {
        if (table.lakeEnabled()) {
            tables.add(table);
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
            tables.add(after);
            return;
        }
        MaintenanceTableOptions.Settings old = t.settings;
        String oldGroup = t.group();
        t.table = after;
        t.settings = MaintenanceTableOptions.Settings.of(after.options());
        if (t.state == MaintenanceState.QUEUED && !t.settings.autoCompaction()) {
            tables.dequeue(t);
            t.transition(MaintenanceState.IDLE);
        } else if (t.state == MaintenanceState.QUEUED && !oldGroup.equals(t.group())) {
            tables.dequeue(t);
            tables.enqueue(t);
            if (listener != null) {
                listener.queued(t.group());
            }
        }
        if (!old.equals(t.settings)) {
            passes.request(t, true);
        }
    }

    public void onTableDropped(long tableId) {
        TableMaintenance t = tables.get(tableId);
        if (t != null) {
            remove(t, "table was dropped");
        }
    }

    private void remove(TableMaintenance t, String why) {
        tables.remove(t);
        t.cancelPassTimer();
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
            passes.request(t, false);
        }
    }

    // ---------------------------------------------------------------- grants

    /**
     * The compaction at the head of {@code group}'s queue for job {@code jobId}, or {@code null}.
     * The caller asks only when no tiering table is pending for the job.
     */
    public MaintenanceGrant grant(String jobId, String group) {
        return grants.grant(jobId, group);
    }

    /**
     * Renews a job's grants and applies its failure reports.
     *
     * @return the grants named in {@code inFlight} that are no longer current: the job stops them
     */
    public List<MaintenanceAttempt> heartbeat(
            String jobId, List<MaintenanceAttempt> inFlight, List<MaintenanceReport> reports) {
        return grants.heartbeat(jobId, inFlight, reports);
    }

    /** A job registered again: the grants of its previous life can never commit. */
    public void jobRestarted(String jobId) {
        grants.jobRestarted(jobId);
    }

    /** Gives up grants whose job has not heartbeated them within {@code timeoutNanos} (T18). */
    public void sweep(long timeoutNanos) {
        grants.sweep(timeoutNanos);
    }

    /**
     * The newest maintenance id whose grant on the table is over: files of grants up to it that no
     * snapshot references are garbage (T23). A grant still out protects its own files and later
     * ones.
     */
    public long deadUpTo(long tableId) {
        return grants.deadUpTo(tableId);
    }

    // ---------------------------------------------------------------- commits

    /**
     * Commits a grant's compaction. Never fails: a stale grant is {@code FENCED} (its files are
     * deleted), a refused one {@code YIELDED}, a failed one {@code FAILED}; each is planned again.
     */
    public CompletableFuture<MaintenanceOutcome> commit(MaintenanceCommit r) {
        return commits.commit(r);
    }

    // ---------------------------------------------------------------- status

    public Optional<TableMaintenanceStatus> status(long tableId) {
        TableMaintenance t = tables.get(tableId);
        return t == null
                ? Optional.empty()
                : Optional.of(MaintenanceStatusBuilder.of(t, tables.position(t)));
    }

    /** The table's state, or empty if it is not a lake table. */
    public Optional<MaintenanceState> state(long tableId) {
        TableMaintenance t = tables.get(tableId);
        return t == null ? Optional.empty() : Optional.of(t.state);
    }
}

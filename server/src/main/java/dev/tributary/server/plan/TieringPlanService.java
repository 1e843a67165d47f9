package dev.tributary.server.plan;

import dev.tributary.common.concurrent.DaemonThreads;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.planner.PlanReport;
import dev.tributary.planner.TieringPlanner;
import dev.tributary.planner.report.PlanText;
import dev.tributary.planner.sim.SimulationResult;
import dev.tributary.planner.sim.SimulationSettings;
import dev.tributary.planner.workload.Workload;
import dev.tributary.server.status.TieringStatusService;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tiering planner on the running server (T44): the measured workload, a plan of it with
 * recommendations on request ({@code /api/tiering/plan}), and each table's verdict for the web
 * console, recomputed at most every {@link #VERDICT_MAX_AGE_MILLIS} so that a console refreshing
 * every two seconds costs one simulation per half minute. Plans asked for run on the caller's
 * thread (an HTTP thread); the console's verdicts are renewed on a thread of their own, so that no
 * console refresh waits for a simulation of every table. Never on the coordinator's loop.
 */
public final class TieringPlanService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TieringPlanService.class);

    /** How old the console's verdicts may be. */
    public static final long VERDICT_MAX_AGE_MILLIS = 30_000;

    private final TieringStatusService status;
    private final LongFunction<Optional<TableInfo>> tables;
    private final WriteRates rates;
    private final RoundObservations observed;
    private final TieringConfig config;
    private final Clock clock;
    private final ExecutorService renewer =
            Executors.newSingleThreadExecutor(DaemonThreads.named("tributary-plan"));
    private final AtomicBoolean renewing = new AtomicBoolean();
    private Verdicts verdicts;

    /**
     * @param tables every table of the metadata by id (on a cluster also those whose buckets are on
     *     other servers)
     */
    public TieringPlanService(
            TieringStatusService status,
            LongFunction<Optional<TableInfo>> tables,
            WriteRates rates,
            RoundObservations observed,
            TieringConfig config,
            Clock clock) {
        this.status = status;
        this.tables = tables;
        this.rates = rates;
        this.observed = observed;
        this.config = config;
        this.clock = clock;
    }

    /** The server's workload as measured now. */
    public Workload workload() {
        TieringStatusService.Overview o = status.overview();
        observed.retainTables(
                o.tables().stream()
                        .map(t -> t.tableId())
                        .collect(java.util.stream.Collectors.toSet()));
        return LiveWorkload.build(
                o, status.heartbeatTimeoutMillis(), tables, rates, observed, config);
    }

    /** How a live workload is simulated unless the caller says otherwise. */
    public static SimulationSettings defaultSettings(Workload w) {
        return SimulationSettings.forWorkload(w);
    }

    public PlanReport plan(SimulationSettings settings, boolean recommend) {
        return TieringPlanner.plan(workload(), settings, recommend);
    }

    /**
     * Each table's predicted verdict for the console: met at p99, or missed by how much; a plan
     * that fails is reported as the error. Never waits: answers the last verdicts computed ({@code
     * null} before the first) and, when they are older than {@link #VERDICT_MAX_AGE_MILLIS}, has
     * them renewed in the background. A simulation of a thousand tables takes seconds; a console
     * refresh must not.
     */
    public Verdicts verdicts() {
        Verdicts last;
        synchronized (this) {
            last = verdicts;
        }
        long now = clock.currentTimeMillis();
        boolean fresh =
                last != null
                        && now >= last.computedAtMillis()
                        && now - last.computedAtMillis() < VERDICT_MAX_AGE_MILLIS;
        if (!fresh && renewing.compareAndSet(false, true)) {
            try {
                renewer.execute(
                        () -> {
                            try {
                                Verdicts v = computeVerdicts();
                                synchronized (this) {
                                    verdicts = v;
                                }
                            } catch (RuntimeException e) {
                                LOG.warn("the tiering plan for the console failed", e);
                            } finally {
                                renewing.set(false);
                            }
                        });
            } catch (RejectedExecutionException closed) {
                renewing.set(false);
            }
        }
        return last;
    }

    /** Stops renewing the verdicts. */
    @Override
    public void close() {
        renewer.shutdownNow();
    }

    private Verdicts computeVerdicts() {
        long now = clock.currentTimeMillis();
        Map<String, Verdict> tables = new LinkedHashMap<>();
        String error = null;
        long horizon = 0;
        try {
            Workload w = workload();
            SimulationSettings s = defaultSettings(w);
            horizon = s.horizon().toMillis();
            SimulationResult r = TieringPlanner.predict(w, s);
            for (SimulationResult.TableOutcome t : r.tables()) {
                tables.put(
                        t.name(),
                        new Verdict(
                                t.met(),
                                PlanText.verdict(t),
                                t.lagP99Millis(),
                                t.lagPeakMillis(),
                                t.lagTarget().toMillis(),
                                t.missedByMillis(),
                                t.roundAvgMillis()));
            }
        } catch (TributaryException | IllegalArgumentException e) {
            LOG.warn("the tiering plan for the console failed", e);
            error = e.getMessage();
        }
        return new Verdicts(now, horizon, tables, error);
    }

    /**
     * The console's view of a plan.
     *
     * @param tables by table name
     * @param error why no plan could be made, else {@code null}
     */
    public record Verdicts(
            long computedAtMillis, long horizonMillis, Map<String, Verdict> tables, String error) {}

    /**
     * One table's predicted verdict.
     *
     * @param text "met at p99" or "missed by 12s at p99"
     */
    public record Verdict(
            boolean met,
            String text,
            long lagP99Millis,
            long lagPeakMillis,
            long lagTargetMillis,
            long missedByMillis,
            long roundAvgMillis) {}
}

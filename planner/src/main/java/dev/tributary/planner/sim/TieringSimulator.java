package dev.tributary.planner.sim;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.CoordinatorCore;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.planner.sim.SimulationResult.Event;
import dev.tributary.planner.sim.SimulationResult.EventKind;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.planner.workload.Workload;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runs the coordinator's real logic ({@link CoordinatorCore}: the table registry and the tiering
 * manager with its state machine, queue policy, freshness timers, epochs, heartbeats, push to idle
 * jobs and fenced commits) in virtual time, against the modeled jobs of a {@link Workload}. Only
 * the jobs' reading and the lake's commit latency are modeled ({@link SimulatedJob}, {@link
 * TableModel}); every scheduling decision is the production code's.
 *
 * <p>Tables are created {@code createdBefore} before time 0, when the jobs start. A run is
 * deterministic for a given workload and seed, and fast: an hour of three tables takes
 * milliseconds.
 */
public final class TieringSimulator {
    /** Virtual wall time of the simulation's start; any fixed instant would do. */
    private static final long ORIGIN_MILLIS = 1_800_000_000_000L;

    private final Workload workload;
    private final SimulationSettings settings;
    private final ManualClock clock = new ManualClock(ORIGIN_MILLIS);
    private final VirtualLoop loop = new VirtualLoop(clock);
    private final CoordinatorCore core;
    private final Map<Long, TableModel> models = new LinkedHashMap<>();
    private final Map<Long, Tracked> tracked = new LinkedHashMap<>();
    private final Map<String, List<long[]>> jobBusy = new LinkedHashMap<>();
    private final List<Event> events = new ArrayList<>();
    private final List<SimulatedJob> jobs = new ArrayList<>();
    private long startMillis;

    public TieringSimulator(Workload workload, SimulationSettings settings) {
        this.workload = workload;
        this.settings = settings;
        TieringConfig config =
                TieringConfig.defaults()
                        .withQueuePolicy(workload.queuePolicy())
                        .withCommitOrder(workload.commitOrder());
        this.core =
                new CoordinatorCore(
                        config,
                        clock,
                        loop,
                        loop,
                        loop.lakeIo(),
                        new SimulationStore(),
                        (tableId, path, bucketCount) ->
                                models.get(tableId).bucketStates(clock.currentTimeMillis()),
                        new InstantLake());
        Set<String> databases = new HashSet<>();
        for (TableLoad t : workload.tables()) {
            TablePath path = pathOf(t.name());
            if (databases.add(path.database())) {
                core.createDatabase(path.database(), null, true);
            }
            TableDescriptor.Builder d =
                    TableDescriptor.builder(schema(t.primaryKey()))
                            .bucketCount(t.buckets())
                            .property("table.datalake.enabled", "true")
                            .property("table.datalake.freshness", t.freshness().toMillis() + "ms");
            if (!t.group().equals(TableLoad.DEFAULT_GROUP)) {
                d.property("table.datalake.tiering.group", t.group());
            }
            long now = clock.currentTimeMillis();
            TableInfo info = core.createTable(path, d.build(), false);
            TableModel m = new TableModel(t, info.tableId(), now);
            models.put(info.tableId(), m);
            tracked.put(
                    info.tableId(), new Tracked(t, new LagTrace(now, oldestUntiered(m, Map.of()))));
        }
        loop.advanceTo(clock.currentTimeMillis() + workload.createdBefore().toMillis());
        this.startMillis = clock.currentTimeMillis();
    }

    private static TablePath pathOf(String name) {
        try {
            return name.contains(".") ? TablePath.parse(name) : TablePath.of("plan", name);
        } catch (RuntimeException e) {
            throw new InvalidInputException(
                    "table name '" + name + "' is not db.table or a plain name: " + e.getMessage());
        }
    }

    private static Schema schema(boolean pk) {
        Schema.Builder b = Schema.newBuilder().column("k", DataTypes.BIGINT());
        if (pk) {
            b.primaryKey("k");
        }
        return b.build();
    }

    /** Names of the pending tables of the default group in hand-out order, right now. */
    public List<String> pendingOrderNow() {
        List<String> out = new ArrayList<>();
        for (long id : core.tiering().pendingOrder(null)) {
            out.add(models.get(id).load.name());
        }
        return out;
    }

    /** Runs the jobs from time 0 to the horizon. */
    public SimulationResult run() {
        long end = startMillis + settings.horizon().toMillis();
        Listener listener = new Listener();
        long seed = settings.seed();
        for (JobLoad j : workload.jobs()) {
            jobs.add(new SimulatedJob(j, core, loop, models, seed++, listener));
            jobBusy.put(j.id(), new ArrayList<>());
        }
        for (SimulatedJob j : jobs) {
            j.start();
        }
        loop.runReady();
        while (clock.currentTimeMillis() < end) {
            long next = Math.min(end, loop.nextTimerMillis());
            for (SimulatedJob j : jobs) {
                next = Math.min(next, j.nextEventMillis());
            }
            loop.advanceTo(Math.max(next, clock.currentTimeMillis()));
            long now = clock.currentTimeMillis();
            // jobs react to each other's effects at the same instant (a commit frees a table a
            // parked request then gets): settle before time moves on
            for (int pass = 0; pass < 100; pass++) {
                for (SimulatedJob j : jobs) {
                    j.step();
                }
                loop.runReady();
                boolean due = false;
                for (SimulatedJob j : jobs) {
                    due |= j.nextEventMillis() <= now;
                }
                if (!due) {
                    break;
                }
            }
        }
        return result(end);
    }

    private long oldestUntiered(TableModel m, Map<Integer, Long> tiered) {
        long oldest = Long.MAX_VALUE;
        for (int b = 0; b < m.load.buckets(); b++) {
            oldest = Math.min(oldest, m.writeTime(b, tiered.getOrDefault(b, 0L)));
        }
        return oldest;
    }

    private SimulationResult result(long end) {
        long horizon = end - startMillis;
        long windowStart = windowStart(horizon);
        long from = startMillis + windowStart;
        List<SimulationResult.TableOutcome> tables = new ArrayList<>();
        for (Tracked t : tracked.values()) {
            t.trace.end(end);
            tables.add(t.outcome(from, end));
        }
        List<SimulationResult.JobOutcome> jobOutcomes = new ArrayList<>();
        for (SimulatedJob j : jobs) {
            double busy = busyWithin(jobBusy.get(j.load.id()), from, end);
            jobOutcomes.add(
                    new SimulationResult.JobOutcome(
                            j.load.id(),
                            j.load.group(),
                            j.parallelism(),
                            busy / ((double) j.parallelism() * Math.max(1, end - from))));
        }
        events.sort((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
        return new SimulationResult(horizon, windowStart, tables, jobOutcomes, events);
    }

    /** The warm-up: given, or until every table has ended two rounds (at most a third). */
    private long windowStart(long horizon) {
        if (settings.warmup() != null) {
            return settings.warmup().toMillis();
        }
        long latest = 0;
        for (Tracked t : tracked.values()) {
            if (t.load.writeRecordsPerSecond() <= 0 && !t.load.fixedDurations()) {
                continue;
            }
            long second = t.ends.size() >= 2 ? t.ends.get(1) - startMillis : Long.MAX_VALUE;
            latest = Math.max(latest, second);
        }
        return Math.min(latest, horizon / 3);
    }

    static double busyWithin(List<long[]> intervals, long from, long to) {
        double busy = 0;
        for (long[] i : intervals) {
            long a = Math.max(from, i[0]);
            long b = Math.min(to, i[1]);
            if (b > a) {
                busy += b - a;
            }
        }
        return busy;
    }

    private void event(
            long atAbs,
            Tracked t,
            String job,
            EventKind kind,
            int round,
            int splits,
            int idle,
            long waited,
            long duration,
            boolean ff,
            long sinceCommit) {
        events.add(
                new Event(
                        atAbs - startMillis,
                        t.load.name(),
                        job,
                        kind,
                        round,
                        splits,
                        idle,
                        waited,
                        duration,
                        ff,
                        sinceCommit));
    }

    /** Records what the jobs report. */
    private final class Listener implements SimulatedJob.Listener {
        @Override
        public void granted(SimulatedJob job, SimulatedJob.Round round, int idleReaders) {
            Tracked t = tracked.get(round.plan.tableId());
            long now = clock.currentTimeMillis();
            long pendingSince =
                    core.tiering()
                            .tableStatus(round.plan.tableId())
                            .map(TableTieringStatus::pendingSinceMillis)
                            .filter(p -> p > 0)
                            .orElse(now);
            long since = t.lastCommitMillis < 0 ? -1 : pendingSince - t.lastCommitMillis;
            event(
                    pendingSince,
                    t,
                    job.load.id(),
                    EventKind.PENDING,
                    round.ordinal,
                    0,
                    0,
                    0,
                    0,
                    false,
                    since);
            event(
                    now,
                    t,
                    job.load.id(),
                    EventKind.GRANTED,
                    round.ordinal,
                    round.splits.size(),
                    idleReaders,
                    now - pendingSince,
                    0,
                    false,
                    -1);
            t.waits.add(new long[] {now, now - pendingSince});
        }

        @Override
        public void ended(SimulatedJob job, SimulatedJob.Round round, boolean committed) {
            Tracked t = tracked.get(round.plan.tableId());
            long now = clock.currentTimeMillis();
            long duration = now - round.grantedMillis;
            if (round.forceFinished) {
                event(
                        round.deadlineMillis,
                        t,
                        job.load.id(),
                        EventKind.FORCE_FINISHED,
                        round.ordinal,
                        round.splits.size(),
                        0,
                        0,
                        round.deadlineMillis - round.grantedMillis,
                        true,
                        -1);
            }
            event(
                    now,
                    t,
                    job.load.id(),
                    committed ? EventKind.COMMITTED : EventKind.NOTHING_TO_COMMIT,
                    round.ordinal,
                    round.splits.size(),
                    0,
                    0,
                    duration,
                    round.forceFinished,
                    -1);
            long data = 0;
            for (SimulatedJob.Split s : round.splits) {
                if (s.startMillis >= 0) {
                    data =
                            Math.max(
                                    data,
                                    Math.max(
                                            0,
                                            s.actualEndMillis - s.startMillis - s.overheadMillis));
                }
            }
            t.ends.add(now);
            t.rounds.add(
                    new long[] {now, duration, round.forceFinished ? 1 : 0, data, round.ordinal});
            if (committed) {
                t.lastCommitMillis = now;
                Map<Integer, Long> tiered =
                        core.tiering()
                                .record(round.plan.tableId())
                                .<Map<Integer, Long>>map(r -> r.tieredOffsets())
                                .orElse(Map.of());
                t.trace.change(now, oldestUntiered(round.table, tiered));
            }
        }

        @Override
        public void splitRan(SimulatedJob job, SimulatedJob.Round round, long from, long to) {
            tracked.get(round.plan.tableId()).busy.add(new long[] {from, to});
            jobBusy.get(job.load.id()).add(new long[] {from, to});
        }
    }

    /** What the simulator follows of one table. */
    private static final class Tracked {
        final TableLoad load;
        final LagTrace trace;
        final List<Long> ends = new ArrayList<>();

        /**
         * per ended round: end time, duration, force-finished, slowest split's data millis, ordinal
         */
        final List<long[]> rounds = new ArrayList<>();

        /** per grant: time, queue wait */
        final List<long[]> waits = new ArrayList<>();

        final List<long[]> busy = new ArrayList<>();
        long lastCommitMillis = -1;

        Tracked(TableLoad load, LagTrace trace) {
            this.load = load;
            this.trace = trace;
        }

        SimulationResult.TableOutcome outcome(long from, long to) {
            long n = 0;
            long ff = 0;
            long sum = 0;
            long max = 0;
            double dataShare = 0;
            long first = -1;
            for (long[] r : rounds) {
                if (r[4] == 1 && first < 0) {
                    first = r[1];
                }
                if (r[0] < from) {
                    continue;
                }
                n++;
                ff += r[2];
                sum += r[1];
                max = Math.max(max, r[1]);
                dataShare += r[1] > 0 ? Math.min(1.0, (double) r[3] / r[1]) : 0;
            }
            long waitN = 0;
            long waitSum = 0;
            long waitMax = 0;
            for (long[] w : waits) {
                if (w[0] < from) {
                    continue;
                }
                waitN++;
                waitSum += w[1];
                waitMax = Math.max(waitMax, w[1]);
            }
            LagTrace.Figures lag = trace.figures(from, to);
            return new SimulationResult.TableOutcome(
                    load.name(),
                    load.group(),
                    load.freshness(),
                    load.effectiveLagTarget(),
                    n,
                    ff,
                    first,
                    n == 0 ? -1 : sum / n,
                    max,
                    waitN == 0 ? 0 : waitSum / waitN,
                    waitMax,
                    Math.round(lag.avgMillis()),
                    lag.p99Millis(),
                    lag.peakMillis(),
                    busyWithin(busy, from, to) / Math.max(1, to - from),
                    n == 0 ? 0 : dataShare / n);
        }
    }

    /** A lake whose commits always land; their latency is the job's, applied by the loop. */
    private static final class InstantLake implements LakeCommitStep {
        private long next = 1;

        @Override
        public LakeCommitResult commit(
                TablePath path,
                List<byte[]> writeResults,
                TieringSnapshotProperties properties,
                TieredRound base) {
            return LakeCommitResult.committed(next++, 0, 0, 0);
        }

        @Override
        public void abort(TablePath path, List<byte[]> writeResults) {}

        @Override
        public List<String> deleteOrphanFiles(TablePath path, OrphanPolicy policy) {
            return List.of();
        }

        @Override
        public Optional<LakeSnapshot> latestTieringSnapshot(TablePath path, long tableId) {
            return Optional.empty();
        }
    }
}

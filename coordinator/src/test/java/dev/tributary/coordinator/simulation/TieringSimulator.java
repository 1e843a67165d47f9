package dev.tributary.coordinator.simulation;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.CoordinatorCore;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.runtime.ManualLoop;
import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.spi.KvSnapshotRef;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.store.InMemoryMetadataStore;
import dev.tributary.coordinator.tiering.BucketWork;
import dev.tributary.coordinator.tiering.CommitRequest;
import dev.tributary.coordinator.tiering.HeartbeatRequest;
import dev.tributary.coordinator.tiering.HeartbeatResponse;
import dev.tributary.coordinator.tiering.RoundPlan;
import dev.tributary.coordinator.tiering.RoundReport;
import dev.tributary.coordinator.tiering.RoundStats;
import dev.tributary.coordinator.tiering.TableAttempt;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.coordinator.tiering.TieringManager;
import dev.tributary.coordinator.tiering.TieringState;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * Runs the real {@link TieringManager} under virtual time against a modeled tiering job: one job of
 * N readers that take one split at a time, pull the next table as soon as a reader is idle and no
 * split is queued (read pipelining, push rather than poll), commit a table as soon as its last
 * split ends (completion order), and force-finish a round at its freshness ceiling. Lake commits
 * are instant. Measures per table the rounds, lake lag (age of the oldest record not in the lake)
 * and queue wait.
 */
public final class TieringSimulator {
    private static final String JOB = "sim-job";
    private static final long SAMPLE_MILLIS = 1000;

    private final SimConfig config;
    private final List<SimTable> specs;
    private final ManualClock clock = new ManualClock(1_000_000_000_000L);
    private final ManualLoop loop = new ManualLoop(clock);
    private final CoordinatorCore core;
    private final Random random;
    private final long startMillis;

    private final Map<Long, SimTable> specById = new LinkedHashMap<>();
    private final Map<Long, TableInfo> infoById = new HashMap<>();
    private final Map<Long, Long> createdAt = new HashMap<>();
    private final Map<Long, TieringState> lastState = new HashMap<>();
    private final Map<Long, Integer> roundsStarted = new HashMap<>();
    private final Map<Long, Acc> acc = new HashMap<>();
    private final List<SimResult.Event> events = new ArrayList<>();

    private final Reader[] readers;
    private final ArrayDeque<Split> queue = new ArrayDeque<>();
    private final Map<Long, Round> rounds = new LinkedHashMap<>();

    public TieringSimulator(SimConfig config, List<SimTable> tables) {
        this.config = config;
        this.specs = List.copyOf(tables);
        this.random = new Random(config.seed());
        this.readers = new Reader[config.readers()];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = new Reader();
        }
        TieringConfig tc = TieringConfig.defaults().withQueuePolicy(config.policy());
        this.core =
                new CoordinatorCore(
                        tc,
                        clock,
                        loop,
                        loop,
                        loop,
                        new InMemoryMetadataStore(),
                        new Buckets(),
                        new InstantLake());
        core.createDatabase("sim", null, false);
        for (SimTable s : specs) {
            TableDescriptor d =
                    TableDescriptor.builder(schema(s.primaryKey()))
                            .bucketCount(s.buckets())
                            .property("table.datalake.enabled", "true")
                            .property("table.datalake.freshness", s.freshness().toMillis() + "ms")
                            .build();
            TableInfo t = core.createTable(TablePath.of("sim", s.name()), d, false);
            specById.put(t.tableId(), s);
            infoById.put(t.tableId(), t);
            createdAt.put(t.tableId(), clock.currentTimeMillis());
            acc.put(t.tableId(), new Acc());
        }
        loop.advance(config.createdBefore());
        this.startMillis = clock.currentTimeMillis();
    }

    private static Schema schema(boolean pk) {
        Schema.Builder b = Schema.newBuilder().column("k", DataTypes.BIGINT());
        if (pk) {
            b.primaryKey("k");
        }
        return b.build();
    }

    /** Pending order at the job's start (time 0), by table name. */
    public List<String> pendingOrderNow() {
        List<String> out = new ArrayList<>();
        for (long id : core.tiering().pendingOrder(null)) {
            out.add(specById.get(id).name());
        }
        return out;
    }

    /** Runs the job from time 0 to the horizon. */
    public SimResult run() {
        observeStates();
        long end = startMillis + config.horizon().toMillis();
        long nextBeat = startMillis;
        long nextSample = startMillis;
        core.tiering().registerJob(JOB, null);
        assign();
        while (clock.currentTimeMillis() < end) {
            long now = clock.currentTimeMillis();
            long next = Math.min(end, Math.min(nextBeat, nextSample));
            for (Reader r : readers) {
                if (r.split != null) {
                    next = Math.min(next, r.split.endMillis);
                }
            }
            for (Round rd : rounds.values()) {
                if (!rd.forceFinished) {
                    next = Math.min(next, rd.deadlineMillis);
                }
            }
            long toTimer = loop.nanosToNextTimer();
            if (toTimer != Long.MAX_VALUE) {
                next = Math.min(next, now + Math.max(1, (toTimer + 999_999) / 1_000_000));
            }
            loop.advanceMillis(Math.max(0, next - now));
            now = clock.currentTimeMillis();
            observeStates();
            finishSplits(now);
            forceFinish(now);
            if (now >= nextBeat) {
                heartbeat();
                nextBeat = now + core.tiering().config().heartbeatInterval().toMillis();
            }
            assign();
            if (now >= nextSample) {
                sample(now);
                nextSample = now + SAMPLE_MILLIS;
            }
        }
        List<SimResult.TableStats> stats = new ArrayList<>();
        for (Map.Entry<Long, SimTable> e : specById.entrySet()) {
            Acc a = acc.get(e.getKey());
            stats.add(
                    new SimResult.TableStats(
                            e.getValue().name(),
                            e.getValue().freshness(),
                            a.rounds,
                            a.forceFinished,
                            a.samples == 0 ? 0 : (double) a.lagSum / a.samples,
                            a.peakLag,
                            a.waits == 0 ? 0 : (double) a.waitSum / a.waits,
                            a.maxWait));
        }
        return new SimResult(stats, events);
    }

    private boolean measuring(long now) {
        return now >= startMillis + config.warmup().toMillis();
    }

    private void event(long tableId, SimResult.Kind kind) {
        events.add(
                new SimResult.Event(
                        clock.currentTimeMillis() - startMillis,
                        specById.get(tableId).name(),
                        kind));
    }

    private void observeStates() {
        for (long id : specById.keySet()) {
            TieringState s = core.tiering().state(id).orElse(null);
            TieringState before = lastState.put(id, s);
            if (s == TieringState.PENDING && before != TieringState.PENDING) {
                event(id, SimResult.Kind.PENDING);
            }
        }
    }

    // ------------------------------------------------------------------ the modeled job

    private void assign() {
        while (true) {
            Reader idle = null;
            for (Reader r : readers) {
                if (r.split == null) {
                    idle = r;
                    break;
                }
            }
            if (idle == null) {
                return;
            }
            Split s = queue.poll();
            if (s == null) {
                if (!requestTable()) {
                    return;
                }
                continue;
            }
            long now = clock.currentTimeMillis();
            s.startMillis = now;
            s.endMillis = now + s.durationMillis;
            s.round.started++;
            idle.split = s;
            s.reader = idle;
        }
    }

    private boolean requestTable() {
        HeartbeatResponse r =
                core.tiering()
                        .heartbeat(new HeartbeatRequest(JOB, null, inFlight(), List.of(), true));
        loop.runReady();
        RoundPlan plan = r.plan();
        if (plan == null) {
            return false;
        }
        long now = clock.currentTimeMillis();
        long id = plan.tableId();
        event(id, SimResult.Kind.ASSIGNED);
        lastState.put(id, TieringState.TIERING);
        core.tiering()
                .tableStatus(id)
                .ifPresent(
                        st -> {
                            if (measuring(now) && st.pendingSinceMillis() > 0) {
                                Acc a = acc.get(id);
                                long w = now - st.pendingSinceMillis();
                                a.waitSum += w;
                                a.waits++;
                                a.maxWait = Math.max(a.maxWait, w);
                            }
                        });
        int round = roundsStarted.merge(id, 1, Integer::sum);
        Round rd = new Round(plan, now + plan.freshness().toMillis());
        List<Split> splits = new ArrayList<>();
        for (BucketWork w : plan.buckets()) {
            Split s = new Split(rd, w, splitDuration(specById.get(id), round, w));
            splits.add(s);
        }
        Collections.shuffle(splits, random);
        rd.total = splits.size();
        rounds.put(id, rd);
        queue.addAll(splits);
        return true;
    }

    private long splitDuration(SimTable t, int round, BucketWork w) {
        if (t.fixedModel()) {
            return (round == 1 ? t.firstRound() : t.laterRounds()).toMillis();
        }
        long records = w.endOffset() - w.startOffset();
        return config.splitOverhead().toMillis()
                + (long) Math.ceil(records * 1000.0 / config.readerRecordsPerSecond());
    }

    private void finishSplits(long now) {
        for (Reader r : readers) {
            Split s = r.split;
            if (s != null && s.endMillis <= now) {
                r.split = null;
                s.round.ends.put(s.work.bucket(), s.work.endOffset());
                s.round.finished++;
                maybeCommit(s.round);
            }
        }
    }

    /** T13: at the ceiling, unstarted splits are dropped and started log splits cut. */
    private void forceFinish(long now) {
        for (Round rd : List.copyOf(rounds.values())) {
            if (rd.forceFinished || rd.deadlineMillis > now) {
                continue;
            }
            rd.forceFinished = true;
            queue.removeIf(s -> s.round == rd);
            for (Reader r : readers) {
                Split s = r.split;
                if (s != null && s.round == rd && s.work.kind() == BucketWork.Kind.LOG) {
                    double done = (double) (now - s.startMillis) / Math.max(1, s.durationMillis);
                    long cut =
                            s.work.startOffset()
                                    + (long) ((s.work.endOffset() - s.work.startOffset()) * done);
                    if (cut > s.work.startOffset()) {
                        rd.ends.put(s.work.bucket(), cut);
                    }
                    r.split = null;
                    rd.finished++;
                }
            }
            rd.total = rd.started;
            maybeCommit(rd);
        }
    }

    private void maybeCommit(Round rd) {
        if (rd.finished < rd.total) {
            return;
        }
        long id = rd.plan.tableId();
        rounds.remove(id);
        if (rd.ends.isEmpty()) {
            core.tiering()
                    .heartbeat(
                            new HeartbeatRequest(
                                    JOB,
                                    null,
                                    List.of(),
                                    List.of(
                                            rd.forceFinished
                                                    ? RoundReport.forceFinished(id, rd.plan.epoch())
                                                    : RoundReport.finished(id, rd.plan.epoch())),
                                    false));
        } else {
            core.tiering()
                    .commit(
                            CommitRequest.of(
                                    JOB,
                                    id,
                                    rd.plan.epoch(),
                                    rd.plan.roundId(),
                                    rd.ends,
                                    List.of(),
                                    RoundStats.EMPTY,
                                    rd.forceFinished));
        }
        loop.runReady();
        event(id, SimResult.Kind.COMMITTED);
        Acc a = acc.get(id);
        if (measuring(clock.currentTimeMillis())) {
            a.rounds++;
            if (rd.forceFinished) {
                a.forceFinished++;
            }
        }
        observeStates();
    }

    private List<TableAttempt> inFlight() {
        List<TableAttempt> out = new ArrayList<>(rounds.size());
        for (Round rd : rounds.values()) {
            out.add(new TableAttempt(rd.plan.tableId(), rd.plan.epoch()));
        }
        return out;
    }

    private void heartbeat() {
        core.tiering().heartbeat(new HeartbeatRequest(JOB, null, inFlight(), List.of(), false));
        loop.runReady();
    }

    /** Lake lag = now - write time of the oldest record not yet tiered, over all buckets. */
    private void sample(long now) {
        if (!measuring(now)) {
            return;
        }
        for (Map.Entry<Long, SimTable> e : specById.entrySet()) {
            long id = e.getKey();
            double perMs = e.getValue().recordsPerSecondPerBucket() / 1000.0;
            Map<Integer, Long> tiered =
                    core.tiering()
                            .record(id)
                            .<Map<Integer, Long>>map(r -> r.tieredOffsets())
                            .orElse(Map.of());
            long created = createdAt.get(id);
            long oldest = Long.MAX_VALUE;
            for (int b = 0; b < e.getValue().buckets(); b++) {
                long off = tiered.getOrDefault(b, 0L);
                oldest = Math.min(oldest, created + (long) (off / perMs));
            }
            long lag = Math.max(0, now - oldest);
            Acc a = acc.get(id);
            a.lagSum += lag;
            a.samples++;
            a.peakLag = Math.max(a.peakLag, lag);
        }
    }

    // ------------------------------------------------------------------ model pieces

    private final class Buckets implements BucketStateSource {
        @Override
        public List<BucketState> bucketStates(long tableId, TablePath path, int bucketCount) {
            SimTable s = specById.get(tableId);
            long age = clock.currentTimeMillis() - createdAt.getOrDefault(tableId, 0L);
            long end = (long) (age * s.recordsPerSecondPerBucket() / 1000.0);
            List<BucketState> out = new ArrayList<>(bucketCount);
            for (int b = 0; b < bucketCount; b++) {
                KvSnapshotRef snap = null;
                if (s.primaryKey()) {
                    // A KV snapshot every minute.
                    long snapAge = age - age % 60_000;
                    long off = (long) (snapAge * s.recordsPerSecondPerBucket() / 1000.0);
                    snap = off > 0 ? new KvSnapshotRef(snapAge / 60_000, off) : null;
                }
                out.add(new BucketState(b, end, snap));
            }
            return out;
        }
    }

    private static final class InstantLake implements LakeCommitStep {
        private long next = 1;

        @Override
        public LakeCommitResult commit(
                TablePath path, List<byte[]> writeResults, TieringSnapshotProperties properties) {
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

    private static final class Reader {
        Split split;
    }

    private static final class Round {
        final RoundPlan plan;
        final long deadlineMillis;
        final TreeMap<Integer, Long> ends = new TreeMap<>();
        int total;
        int started;
        int finished;
        boolean forceFinished;

        Round(RoundPlan plan, long deadlineMillis) {
            this.plan = plan;
            this.deadlineMillis = deadlineMillis;
        }
    }

    private static final class Split {
        final Round round;
        final BucketWork work;
        final long durationMillis;
        long startMillis;
        long endMillis;
        Reader reader;

        Split(Round round, BucketWork work, long durationMillis) {
            this.round = round;
            this.work = work;
            this.durationMillis = durationMillis;
        }
    }

    private static final class Acc {
        long rounds;
        long forceFinished;
        long lagSum;
        long samples;
        long peakLag;
        long waitSum;
        long waits;
        long maxWait;
    }
}

package dev.tributary.planner.sim;

import dev.tributary.coordinator.CoordinatorCore;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import dev.tributary.tiering.api.RoundStats;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The modeled tiering job. It follows the real job's scheduling rules (the enumerator's {@code
 * TieringScheduler}) and talks to the coordinator through the same calls the gRPC service makes:
 *
 * <ul>
 *   <li>registers with its group and parallelism, heartbeats every interval with its in-flight
 *       attempts, and force-finishes the rounds the coordinator names;
 *   <li>asks for a table whenever a reader is idle and no split is queued: a long poll the
 *       coordinator answers as soon as a table of its group becomes pending (T3); after an empty
 *       answer it waits the job's minimum request interval;
 *   <li>cuts a round into one split per bucket with data, log-table buckets above {@code
 *       split-max-records} into several (T5), shuffles them (T2), and serves queued splits of all
 *       granted tables in grant order, one split per reader (read pipelining);
 *   <li>force-finishes a round one freshness after it was granted: queued splits are skipped,
 *       running log splits stop where they are, snapshot splits run on (T13, T14);
 *   <li>commits a round as soon as its last split ended, over the gap-free prefix of each bucket,
 *       and reports a round that moved nothing instead (T27).
 * </ul>
 *
 * What it models rather than runs is only the reading: a split takes the time the {@link
 * TableModel} gives it, and a commit's lake I/O the job's commit time.
 */
final class SimulatedJob {
    /** The job's {@code tiering.request.max-wait} default; the coordinator caps it. */
    static final long REQUEST_MAX_WAIT_MILLIS = 5_000;

    /** The job's {@code tiering.request.min-interval} default. */
    static final long REQUEST_MIN_INTERVAL_MILLIS = 200;

    /** What the simulator records of the job's rounds. */
    interface Listener {
        void granted(SimulatedJob job, Round round, int idleReaders);

        void ended(SimulatedJob job, Round round, boolean committed);

        void splitRan(SimulatedJob job, Round round, long fromMillis, long toMillis);
    }

    final JobLoad load;
    private final CoordinatorCore core;
    private final VirtualLoop loop;
    private final Map<Long, TableModel> tables;
    private final Random random;
    private final Listener listener;
    private final long heartbeatMillis;

    private final Split[] readers;
    private final ArrayDeque<Split> queue = new ArrayDeque<>();
    private final Map<Long, Round> rounds = new LinkedHashMap<>();
    private final Map<Long, Integer> roundsGranted = new TreeMap<>();
    private boolean requestOutstanding;
    private boolean lastRequestEmpty;
    private long lastRequestMillis;
    private long nextHeartbeatMillis;

    SimulatedJob(
            JobLoad load,
            CoordinatorCore core,
            VirtualLoop loop,
            Map<Long, TableModel> tables,
            long seed,
            Listener listener) {
        this.load = load;
        this.core = core;
        this.loop = loop;
        this.tables = tables;
        this.random = new Random(seed);
        this.listener = listener;
        this.readers = new Split[load.parallelism()];
        this.heartbeatMillis = core.tiering().config().heartbeatInterval().toMillis();
    }

    void start() {
        core.tiering().registerJob(load.id(), load.group(), load.parallelism());
        nextHeartbeatMillis = loop.nowMillis();
        maybeRequestTable();
    }

    /** The next time this job has something to do by itself, or {@code Long.MAX_VALUE}. */
    long nextEventMillis() {
        long next = nextHeartbeatMillis;
        for (Split s : readers) {
            if (s != null) {
                next = Math.min(next, s.endMillis);
            }
        }
        for (Round r : rounds.values()) {
            if (!r.committing && !r.forceFinished) {
                next = Math.min(next, r.deadlineMillis);
            }
        }
        if (!requestOutstanding && lastRequestEmpty && queue.isEmpty() && idleReaders() > 0) {
            next = Math.min(next, lastRequestMillis + REQUEST_MIN_INTERVAL_MILLIS);
        }
        return next;
    }

    /** Does what is due at the loop's current time. */
    void step() {
        long now = loop.nowMillis();
        for (int i = 0; i < readers.length; i++) {
            Split s = readers[i];
            if (s != null && s.endMillis <= now) {
                readers[i] = null;
                s.reached = s.work.kind() == BucketPlan.Kind.SNAPSHOT ? s.work.endOffset() : s.to;
                endSplit(s, now);
            }
        }
        for (Round r : new ArrayList<>(rounds.values())) {
            if (!r.committing && !r.forceFinished && r.deadlineMillis <= now) {
                forceFinish(r, now);
            }
        }
        if (now >= nextHeartbeatMillis) {
            nextHeartbeatMillis = now + heartbeatMillis;
            heartbeat();
        }
        assign(now);
        maybeRequestTable();
    }

    int parallelism() {
        return readers.length;
    }

    private int idleReaders() {
        int n = 0;
        for (Split s : readers) {
            if (s == null) {
                n++;
            }
        }
        return n;
    }

    // ---------------------------------------------------------------- coordinator calls

    private void heartbeat() {
        List<Attempt> inFlight = new ArrayList<>();
        for (Round r : rounds.values()) {
            inFlight.add(new Attempt(r.plan.tableId(), r.plan.epoch()));
        }
        HeartbeatResult resp =
                core.tiering()
                        .heartbeat(
                                new HeartbeatRequest(
                                        load.id(), load.group(), inFlight, List.of(), false));
        for (Attempt a : resp.forceFinish()) {
            Round r = rounds.get(a.tableId());
            if (r != null && r.plan.epoch() == a.epoch() && !r.committing && !r.forceFinished) {
                forceFinish(r, loop.nowMillis());
            }
        }
    }

    private void maybeRequestTable() {
        if (requestOutstanding || !queue.isEmpty() || idleReaders() == 0) {
            return;
        }
        long now = loop.nowMillis();
        if (lastRequestEmpty && now - lastRequestMillis < REQUEST_MIN_INTERVAL_MILLIS) {
            return;
        }
        requestOutstanding = true;
        lastRequestMillis = now;
        CompletableFuture<HeartbeatResult> answer =
                core.tiering()
                        .heartbeatAsync(
                                new HeartbeatRequest(
                                        load.id(),
                                        load.group(),
                                        List.of(),
                                        List.of(),
                                        true,
                                        REQUEST_MAX_WAIT_MILLIS));
        // answered on the loop after the coordinator's own call returned, as over gRPC
        answer.whenComplete((r, e) -> loop.execute(() -> onAnswer(r)));
    }

    private void onAnswer(HeartbeatResult r) {
        requestOutstanding = false;
        RoundPlan plan = r == null ? null : r.plan();
        if (plan == null) {
            lastRequestEmpty = true;
        } else {
            lastRequestEmpty = false;
            grant(plan);
        }
        assign(loop.nowMillis());
        maybeRequestTable();
    }

    // ---------------------------------------------------------------- rounds and splits

    private void grant(RoundPlan plan) {
        long now = loop.nowMillis();
        TableModel table = tables.get(plan.tableId());
        int ordinal = roundsGranted.merge(plan.tableId(), 1, Integer::sum);
        double sigma = load.reader().jitter();
        double factor =
                sigma == 0 ? 1 : Math.exp(sigma * random.nextGaussian() - sigma * sigma / 2);
        Round round =
                new Round(plan, table, ordinal, now, now + plan.freshness().toMillis(), factor);
        for (BucketPlan w : plan.buckets()) {
            if (w.kind() == BucketPlan.Kind.SNAPSHOT) {
                round.splits.add(split(round, w, w.startOffset(), w.endOffset()));
                continue;
            }
            long pending = w.endOffset() - w.startOffset();
            if (pending <= 0) {
                continue;
            }
            long max = load.reader().splitMaxRecords();
            long pieces = table.load.primaryKey() ? 1 : 1 + (pending - 1) / max;
            long from = w.startOffset();
            for (long i = 0; i < pieces; i++) {
                long to = w.startOffset() + (pending * (i + 1)) / pieces;
                round.splits.add(split(round, w, from, to));
                from = to;
            }
        }
        Collections.shuffle(round.splits, random);
        rounds.put(plan.tableId(), round);
        listener.granted(this, round, idleReaders());
        if (round.splits.isEmpty()) {
            finishReading(round);
        } else {
            queue.addAll(round.splits);
        }
    }

    private Split split(Round round, BucketPlan w, long from, long to) {
        long millis =
                Math.max(
                        1,
                        Math.round(
                                round.table.splitMillis(load.reader(), w, from, to, round.ordinal)
                                        * round.jitter));
        return new Split(round, w, from, to, millis, round.table.overheadMillis(load.reader()));
    }

    private void assign(long now) {
        for (int i = 0; i < readers.length && !queue.isEmpty(); i++) {
            if (readers[i] == null) {
                Split s = queue.poll();
                s.startMillis = now;
                s.endMillis = now + s.durationMillis;
                readers[i] = s;
            }
        }
    }

    private void endSplit(Split s, long now) {
        s.ended = true;
        s.actualEndMillis = now;
        if (s.startMillis >= 0) {
            listener.splitRan(this, s.round, s.startMillis, now);
        }
        Round r = s.round;
        r.endedSplits++;
        if (r.endedSplits == r.splits.size()) {
            finishReading(r);
        }
    }

    /** T13, T14: skip what has not started, cut running log splits, let snapshot splits run. */
    private void forceFinish(Round r, long now) {
        r.forceFinished = true;
        for (Iterator<Split> it = queue.iterator(); it.hasNext(); ) {
            Split s = it.next();
            if (s.round == r) {
                it.remove();
                s.skipped = true;
                s.reached = s.from;
                endSplit(s, now);
            }
        }
        for (int i = 0; i < readers.length; i++) {
            Split s = readers[i];
            if (s != null && s.round == r && s.work.kind() == BucketPlan.Kind.LOG) {
                readers[i] = null;
                long data = Math.max(1, s.durationMillis - s.overheadMillis);
                double done =
                        Math.min(
                                1.0,
                                Math.max(0, now - s.startMillis - s.overheadMillis)
                                        / (double) data);
                s.reached = s.from + (long) Math.floor((s.to - s.from) * done);
                endSplit(s, now);
            }
        }
    }

    /** The real job's merge: a bucket advances over its gap-free prefix of ended ranges. */
    private void finishReading(Round r) {
        r.committing = true;
        Map<Integer, List<Split>> byBucket = new TreeMap<>();
        for (Split s : r.splits) {
            byBucket.computeIfAbsent(s.work.bucket(), b -> new ArrayList<>()).add(s);
        }
        Map<Integer, Long> offsets = new TreeMap<>();
        long records = 0;
        long bytes = 0;
        for (Map.Entry<Integer, List<Split>> e : byBucket.entrySet()) {
            List<Split> chain = e.getValue();
            chain.sort(Comparator.comparingLong(s -> s.from));
            long reached = chain.get(0).from;
            boolean advanced = false;
            for (Split s : chain) {
                if (s.skipped || s.from != reached) {
                    break;
                }
                if (s.work.kind() == BucketPlan.Kind.SNAPSHOT) {
                    reached = s.reached;
                    advanced = true;
                    bytes += r.table.splitBytes(s.work, s.from, s.to);
                    break;
                }
                if (s.reached > s.from) {
                    records += s.reached - s.from;
                    bytes += r.table.splitBytes(s.work, s.from, s.reached);
                    reached = s.reached;
                    advanced = true;
                }
                if (s.reached < s.to) {
                    break;
                }
            }
            if (advanced) {
                offsets.put(e.getKey(), reached);
            }
        }
        long tableId = r.plan.tableId();
        if (offsets.isEmpty()) {
            RoundReport report =
                    r.forceFinished
                            ? RoundReport.forceFinished(tableId, r.plan.epoch())
                            : RoundReport.finished(tableId, r.plan.epoch());
            core.tiering()
                    .heartbeat(
                            new HeartbeatRequest(
                                    load.id(), load.group(), List.of(), List.of(report), false));
            ended(r, false);
            return;
        }
        RoundCommit request =
                RoundCommit.of(
                        load.id(),
                        tableId,
                        r.plan.epoch(),
                        r.plan.roundId(),
                        offsets,
                        List.of(),
                        new RoundStats(records, bytes),
                        r.forceFinished);
        CompletableFuture<Long>[] commit = new CompletableFuture[1];
        Duration commitTime =
                r.table.load.commitTime() != null
                        ? r.table.load.commitTime()
                        : load.reader().commitTime();
        loop.withLakeLatency(
                Math.round(commitTime.toMillis() * r.jitter),
                () -> commit[0] = core.tiering().commit(request));
        commit[0].whenComplete((id, e) -> loop.execute(() -> ended(r, e == null)));
    }

    private void ended(Round r, boolean committed) {
        if (rounds.get(r.plan.tableId()) == r) {
            rounds.remove(r.plan.tableId());
        }
        listener.ended(this, r, committed);
        maybeRequestTable();
    }

    /** One table round as the job works it. */
    static final class Round {
        final RoundPlan plan;
        final TableModel table;
        final int ordinal;
        final long grantedMillis;
        final long deadlineMillis;

        /**
         * This round's draw of the reader model's jitter: its splits and commit take that much
         * longer.
         */
        final double jitter;

        final List<Split> splits = new ArrayList<>();
        int endedSplits;
        boolean forceFinished;
        boolean committing;

        Round(
                RoundPlan plan,
                TableModel table,
                int ordinal,
                long grantedMillis,
                long deadline,
                double jitter) {
            this.plan = plan;
            this.table = table;
            this.ordinal = ordinal;
            this.grantedMillis = grantedMillis;
            this.deadlineMillis = deadline;
            this.jitter = jitter;
        }

        long skippedSplits() {
            return splits.stream().filter(s -> s.skipped).count();
        }
    }

    /** One split: a bucket's range (or its KV snapshot) read by one reader. */
    static final class Split {
        final Round round;
        final BucketPlan work;
        final long from;
        final long to;
        final long durationMillis;
        final long overheadMillis;
        long startMillis = -1;
        long endMillis;
        long actualEndMillis;
        long reached;
        boolean ended;
        boolean skipped;

        Split(
                Round round,
                BucketPlan work,
                long from,
                long to,
                long durationMillis,
                long overhead) {
            this.round = round;
            this.work = work;
            this.from = from;
            this.to = to;
            this.durationMillis = durationMillis;
            this.overheadMillis = Math.min(overhead, durationMillis);
        }
    }
}

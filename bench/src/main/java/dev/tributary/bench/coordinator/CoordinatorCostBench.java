package dev.tributary.bench.coordinator;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.Clock;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.CoordinatorCore;
import dev.tributary.coordinator.runtime.ManualLoop;
import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.BucketStateSource;
import dev.tributary.coordinator.spi.LakeCommitStep;
import dev.tributary.coordinator.store.InMemoryMetadataStore;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.coordinator.tiering.TieringManager;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The coordinator's own cost with 100,000 lake tables registered and 1,000 rounds in flight: time
 * to handle a heartbeat (listing a job's in-flight rounds) and a table request, p50/p99. Measured
 * twice: on the logic alone (what the event loop spends per call) and through the threaded {@link
 * Coordinator} facade (caller thread -> event loop -> caller, what an RPC handler waits).
 *
 * <p>Usage: {@code CoordinatorCostBench [tables] [inFlight] [jobs] [samples] [partitions] [active]
 * [buckets]} (defaults 100000 1000 10 20000 0 1 8). With {@code partitions > 0} the tables are
 * partitioned and the partitions are spread over them (issue 12: 10,000 partitions over 100
 * tables); the {@code active} newest partitions of each table get writes, the others are tiered, as
 * with daily partitions; each partition has {@code buckets} buckets. Then only the logic path is
 * measured, once unpartitioned with {@code active x buckets} buckets per table (the same number of
 * active buckets) and once partitioned, in the same run, so the figures compare.
 */
public final class CoordinatorCostBench {
    private static final Clock WALL = Clock.system();

    private CoordinatorCostBench() {}

    public static void main(String[] args) throws Exception {
        int tables = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int inFlight = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int jobs = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int samples = args.length > 3 ? Integer.parseInt(args[3]) : 20_000;
        System.out.printf(
                Locale.ROOT,
                "tables=%d inFlight=%d jobs=%d (heartbeat lists %d rounds) samples=%d%n",
                tables,
                inFlight,
                jobs,
                inFlight / jobs,
                samples);
        int partitions = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        int active = args.length > 5 ? Integer.parseInt(args[5]) : 1;
        int buckets = args.length > 6 ? Integer.parseInt(args[6]) : 8;
        if (partitions > 0) {
            System.out.printf(
                    Locale.ROOT,
                    "%n== unpartitioned baseline: %d tables x %d buckets ==%n",
                    tables,
                    active * buckets);
            logic(tables, inFlight, jobs, samples, 0, 0, active * buckets, true);
            System.out.printf(
                    Locale.ROOT,
                    "%n== partitioned: %d partitions x %d buckets over %d tables, %d active per"
                            + " table ==%n",
                    partitions,
                    buckets,
                    tables,
                    active);
            logic(tables, inFlight, jobs, samples, partitions, active, buckets, true);
            return;
        }
        logic(tables, inFlight, jobs, samples, 0, 0, 8, false);
        facade(tables, inFlight, jobs, samples);
    }

    /**
     * Partitioned tables: the newest partition of each table holds 1,000 records per bucket that
     * are not tiered and is reported changed on every plan; older partitions are tiered (end offset
     * 0 here, so a plan finds nothing in them).
     */
    private static final class PartitionedBuckets implements BucketStateSource {
        final java.util.Map<Long, java.util.Set<Long>> active = new java.util.HashMap<>();

        @Override
        public List<BucketState> bucketStates(long tableId, TablePath path, int bucketCount) {
            throw new UnsupportedOperationException("partitioned tables only");
        }

        @Override
        public List<BucketState> partitionBucketStates(
                long tableId, long partitionId, TablePath path, int bucketCount) {
            long end = active.get(tableId).contains(partitionId) ? 1_000 : 0;
            List<BucketState> out = new ArrayList<>(bucketCount);
            for (int b = 0; b < bucketCount; b++) {
                out.add(BucketState.log(b, end));
            }
            return out;
        }

        @Override
        public java.util.Set<Long> drainChangedPartitions(long tableId) {
            return active.get(tableId);
        }
    }

    /** 8 buckets per table, every bucket 1,000 records ahead of nothing. */
    private static final class Buckets implements BucketStateSource {
        @Override
        public List<BucketState> bucketStates(long tableId, TablePath path, int bucketCount) {
            List<BucketState> out = new ArrayList<>(bucketCount);
            for (int b = 0; b < bucketCount; b++) {
                out.add(BucketState.log(b, 1_000));
            }
            return out;
        }
    }

    private static final class NoLake implements LakeCommitStep {
        @Override
        public LakeCommitResult commit(
                TablePath path,
                List<byte[]> results,
                TieringSnapshotProperties properties,
                TieredRound base) {
            throw new UnsupportedOperationException("the cost bench does not commit");
        }

        @Override
        public void abort(TablePath path, List<byte[]> results) {}

        @Override
        public List<String> deleteOrphanFiles(TablePath path, OrphanPolicy policy) {
            return List.of();
        }

        @Override
        public Optional<LakeSnapshot> latestTieringSnapshot(TablePath path, long tableId) {
            return Optional.empty();
        }
    }

    private static TableDescriptor descriptor(String freshness) {
        return descriptor(freshness, false, 8);
    }

    private static TableDescriptor descriptor(
            String freshness, boolean partitioned, int bucketCount) {
        TableDescriptor.Builder b =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT())
                                        .column("v", DataTypes.STRING())
                                        .column("dt", DataTypes.STRING())
                                        .build())
                        .bucketCount(bucketCount)
                        .bucketKeys("id")
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", freshness);
        if (partitioned) {
            b.partitionKeys("dt");
        }
        return b.build();
    }

    /** Keeps {@code inFlight} rounds spread over the jobs; replaces finished ones. */
    private static final class Jobs {
        final List<ArrayDeque<Attempt>> held = new ArrayList<>();

        Jobs(int jobs) {
            for (int i = 0; i < jobs; i++) {
                held.add(new ArrayDeque<>());
            }
        }

        static String id(int j) {
            return "job-" + j;
        }
    }

    /**
     * @param cycle few tables: the clock moves 1/50 of the freshness per sample (untimed), so a
     *     finished table is pending again after 50 samples and the queue never runs dry; needs
     *     {@code tables > 50 + inFlight}, {@code inFlight < 50} and a heartbeat of each job within
     *     the 8 s timeout ({@code jobs <= 6})
     */
    private static void logic(
            int tables,
            int inFlight,
            int jobs,
            int samples,
            int partitions,
            int active,
            int buckets,
            boolean cycle) {
        ManualClock clock = new ManualClock(1_000_000_000_000L);
        ManualLoop loop = new ManualLoop(clock);
        PartitionedBuckets partitioned = new PartitionedBuckets();
        CoordinatorCore core =
                new CoordinatorCore(
                        TieringConfig.defaults(),
                        clock,
                        loop,
                        loop,
                        loop,
                        new InMemoryMetadataStore(),
                        partitions > 0 ? partitioned : new Buckets(),
                        new NoLake());
        core.createDatabase("db", null, false);
        long t0 = WALL.nanoTime();
        for (int i = 0; i < tables; i++) {
            TablePath path = TablePath.of("db", "t" + i);
            long tableId =
                    core.createTable(path, descriptor("1min", partitions > 0, buckets), false)
                            .tableId();
            java.util.Set<Long> newest = new java.util.HashSet<>();
            int perTable = partitions / tables + (i < partitions % tables ? 1 : 0);
            for (int d = 0; d < perTable; d++) {
                long id =
                        core.createPartition(
                                        path,
                                        dev.tributary.common.id.PartitionSpec.of(
                                                "dt", String.format(Locale.ROOT, "d%05d", d)),
                                        false)
                                .partition()
                                .partitionId();
                if (d >= perTable - active) {
                    newest.add(id);
                }
            }
            partitioned.active.put(tableId, java.util.Set.copyOf(newest));
        }
        loop.advance(Duration.ofMinutes(1));
        System.out.printf(
                Locale.ROOT,
                "%nlogic only: registered %d tables in %d ms, %d pending%n",
                tables,
                (WALL.nanoTime() - t0) / 1_000_000,
                core.tiering().status().pendingCount());
        TieringManager m = core.tiering();
        Jobs js = new Jobs(jobs);
        for (int i = 0; i < inFlight; i++) {
            int j = i % jobs;
            RoundPlan p =
                    m.heartbeat(new HeartbeatRequest(Jobs.id(j), null, List.of(), List.of(), true))
                            .plan();
            js.held.get(j).add(new Attempt(p.tableId(), p.epoch()));
        }
        long[] hb = new long[samples];
        long[] req = new long[samples];
        for (int i = 0; i < samples; i++) {
            int j = i % jobs;
            ArrayDeque<Attempt> mine = js.held.get(j);
            List<Attempt> attempts = List.copyOf(mine);
            long a = WALL.nanoTime();
            HeartbeatResult r =
                    m.heartbeat(new HeartbeatRequest(Jobs.id(j), null, attempts, List.of(), false));
            hb[i] = WALL.nanoTime() - a;
            check(r, attempts.size());
            // Finish the oldest round (not timed), then request a replacement (timed).
            Attempt done = mine.poll();
            m.heartbeat(
                    new HeartbeatRequest(
                            Jobs.id(j),
                            null,
                            List.of(),
                            List.of(RoundReport.finished(done.tableId(), done.epoch())),
                            false));
            if (cycle) {
                clock.advanceMillis(Duration.ofMinutes(1).toMillis() / 50);
                loop.runReady();
            }
            long b = WALL.nanoTime();
            RoundPlan p =
                    m.heartbeat(new HeartbeatRequest(Jobs.id(j), null, List.of(), List.of(), true))
                            .plan();
            req[i] = WALL.nanoTime() - b;
            if (p == null) {
                throw new IllegalStateException("no pending table at sample " + i);
            }
            mine.add(new Attempt(p.tableId(), p.epoch()));
            if (!cycle && i % 1000 == 0) {
                clock.advanceMillis(1); // time moves a little; no timeouts (sweep needs 8 s)
                loop.runReady();
            }
        }
        report("heartbeat", hb);
        report("table request", req);
    }

    private static void check(HeartbeatResult r, int n) {
        if (r.acks().size() != n || r.acks().stream().anyMatch(a -> a.fenced())) {
            throw new IllegalStateException("unexpected heartbeat answer: " + r.acks());
        }
    }

    private static <T> T join(Supplier<CompletableFuture<T>> call) {
        return call.get().join();
    }

    private static void facade(int tables, int inFlight, int jobs, int samples) throws Exception {
        InMemoryMetadataStore store = new InMemoryMetadataStore();
        try (Coordinator c =
                Coordinator.start(new Configuration(), WALL, store, new Buckets(), new NoLake())) {
            c.createDatabase("db", null, false).join();
            long t0 = WALL.nanoTime();
            List<CompletableFuture<?>> fs = new ArrayList<>();
            for (int i = 0; i < tables; i++) {
                fs.add(c.createTable(TablePath.of("db", "t" + i), descriptor("1ms"), false));
                if (fs.size() == 1000) {
                    CompletableFuture.allOf(fs.toArray(new CompletableFuture[0])).join();
                    fs.clear();
                }
            }
            CompletableFuture.allOf(fs.toArray(new CompletableFuture[0])).join();
            int pending = 0;
            while (pending < tables) {
                pending = c.status().join().pendingCount();
            }
            System.out.printf(
                    Locale.ROOT,
                    "%nthrough the Coordinator facade (event-loop thread + futures): registered %d tables in %d ms%n",
                    tables,
                    (WALL.nanoTime() - t0) / 1_000_000);
            Jobs js = new Jobs(jobs);
            for (int i = 0; i < inFlight; i++) {
                int j = i % jobs;
                RoundPlan p =
                        join(() ->
                                        c.heartbeat(
                                                new HeartbeatRequest(
                                                        Jobs.id(j),
                                                        null,
                                                        List.of(),
                                                        List.of(),
                                                        true)))
                                .plan();
                js.held.get(j).add(new Attempt(p.tableId(), p.epoch()));
            }
            long[] hb = new long[samples];
            long[] req = new long[samples];
            for (int i = 0; i < samples; i++) {
                int j = i % jobs;
                ArrayDeque<Attempt> mine = js.held.get(j);
                List<Attempt> attempts = List.copyOf(mine);
                long a = WALL.nanoTime();
                HeartbeatResult r =
                        join(
                                () ->
                                        c.heartbeat(
                                                new HeartbeatRequest(
                                                        Jobs.id(j),
                                                        null,
                                                        attempts,
                                                        List.of(),
                                                        false)));
                hb[i] = WALL.nanoTime() - a;
                check(r, attempts.size());
                Attempt done = mine.poll();
                join(
                        () ->
                                c.heartbeat(
                                        new HeartbeatRequest(
                                                Jobs.id(j),
                                                null,
                                                List.of(),
                                                List.of(
                                                        RoundReport.finished(
                                                                done.tableId(), done.epoch())),
                                                false)));
                long b = WALL.nanoTime();
                RoundPlan p =
                        join(() ->
                                        c.heartbeat(
                                                new HeartbeatRequest(
                                                        Jobs.id(j),
                                                        null,
                                                        List.of(),
                                                        List.of(),
                                                        true)))
                                .plan();
                req[i] = WALL.nanoTime() - b;
                mine.add(new Attempt(p.tableId(), p.epoch()));
            }
            report("heartbeat", hb);
            report("table request", req);
        }
    }

    private static void report(String what, long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        System.out.printf(
                Locale.ROOT,
                "  %-14s p50 %7.1f us   p99 %7.1f us   max %8.1f us   (n=%d)%n",
                what,
                s[s.length / 2] / 1000.0,
                s[(int) (s.length * 0.99)] / 1000.0,
                s[s.length - 1] / 1000.0,
                s.length);
    }
}

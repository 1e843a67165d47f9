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
import dev.tributary.coordinator.tiering.HeartbeatRequest;
import dev.tributary.coordinator.tiering.HeartbeatResponse;
import dev.tributary.coordinator.tiering.RoundPlan;
import dev.tributary.coordinator.tiering.RoundReport;
import dev.tributary.coordinator.tiering.TableAttempt;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.coordinator.tiering.TieringManager;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
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
 * <p>Usage: {@code CoordinatorCostBench [tables] [inFlight] [jobs] [samples]} (defaults 100000 1000
 * 10 20000).
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
        logic(tables, inFlight, jobs, samples);
        facade(tables, inFlight, jobs, samples);
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
                TablePath path, List<byte[]> results, TieringSnapshotProperties properties) {
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
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT())
                                .column("v", DataTypes.STRING())
                                .build())
                .bucketCount(8)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", freshness)
                .build();
    }

    /** Keeps {@code inFlight} rounds spread over the jobs; replaces finished ones. */
    private static final class Jobs {
        final List<ArrayDeque<TableAttempt>> held = new ArrayList<>();

        Jobs(int jobs) {
            for (int i = 0; i < jobs; i++) {
                held.add(new ArrayDeque<>());
            }
        }

        static String id(int j) {
            return "job-" + j;
        }
    }

    private static void logic(int tables, int inFlight, int jobs, int samples) {
        ManualClock clock = new ManualClock(1_000_000_000_000L);
        ManualLoop loop = new ManualLoop(clock);
        CoordinatorCore core =
                new CoordinatorCore(
                        TieringConfig.defaults(),
                        clock,
                        loop,
                        loop,
                        loop,
                        new InMemoryMetadataStore(),
                        new Buckets(),
                        new NoLake());
        core.createDatabase("db", null, false);
        long t0 = WALL.nanoTime();
        for (int i = 0; i < tables; i++) {
            core.createTable(TablePath.of("db", "t" + i), descriptor("1min"), false);
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
            js.held.get(j).add(new TableAttempt(p.tableId(), p.epoch()));
        }
        long[] hb = new long[samples];
        long[] req = new long[samples];
        for (int i = 0; i < samples; i++) {
            int j = i % jobs;
            ArrayDeque<TableAttempt> mine = js.held.get(j);
            List<TableAttempt> attempts = List.copyOf(mine);
            long a = WALL.nanoTime();
            HeartbeatResponse r =
                    m.heartbeat(new HeartbeatRequest(Jobs.id(j), null, attempts, List.of(), false));
            hb[i] = WALL.nanoTime() - a;
            check(r, attempts.size());
            // Finish the oldest round (not timed), then request a replacement (timed).
            TableAttempt done = mine.poll();
            m.heartbeat(
                    new HeartbeatRequest(
                            Jobs.id(j),
                            null,
                            List.of(),
                            List.of(RoundReport.finished(done.tableId(), done.epoch())),
                            false));
            long b = WALL.nanoTime();
            RoundPlan p =
                    m.heartbeat(new HeartbeatRequest(Jobs.id(j), null, List.of(), List.of(), true))
                            .plan();
            req[i] = WALL.nanoTime() - b;
            mine.add(new TableAttempt(p.tableId(), p.epoch()));
            if (i % 1000 == 0) {
                clock.advanceMillis(1); // time moves a little; no timeouts (sweep needs 8 s)
                loop.runReady();
            }
        }
        report("heartbeat", hb);
        report("table request", req);
    }

    private static void check(HeartbeatResponse r, int n) {
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
                js.held.get(j).add(new TableAttempt(p.tableId(), p.epoch()));
            }
            long[] hb = new long[samples];
            long[] req = new long[samples];
            for (int i = 0; i < samples; i++) {
                int j = i % jobs;
                ArrayDeque<TableAttempt> mine = js.held.get(j);
                List<TableAttempt> attempts = List.copyOf(mine);
                long a = WALL.nanoTime();
                HeartbeatResponse r =
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
                TableAttempt done = mine.poll();
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
                mine.add(new TableAttempt(p.tableId(), p.epoch()));
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

package dev.tributary.bench.cluster;

import dev.tributary.bench.cluster.MetadataBenchData.Percentiles;
import dev.tributary.cluster.ClusterConfig;
import dev.tributary.cluster.RaftMetadataStore;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.store.FileMetadataStore;
import dev.tributary.coordinator.store.MetadataStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Latency of coordinator metadata operations, single server against cluster, in one run (T49):
 * {@link FileMetadataStore} (the single server's fsync'd log) against {@link RaftMetadataStore}
 * with 1 voter and with 3 voters (three Ratis peers in this JVM over loopback gRPC, every call on
 * the leader). Operations: {@code putTable} (what CREATE TABLE stores), {@code putTieringRecord} (a
 * round's commit record, on one of {@code --tiering-tables} tables) and {@code load()} (on the Raft
 * store a linearizable read: a read-index round with the followers). Each operation runs {@code
 * --warmup} untimed then {@code --ops} timed calls on one thread, then {@code --ops} calls spread
 * over {@code --threads} threads (Raft puts concurrent entries into one fsync; the file store
 * serializes its callers on one monitor, one fsync each). Reported: p50/p99/max per call, ops/s
 * (calls / wall time of the timed part) and each as a ratio to the file store's figure of the same
 * round. {@code --rounds} repeats everything with fresh directories, the stores' order reversed
 * every other round.
 *
 * <p>The three voters share this JVM, its 2 cores and one disk: each entry is fsync'd three times
 * on the same device, which a real cluster spreads over three machines. These are the consensus
 * layer's figures, not a server's (no RPC from a client, no coordinator around them).
 *
 * <pre>
 * java -cp ... dev.tributary.bench.cluster.MetadataLatencyBench [--ops 2000] [--warmup 500]
 *     [--threads 8] [--tiering-tables 64] [--election-timeout-ms 2000] [--stores file,raft-1,raft-3]
 *     [--rounds 2]
 *     [--dir DIR]
 * </pre>
 */
public final class MetadataLatencyBench {
    private static final Clock CLOCK = Clock.system();
    private static final Duration LEADER_WAIT = Duration.ofSeconds(60);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private MetadataLatencyBench() {}

    /** One metadata call; {@code i} makes each call's arguments distinct. */
    @FunctionalInterface
    private interface Op {
        void call(MetadataStore store, long i);
    }

    private record Result(
            int round,
            String store,
            String op,
            int threads,
            Percentiles latency,
            double opsPerSec) {}

    /** The store under test and whatever else must be closed with it (the other voters). */
    private record Opened(MetadataStore store, List<AutoCloseable> all, String note) {}

    public static void main(String[] args) throws Exception {
        int ops = 2_000;
        int warmup = 500;
        int threads = 8;
        int tieringTables = 64;
        int rounds = 2;
        Duration election = Duration.ofSeconds(2);
        List<String> stores = List.of("file", "raft-1", "raft-3");
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--ops" -> ops = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--tiering-tables" -> tieringTables = Integer.parseInt(args[++i]);
                case "--election-timeout-ms" ->
                        election = Duration.ofMillis(Long.parseLong(args[++i]));
                case "--stores" -> stores = List.of(args[++i].split(","));
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("metadata-latency-bench");
        }
        System.out.printf(
                Locale.ROOT,
                "MetadataLatencyBench %s: rounds=%d ops=%d warmup=%d threads=%d tiering-tables=%d"
                        + " election-timeout=%s dir=%s cores=%d load-average=%s%n",
                Instant.now(),
                rounds,
                ops,
                warmup,
                threads,
                tieringTables,
                election,
                dir,
                Runtime.getRuntime().availableProcessors(),
                MetadataBenchData.loadAverage());

        List<Result> results = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            // the order alternates so that neither JIT warm-up nor a drift of the machine's load
            // favours the stores measured last
            List<String> order = new ArrayList<>(stores);
            if (round % 2 == 0) {
                java.util.Collections.reverse(order);
            }
            for (String kind : order) {
                Opened opened = open(kind, dir.resolve("round-" + round).resolve(kind), election);
                System.out.printf(Locale.ROOT, "%n[round %d, %s] %s%n", round, kind, opened.note());
                try {
                    results.addAll(
                            run(round, kind, opened.store(), ops, warmup, threads, tieringTables));
                } finally {
                    for (AutoCloseable c : opened.all()) {
                        c.close();
                    }
                }
            }
        }
        print(results);
        System.out.printf(
                Locale.ROOT, "load average at the end: %s%n", MetadataBenchData.loadAverage());
    }

    private static Opened open(String kind, Path dir, Duration election) throws Exception {
        switch (kind) {
            case "file" -> {
                FileMetadataStore s = FileMetadataStore.open(dir);
                return new Opened(s, List.of(s), "FileMetadataStore in " + dir);
            }
            case "raft-1", "raft-3" -> {
                int count = kind.equals("raft-1") ? 1 : 3;
                List<ClusterConfig.Voter> voters = MetadataBenchData.loopbackVoters(count);
                List<RaftMetadataStore> peers = new ArrayList<>();
                for (ClusterConfig.Voter v : voters) {
                    peers.add(
                            RaftMetadataStore.start(
                                    MetadataBenchData.config(
                                            "latency-" + kind,
                                            v.id(),
                                            voters,
                                            election,
                                            REQUEST_TIMEOUT),
                                    dir.resolve("server-" + v.id())));
                }
                RaftMetadataStore leader = awaitLeader(peers);
                return new Opened(
                        leader,
                        List.copyOf(peers),
                        "RaftMetadataStore, "
                                + count
                                + " voter(s) "
                                + voters
                                + ", leader "
                                + leader.serverId()
                                + " in term "
                                + leader.currentTerm());
            }
            default -> throw new IllegalArgumentException("unknown store " + kind);
        }
    }

    private static RaftMetadataStore awaitLeader(List<RaftMetadataStore> peers)
            throws InterruptedException {
        long deadline = CLOCK.nanoTime() + LEADER_WAIT.toNanos();
        while (CLOCK.nanoTime() < deadline) {
            for (RaftMetadataStore p : peers) {
                if (p.isLeader()) {
                    return p;
                }
            }
            // polling a real quorum until it elected a leader
            Thread.sleep(10);
        }
        throw new IllegalStateException("no leader elected within " + LEADER_WAIT);
    }

    private static List<Result> run(
            int round,
            String kind,
            MetadataStore store,
            int ops,
            int warmup,
            int threads,
            int tieringTables)
            throws InterruptedException {
        long termBefore = store instanceof RaftMetadataStore r ? r.currentTerm() : 0;
        // ids above the tiering tables' so a putTable never replaces one of them
        AtomicLong nextTableId = new AtomicLong(tieringTables + 1L);
        AtomicLong nextOffset = new AtomicLong();
        for (long id = 1; id <= tieringTables; id++) {
            store.putTable(MetadataBenchData.table(id));
        }
        Map<String, Op> opsByName = new LinkedHashMap<>();
        opsByName.put(
                "putTable",
                (s, i) -> s.putTable(MetadataBenchData.table(nextTableId.getAndIncrement())));
        opsByName.put(
                "putTieringRecord",
                (s, i) -> {
                    long offset = nextOffset.incrementAndGet();
                    if (!s.putTieringRecord(
                            MetadataBenchData.record(1 + i % tieringTables, offset))) {
                        throw new IllegalStateException("a tiering table vanished");
                    }
                });
        opsByName.put("load", (s, i) -> s.load());

        List<Result> results = new ArrayList<>();
        for (Map.Entry<String, Op> e : opsByName.entrySet()) {
            timed(store, e.getValue(), warmup, 1);
            for (int t : List.of(1, threads)) {
                long start = CLOCK.nanoTime();
                long[] nanos = timed(store, e.getValue(), ops, t);
                long wall = CLOCK.nanoTime() - start;
                Result r =
                        new Result(
                                round,
                                kind,
                                e.getKey(),
                                t,
                                Percentiles.of(nanos),
                                ops * 1e9 / wall);
                results.add(r);
                System.out.printf(
                        Locale.ROOT,
                        "  %-17s threads=%d  p50 %s  p99 %s  max %s  %,.0f ops/s  (load avg %s)%n",
                        r.op(),
                        t,
                        ms(r.latency().p50()),
                        ms(r.latency().p99()),
                        ms(r.latency().max()),
                        r.opsPerSec(),
                        MetadataBenchData.loadAverage());
            }
        }
        if (store instanceof RaftMetadataStore r) {
            long termAfter = r.currentTerm();
            System.out.printf(
                    Locale.ROOT,
                    "  term %d -> %d (%s); still leader: %s%n",
                    termBefore,
                    termAfter,
                    termAfter == termBefore
                            ? "no election during the run"
                            : "ELECTION(S) DURING THE RUN",
                    r.isLeader());
        }
        return results;
    }

    /** Runs {@code ops} calls on {@code threads} threads; returns each call's nanoseconds. */
    private static long[] timed(MetadataStore store, Op op, int ops, int threads)
            throws InterruptedException {
        long[] nanos = new long[ops];
        AtomicLong next = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<RuntimeException> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w =
                    new Thread(
                            () -> {
                                try {
                                    go.await();
                                    for (long i = next.getAndIncrement();
                                            i < ops;
                                            i = next.getAndIncrement()) {
                                        long start = CLOCK.nanoTime();
                                        op.call(store, i);
                                        nanos[(int) i] = CLOCK.nanoTime() - start;
                                    }
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                } catch (RuntimeException e) {
                                    errors.add(e);
                                }
                            },
                            "bench-writer-" + t);
            workers.add(w);
            w.start();
        }
        go.countDown();
        for (Thread w : workers) {
            w.join();
        }
        if (!errors.isEmpty()) {
            // a failed metadata call is a finding, not a figure: stop with it
            throw new IllegalStateException(
                    errors.size() + " call(s) failed; first: " + errors.get(0), errors.get(0));
        }
        return nanos;
    }

    private static void print(List<Result> results) {
        System.out.printf(
                Locale.ROOT,
                "%n| round | store | operation | threads | p50 ms | p99 ms | max ms | ops/s |"
                        + " p50 / file | p99 / file | ops/s / file |%n");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (Result r : results) {
            Result base =
                    results.stream()
                            .filter(
                                    b ->
                                            b.round() == r.round()
                                                    && b.store().equals("file")
                                                    && b.op().equals(r.op())
                                                    && b.threads() == r.threads())
                            .findFirst()
                            .orElse(null);
            System.out.printf(
                    Locale.ROOT,
                    "| %d | %s | %s | %d | %s | %s | %s | %,.0f | %s | %s | %s |%n",
                    r.round(),
                    r.store(),
                    r.op(),
                    r.threads(),
                    ms(r.latency().p50()),
                    ms(r.latency().p99()),
                    ms(r.latency().max()),
                    r.opsPerSec(),
                    ratio(r.latency().p50(), base == null ? 0 : base.latency().p50()),
                    ratio(r.latency().p99(), base == null ? 0 : base.latency().p99()),
                    ratio(r.opsPerSec(), base == null ? 0 : base.opsPerSec()));
        }
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    private static String ratio(double value, double base) {
        return base <= 0 ? "-" : String.format(Locale.ROOT, "%.2fx", value / base);
    }
}

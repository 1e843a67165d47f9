package dev.tributary.bench.tiering;

import static dev.tributary.bench.tiering.TieringThroughputBench.CLOCK;
import static dev.tributary.bench.tiering.TieringThroughputBench.OS;
import static dev.tributary.bench.tiering.TieringThroughputBench.PK;
import static dev.tributary.bench.tiering.TieringThroughputBench.caughtUp;
import static dev.tributary.bench.tiering.TieringThroughputBench.coordinatorCaughtUp;
import static dev.tributary.bench.tiering.TieringThroughputBench.giveUpNanos;
import static dev.tributary.bench.tiering.TieringThroughputBench.row;
import static dev.tributary.bench.tiering.TieringThroughputBench.slowDown;

import dev.tributary.bench.tiering.TieringThroughputBench.Tiered;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.service.GatewayTieringService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/** {@link TieringThroughputBench}'s incremental PK rounds, after the table's first round. */
final class IncrementalPkRounds {
    private static final long UPDATE_FRESHNESS_MILLIS = 30_000;

    private IncrementalPkRounds() {}

    /**
     * Incremental PK rounds: each upserts 10% of the keys (random keys, so a few twice), the
     * table's freshness drops to 1 s so one round reads them from the changelog, then goes back up.
     * Reported per round as the coordinator timed it, in changelog records (an update of a key the
     * lake holds is a -U and a +U) and in upserts, against the log round's round-only rate.
     */
    static void run(
            TributaryServer server,
            Connection conn,
            LakeStorage lake,
            Configuration lakeConf,
            int parallelism,
            TableInfo pk,
            long keys,
            int rounds,
            long seed,
            Tiered logRound)
            throws Exception {
        if (rounds == 0) {
            return;
        }
        Configuration conf = new Configuration(lakeConf.toMap());
        conf.setString("tiering.embedded.parallelism", Integer.toString(parallelism));
        conf.setString("tiering.job.group", "pkbench");
        TieringGateway gateway = conn.tieringGateway();
        try (EmbeddedTiering job =
                EmbeddedTiering.start(
                        GatewayTieringService.factory(server.rpcTarget(), null, Map.of()), conf)) {
            for (int round = 1; round <= rounds; round++) {
                long upserts = keys / 10;
                long bytes = upsertRandomKeys(conn, pk.path(), keys, upserts, seed + 100 + round);
                Map<Integer, Long> ends = gateway.endOffsets(pk.tableId());
                TableTieringStatus last = conn.admin().tieringStatus(pk.path());
                long before = last.lastRound().orElseThrow().roundId();
                // a freshness the last commit is already older than makes the table pending at
                // once (T12), and long enough that the round ceiling (T13) does not cut the round
                long sinceLast = CLOCK.currentTimeMillis() - last.lastTieredAtMillis();
                if (sinceLast < UPDATE_FRESHNESS_MILLIS) {
                    Thread.sleep(UPDATE_FRESHNESS_MILLIS - sinceLast + 100);
                }
                long cpu = OS.getProcessCpuTime();
                long start = CLOCK.nanoTime();
                PeakMemory.reset();
                conn.admin()
                        .alterTable(
                                pk.path(),
                                TableAlteration.create()
                                        .setProperty(
                                                "table.datalake.freshness",
                                                UPDATE_FRESHNESS_MILLIS + "ms"));
                long giveUp = start + giveUpNanos(2 * keys / 10);
                while (!coordinatorCaughtUp(conn.admin(), pk.path())
                        || !caughtUp(lake, pk.path(), ends)) {
                    if (CLOCK.nanoTime() > giveUp) {
                        throw new IllegalStateException(
                                "incremental round did not catch up in time: "
                                        + conn.admin().tieringStatus(pk.path()));
                    }
                    LockSupport.parkNanos(50_000_000L);
                }
                double secs = (CLOCK.nanoTime() - start) / 1e9;
                double cpuSecs = (OS.getProcessCpuTime() - cpu) / 1e9;
                slowDown(conn, pk);
                TableTieringStatus.Round r =
                        conn.admin().tieringStatus(pk.path()).lastRound().orElseThrow();
                double roundSecs = r.durationMillis() / 1e3;
                System.out.printf(
                        "PK incremental round %d (%s rounds since): %,d upserts (%.1f MB raw),"
                                + " %,d changelog records read, %d lake files; round %.2f s = %,.0f"
                                + " records/s, %,.0f upserts/s; from the alter to caught up %.2f s;"
                                + " %.2f CPU-s per million records; %s%s%n",
                        round,
                        r.roundId() - before,
                        upserts,
                        bytes / 1e6,
                        r.recordsRead(),
                        r.files(),
                        roundSecs,
                        r.recordsRead() / roundSecs,
                        upserts / roundSecs,
                        secs,
                        cpuSecs / (r.recordsRead() / 1e6),
                        PeakMemory.describe(),
                        logRound == null
                                ? ""
                                : String.format(
                                        "; records/s = %.0f%% of the log round's (round only)",
                                        100
                                                * r.recordsRead()
                                                / roundSecs
                                                / logRound.round().rowsPerSec()));
            }
        }
    }

    /** Upserts {@code count} rows of random keys below {@code keys}; returns their raw bytes. */
    private static long upsertRandomKeys(
            Connection conn, TablePath path, long keys, long count, long seed) throws Exception {
        Random r = new Random(seed);
        RowCodec codec = RowCodec.of(PK);
        long bytes = 0;
        List<CompletableFuture<?>> acks = new ArrayList<>();
        try (UpsertWriter uw = conn.upsertWriter(path)) {
            for (long i = 0; i < count; i++) {
                Row row = row(r, (long) (r.nextDouble() * keys));
                bytes += codec.encode(row).length;
                acks.add(uw.upsert(row));
                if (acks.size() == 50_000) {
                    CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                    acks.clear();
                }
            }
            uw.flush();
            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        }
        return bytes;
    }
}

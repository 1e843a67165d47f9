package dev.tributary.tiering.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.status.MaintenanceRun;
import dev.tributary.coordinator.status.RoundSummary;
import dev.tributary.coordinator.status.TableMaintenanceStatus;
import dev.tributary.coordinator.status.TableTieringStatus;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.service.GatewayTieringService;
import dev.tributary.tiering.testutil.LakeCheck;
import dev.tributary.tiering.testutil.SeededTiming;
import dev.tributary.tiering.testutil.TestSchemas;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * T38 on the production path: the real server and the real job on a MiniCluster compact a log and a
 * PK table, with compaction committing after every couple of rounds and snapshots expired down to
 * three, while both tables tier well over a hundred rounds under a continuous seeded write load.
 * Seeded pauses shift compaction starts, compaction commits and round commits against each other,
 * and the server and job are restarted after the first forty, so reconciliation reads the lake
 * while compaction snapshots are the newest. Afterwards: every offset is in the lake exactly once,
 * no round failed, and compaction and expiry kept the lake bounded.
 */
class CompactionUnderTieringITCase {
    private static final int ROUNDS = 140;

    /**
     * The server and job restart once both tables committed this many rounds. The compaction counts
     * asserted at the end are taken since the restart, over the ROUNDS - RESTART_AT (100) rounds
     * after it; by round 40 compaction and expiry have long been running (the first compactions
     * commit within about ten rounds), so the restart still meets a lake whose newest snapshots may
     * be compactions.
     */
    private static final int RESTART_AT = 40;

    private static final int MAX_FILES = 2;
    private static final int RETAINED = 3;

    @TempDir Path dir;

    /** {@code -Dcompaction.seed=<seed>} replays a run; a random seed otherwise (printed). */
    private final long seed = Long.getLong("compaction.seed", new Random().nextLong());

    private final Random random = new Random(seed);
    private SeededTiming timing;
    private TributaryServer server;
    private EmbeddedTiering job;
    private Connection conn;
    private String format;

    @AfterEach
    void tearDown() throws Exception {
        stop();
        if (timing != null) {
            timing.unregister();
        }
    }

    private void stop() throws Exception {
        if (job != null) {
            job.close();
            job = null;
        }
        if (conn != null) {
            conn.close();
            conn = null;
        }
        if (server != null) {
            server.close();
            server = null;
        }
    }

    private Configuration lakeConfig() {
        return new Configuration()
                .setString("datalake.format", format)
                .setString(
                        "datalake." + format + ".warehouse",
                        dir.resolve("lake").toUri().toString());
    }

    private void start() throws Exception {
        Configuration conf = lakeConfig();
        conf.setString("data.dir", dir.resolve("data").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("tiering.heartbeat.interval", "500ms");
        conf.setString("tiering.heartbeat.timeout", "5s");
        conf.setString("tiering.maintenance.timeout", "20s");
        server = TributaryServer.start(conf, Clock.system(), List.of());
        conn = Connection.open(server.rpcTarget());
        Configuration tiering = lakeConfig();
        tiering.set(TieringOptions.SHUFFLE_SEED, seed);
        tiering.set(TieringOptions.EMBEDDED_PARALLELISM, 2);
        job =
                EmbeddedTiering.start(
                        timing.wrap(
                                GatewayTieringService.factory(server.rpcTarget(), null, Map.of())),
                        tiering);
    }

    private TableInfo table(String name, Schema schema, List<String> bucketKey) {
        return conn.admin()
                .createTable(
                        TablePath.of("demo", name),
                        TableDescriptor.builder(schema)
                                .bucketCount(2)
                                .bucketKeys(bucketKey)
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", "100ms")
                                .property(
                                        "table.datalake.compaction.max-files",
                                        Integer.toString(MAX_FILES))
                                .property("table.datalake.compaction.interval", "0s")
                                .property("table.datalake.compaction.max-buckets", "2")
                                .property(
                                        "table.datalake.snapshot.num-retained",
                                        Integer.toString(RETAINED))
                                .property("table.datalake.snapshot.time-retained", "0s")
                                // Paimon by key (T48's opt-in): its merge-on-read rounds
                                // write only, leaving the files maintenance compacts (a
                                // deletion-vector table compacts level 0 inside each round);
                                // Iceberg by position (T48's default), which at 100 ms rounds
                                // has every compaction overlap rounds that retract its rows
                                .property(
                                        "table.datalake.pk-deletes",
                                        format.equals("paimon") ? "equality" : "position")
                                .build(),
                        false);
    }

    private TableTieringStatus status(TableInfo t) {
        return server.coordinator().tableStatus(t.tableId()).join().orElseThrow();
    }

    private long committedRounds(TableInfo t) {
        RoundSummary last = status(t).lastRound();
        return last == null ? 0 : last.roundId();
    }

    /** Writes seeded batches with seeded pauses until {@code stop}. */
    private CompletableFuture<Void> writeUntil(
            TableInfo log, TableInfo pk, AtomicBoolean stop, long writerSeed) {
        return CompletableFuture.runAsync(
                () -> {
                    Random r = new Random(writerSeed);
                    try (AppendWriter a = conn.appendWriter(log.path());
                            UpsertWriter u = conn.upsertWriter(pk.path())) {
                        while (!stop.get()) {
                            List<CompletableFuture<?>> acks = new ArrayList<>();
                            for (int i = 0, n = 1 + r.nextInt(40); i < n; i++) {
                                long id = r.nextLong();
                                acks.add(a.append(Row.of(id, "row-" + id)));
                            }
                            for (int i = 0, n = 1 + r.nextInt(20); i < n; i++) {
                                long key = r.nextInt(300);
                                Row row = Row.of(key, "k" + key + "-" + r.nextInt(99), i);
                                acks.add(r.nextInt(5) == 0 ? u.delete(row) : u.upsert(row));
                            }
                            a.flush();
                            u.flush();
                            CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).join();
                            Thread.sleep(r.nextInt(60));
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"paimon", "iceberg"})
    void t38_t21_t39_compactionAndExpiryAlongsideHundredsOfRoundsFailNoRoundAndKeepExactlyOnce(
            String lakeFormat) throws Exception {
        format = lakeFormat;
        timing = new SeededTiming("compaction-it-" + seed, seed, 80, 250, 40);
        start();
        conn.admin().createDatabase("demo", true);
        TableInfo log = table("clicks", TestSchemas.LOG, List.of("id"));
        TableInfo pk = table("customers", TestSchemas.PK, List.of());

        AtomicBoolean stopWrites = new AtomicBoolean();
        CompletableFuture<Void> writes = writeUntil(log, pk, stopWrites, random.nextLong());
        await().atMost(Duration.ofMinutes(4))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () ->
                                committedRounds(log) >= RESTART_AT
                                        && committedRounds(pk) >= RESTART_AT);
        stopWrites.set(true);
        writes.join();

        // after RESTART_AT rounds: server and job restart; reconciliation reads a lake whose
        // newest snapshots may be compactions (T21)
        stop();
        start();
        stopWrites.set(false);
        writes = writeUntil(log, pk, stopWrites, random.nextLong());
        await().atMost(Duration.ofMinutes(4))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> committedRounds(log) >= ROUNDS && committedRounds(pk) >= ROUNDS);
        stopWrites.set(true);
        writes.join();

        LakeCheck lake = new LakeCheck(dir.resolve("lake").toFile(), format, seed);
        lake.verifyCaughtUp(conn, conn.admin().describeTable(log.path()), Duration.ofMinutes(2));
        lake.verifyCaughtUp(conn, conn.admin().describeTable(pk.path()), Duration.ofMinutes(2));

        // compaction catches up once the writes stop: every bucket within max-files
        for (TableInfo t : List.of(log, pk)) {
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(250))
                    .untilAsserted(
                            () ->
                                    assertThat(
                                                    status(t)
                                                            .maintenance()
                                                            .stats()
                                                            .maxDataFilesPerBucket())
                                            .as("%s files per bucket (seed %d)", t.path(), seed)
                                            .isLessThanOrEqualTo(MAX_FILES));
        }
        // Expiry keeps the newest tiering snapshot and every later one (T21), so the compactions
        // that caught up after the last round stay until a round follows them (a loaded machine
        // saw 5 snapshots left that way): one more round per table, then the history shrinks
        long logRounds = committedRounds(log);
        long pkRounds = committedRounds(pk);
        try (AppendWriter a = conn.appendWriter(log.path());
                UpsertWriter u = conn.upsertWriter(pk.path())) {
            CompletableFuture<?> appended = a.append(Row.of(-1L, "after-compaction"));
            CompletableFuture<?> upserted = u.upsert(Row.of(1_000L, "after-compaction", 0));
            a.flush();
            u.flush();
            CompletableFuture.allOf(appended, upserted).join();
        }
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> committedRounds(log) > logRounds && committedRounds(pk) > pkRounds);

        for (TableInfo t : List.of(log, pk)) {
            TableTieringStatus s = status(t);
            // (on the Iceberg PK table compactions carry the deletes of rounds that commit while
            // they run, and a round overtaken by a compaction moves its deletes onto its files)
            assertThat(s.totalFailures())
                    .as(
                            "%s: no round failed beside compaction (seed %d); last failure: %s",
                            t.path(), seed, s.lastFailure())
                    .isZero();
            assertThat(s.recentRounds())
                    .extracting(RoundSummary::outcome)
                    .doesNotContain(RoundSummary.Outcome.FAILED);
            // still within max-files after that round, and the history bounded
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(250))
                    .untilAsserted(
                            () -> {
                                TableMaintenanceStatus m = status(t).maintenance();
                                assertThat(m.stats().maxDataFilesPerBucket())
                                        .as("%s files per bucket (seed %d)", t.path(), seed)
                                        .isLessThanOrEqualTo(MAX_FILES);
                                assertThat(m.stats().snapshots())
                                        .as("%s snapshots retained", t.path())
                                        .isLessThanOrEqualTo(RETAINED + 1);
                            });
            TableMaintenanceStatus m = status(t).maintenance();
            System.out.printf(
                    "%s %s (seed %d): %d rounds, %d compactions, %d gave way, %d failed, %d"
                            + " snapshots expired, %d files deleted%n",
                    format,
                    t.path(),
                    seed,
                    committedRounds(t),
                    m.compactions(),
                    m.compactionsYielded(),
                    m.compactionFailures(),
                    m.snapshotsExpired(),
                    m.filesDeleted());
            // counted since the restart (about 100 rounds); a compaction overtaken by rounds on
            // all its commit tries gives way (T38), which a loaded machine makes more frequent
            // (seed 1066018804155153952: 8 committed, 4 gave way), so the committed ones are
            // bounded loosely and every attempt, committed or not, shows they ran alongside
            assertThat(m.compactions())
                    .as("%s: compactions committed alongside the rounds", t.path())
                    .isGreaterThanOrEqualTo(4);
            assertThat(m.compactions() + m.compactionsYielded())
                    .as("%s: compactions ran alongside the rounds", t.path())
                    .isGreaterThan(10);
            assertThat(m.snapshotsExpired()).isPositive();
            if (m.lastCompaction() != null) {
                assertThat(m.lastCompaction().outcome())
                        .isNotEqualTo(MaintenanceRun.Outcome.FAILED);
            }
        }
        // everything the lake holds is still exactly once after the last compactions
        lake.verifyCaughtUp(conn, conn.admin().describeTable(log.path()), Duration.ofMinutes(1));
        lake.verifyCaughtUp(conn, conn.admin().describeTable(pk.path()), Duration.ofMinutes(1));
    }
}

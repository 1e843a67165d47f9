package dev.tributary.tiering.process;

import static dev.tributary.tiering.process.ShopTables.CLICKS;
import static dev.tributary.tiering.process.ShopTables.CUSTOMERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.job.TieringJobMain;
import dev.tributary.tiering.testutil.LakeCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A tiering job process ({@code TieringJobMain}, its own MiniCluster) is SIGKILLed in the middle of
 * a round, with lake files of that round on disk and nothing of it committed, while clients keep
 * writing. A second job process takes the tables over once the coordinator's heartbeat timeout has
 * failed the dead attempt (T18); in the end the lake holds every record exactly once, none of the
 * killed attempt's files is part of it (T19), nothing is lost, and the killed attempt's files are
 * gone from disk: the table's directory holds exactly the files its latest snapshot reads (T23).
 * Both lake formats.
 */
class JobProcessKillITCase {
    private static final int PRELOAD_LOG = 50_000;
    private static final int PRELOAD_PK = 5_000;

    @TempDir Path dir;
    @RegisterExtension final JobProcesses jobs = new JobProcesses();
    private final long seed = new Random().nextLong();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"paimon", "iceberg"})
    void t18_t19_t23_jobKilledMidRoundIsTakenOverWithNoLossNoDuplicateAndNoFileLeft(String format)
            throws Exception {
        jobs.seed(seed);
        TieringServer server =
                jobs.closeAfterTest(TieringServer.start(dir.resolve("data"), format));
        ShopTables tables = ShopTables.create(server);
        LakeCheck lake = new LakeCheck(server.warehouse(), format, seed);
        ContinuousWriter writer =
                jobs.closeAfterTest(
                        new ContinuousWriter(server.connection(), CLICKS, CUSTOMERS, seed));
        JobProcess jobA =
                jobs.start(
                        "job-a",
                        dir,
                        TieringJobMain.class,
                        server.jobArgs("job-a", seed, Map.of()));
        // while job-a boots: rounds big enough that the kill lands while files are being written
        writer.preload(PRELOAD_LOG, PRELOAD_PK);
        writer.start(100, 25);
        jobs.note("preloaded " + PRELOAD_LOG + " log rows, " + PRELOAD_PK + " PK changes");

        // mid-round: job-a holds a round of the log table that has not committed, and its readers
        // have already put files of it into the lake table's directory
        TableTieringStatus held =
                await().atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(100))
                        .until(
                                () -> server.status(CLICKS),
                                s ->
                                        ShopTables.heldUncommittedBy(s, "job-a")
                                                && !uncommittedFiles(lake).isEmpty());
        jobA.kill();
        long killedAt = System.nanoTime();
        jobs.note("SIGKILLed job-a mid-round: " + held);
        Set<String> killedAttemptFiles = uncommittedFiles(lake);
        assertThat(killedAttemptFiles).as("files the killed attempt left behind").isNotEmpty();
        TableTieringStatus pkAtKill = server.status(CUSTOMERS);
        TableTieringStatus afterKill = server.status(CLICKS);
        assertThat(afterKill.epoch())
                .as("the coordinator still holds job-a's attempt after the kill (seed %d)", seed)
                .isEqualTo(held.epoch());
        assertThat(afterKill.jobId()).contains("job-a");

        jobs.start("job-b", dir, TieringJobMain.class, server.jobArgs("job-b", seed, Map.of()));

        // T18: only the heartbeat timeout frees the table; a SIGKILLed job says nothing
        TableTieringStatus released =
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .until(
                                () -> server.status(CLICKS),
                                s -> !(s.epoch() == held.epoch() && "TIERING".equals(s.state())));
        Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);
        jobs.note("the coordinator failed job-a's attempt after " + takeover + ": " + released);
        assertThat(released.lastFailure())
                .as("the killed round ended by heartbeat timeout, not by a commit")
                .hasValueSatisfying(m -> assertThat(m).contains("no heartbeat from job job-a"));
        // a dead job's last heartbeat is at most the kill, so the sweep (every timeout/4) must
        // fail its attempt within 1.25 x timeout of the kill; the rest is slack for a busy host.
        // (No lower bound: a starved job may have heartbeated well before it was killed.)
        assertThat(takeover)
                .as("dead job detected within 1.25 x timeout plus slack (seed %d)", seed)
                .isLessThanOrEqualTo(TieringServer.HEARTBEAT_TIMEOUT.multipliedBy(3));

        // job-b commits rounds of both tables, under epochs newer than the killed attempt's
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(
                        () -> {
                            assertThat(epochsAbove(lake.tieringSnapshots(CLICKS), held.epoch()))
                                    .isNotEmpty();
                            assertThat(
                                            epochsAbove(
                                                    lake.tieringSnapshots(CUSTOMERS),
                                                    pkAtKill.epoch()))
                                    .isNotEmpty();
                        });
        jobs.note("job-b committed rounds of both tables");
        writer.stop();
        jobs.note("writers stopped: " + writer.logRows() + " log rows, " + writer.pkOps() + " PK");

        Duration catchUp = Duration.ofSeconds(90);
        assertThat(lake.verifyCaughtUp(server.connection(), tables.clicks, catchUp))
                .as("every log record once (seed %d)", seed)
                .isEqualTo(writer.logRows());
        lake.verifyCaughtUp(server.connection(), tables.customers, catchUp);
        jobs.note("both tables caught up and verified exactly once");
        assertThat(lake.tieringSnapshots(CLICKS))
                .as("no lake snapshot of the killed attempt (seed %d)", seed)
                .noneMatch(p -> p.epoch() == held.epoch());
        assertThat(lake.liveFiles(CLICKS))
                .as("none of the killed attempt's files is read from the lake (seed %d)", seed)
                .doesNotContainAnyElementsOf(killedAttemptFiles);
        assertThat(lake.filesOnDisk(CLICKS))
                .as(
                        "T23: after later commits, %s holds exactly the files its latest"
                                + " snapshot reads (seed %d)",
                        CLICKS, seed)
                .isEqualTo(lake.liveFiles(CLICKS));
        // the PK table retracts rows by position (T48): Paimon's rounds compact their level-0
        // files and Iceberg's replace a data file's deletion vector by a merged one, and the
        // replaced files stay on disk for the older snapshots until those expire
        assertThat(lake.filesOnDisk(CUSTOMERS))
                .as("%s (seed %d)", CUSTOMERS, seed)
                .containsAll(lake.liveFiles(CUSTOMERS));
        assertThat(lake.filesOnDisk(CLICKS)).doesNotContainAnyElementsOf(killedAttemptFiles);
    }

    /**
     * Files in the log table's directory that its latest snapshot does not read. The lake table is
     * append-only and written without compaction, so a committed file stays live: these are files
     * of a round that has not committed.
     */
    private static Set<String> uncommittedFiles(LakeCheck lake) {
        Set<String> files = new TreeSet<>(lake.filesOnDisk(CLICKS));
        if (!files.isEmpty()) {
            files.removeAll(lake.liveFiles(CLICKS));
        }
        return files;
    }

    private static List<Long> epochsAbove(List<TieringSnapshotProperties> snapshots, long epoch) {
        return snapshots.stream()
                .map(TieringSnapshotProperties::epoch)
                .filter(e -> e > epoch)
                .toList();
    }
}

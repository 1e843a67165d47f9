package dev.tributary.tiering.process;

import static dev.tributary.tiering.process.ShopTables.CLICKS;
import static dev.tributary.tiering.process.ShopTables.CUSTOMERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.job.TieringJobMain;
import dev.tributary.tiering.testutil.LakeCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiering job process is frozen with SIGSTOP after it has read and written a round of each table
 * but before the commits reach the coordinator (they wait at a gate, {@link GatedCommitService}).
 * The coordinator times the attempts out (T18), a second job process takes the tables and commits
 * rounds; then the frozen job is resumed with SIGCONT and its commits go out: each is refused as
 * FENCED (T19), the job drops the stale rounds and keeps running (T20), nothing of them reaches the
 * lake, and in the end the lake holds every record exactly once.
 */
class PausedAttemptFencingITCase {
    private static final Pattern HELD =
            Pattern.compile(GatedCommitService.HELD + " table=(\\d+) epoch=(\\d+) round=(\\d+)");

    @TempDir Path dir;
    @RegisterExtension final JobProcesses jobs = new JobProcesses();
    private final long seed = new Random().nextLong();

    /** One attempt of job-a, as printed when its commit reached the gate. */
    private record HeldAttempt(long tableId, long epoch, long roundId) {
        String line() {
            return "table=" + tableId + " epoch=" + epoch + " round=" + roundId;
        }
    }

    @Test
    void t18_t19_t20_pausedJobsCommitsAreFencedAfterAnotherJobTookItsTables() throws Exception {
        jobs.seed(seed);
        TieringServer server = jobs.closeAfterTest(TieringServer.start(dir.resolve("data")));
        ShopTables tables = ShopTables.create(server);
        LakeCheck lake = new LakeCheck(server.warehouse(), seed);
        ContinuousWriter writer =
                jobs.closeAfterTest(
                        new ContinuousWriter(server.connection(), CLICKS, CUSTOMERS, seed));
        Path gate = dir.resolve("gate-open");
        List<String> args = new ArrayList<>(List.of("--gate", gate.toString()));
        args.addAll(server.jobArgs("job-a", seed, Map.of()));
        JobProcess jobA = jobs.start("job-a", dir, GatedCommitJobMain.class, args);
        writer.preload(20_000, 5_000);
        writer.start(100, 25);
        jobs.note("preloaded while job-a boots");

        // mid-round: both tables' rounds are written and their commits wait at the gate
        List<HeldAttempt> held =
                await().atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(100))
                        .until(
                                () -> heldAttempts(jobA.output()),
                                h -> h.stream().map(HeldAttempt::tableId).distinct().count() == 2);
        Map<Long, Set<String>> staleFiles = new HashMap<>();
        for (TableInfo t : List.of(tables.clicks, tables.customers)) {
            HeldAttempt a = attemptOf(held, t.tableId());
            TableTieringStatus s = server.status(t.path());
            assertThat(ShopTables.heldUncommittedBy(s, "job-a"))
                    .as("%s is held by job-a and uncommitted: %s (seed %d)", t.path(), s, seed)
                    .isTrue();
            assertThat(s.epoch()).isEqualTo(a.epoch());
            assertThat(lake.tieringSnapshots(t.path())).isEmpty();
            // nothing has committed yet, so every file in the table's directory is job-a's
            staleFiles.put(t.tableId(), lake.filesOnDisk(t.path()));
            assertThat(staleFiles.get(t.tableId())).as("%s: job-a's files", t.path()).isNotEmpty();
        }

        jobs.note("job-a's commits wait at the gate: " + held);
        jobA.pause();
        jobs.note("SIGSTOPped job-a");
        jobs.start("job-b", dir, TieringJobMain.class, server.jobArgs("job-b", seed, Map.of()));

        // T18: the frozen job's attempts time out (checked as they end: a later failure of
        // job-b's rounds would overwrite the last failure message)
        for (TableInfo t : List.of(tables.clicks, tables.customers)) {
            long staleEpoch = attemptOf(held, t.tableId()).epoch();
            TableTieringStatus released =
                    await().atMost(Duration.ofSeconds(30))
                            .pollInterval(Duration.ofMillis(50))
                            .until(
                                    () -> server.status(t.path()),
                                    s -> !(s.epoch() == staleEpoch && "TIERING".equals(s.state())));
            assertThat(released.lastFailure())
                    .as("%s: job-a's attempt ended by heartbeat timeout (seed %d)", t.path(), seed)
                    .hasValueSatisfying(m -> assertThat(m).contains("no heartbeat from job job-a"));
        }
        jobs.note("the coordinator failed job-a's attempts");
        // and job-b commits rounds of both tables
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(
                        () -> {
                            for (TableInfo t : List.of(tables.clicks, tables.customers)) {
                                long staleEpoch = attemptOf(held, t.tableId()).epoch();
                                assertThat(lake.tieringSnapshots(t.path()))
                                        .extracting(TieringSnapshotProperties::epoch)
                                        .as("%s rounds committed after job-a froze", t.path())
                                        .anyMatch(e -> e > staleEpoch);
                            }
                        });

        jobs.note("job-b committed rounds of both tables");
        // resume: the stale commits now reach the coordinator, which refuses them
        Files.createFile(gate);
        jobA.resume();
        jobs.note("opened the gate and SIGCONTed job-a");
        for (HeldAttempt a : held) {
            String outcome = GatedCommitService.OUTCOME + " " + a.line() + " outcome=";
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> jobA.output().contains(outcome));
            assertThat(jobA.output())
                    .as("job-a's stale commit of %s (seed %d)", a, seed)
                    .contains(outcome + "FENCED");
        }
        // T20: the job drops its stale rounds instead of failing
        assertThat(jobA.output()).contains("was fenced: the attempt is stale, nothing committed");
        assertThat(jobA.isAlive()).as("job-a survives its fenced commits").isTrue();
        jobs.note("job-a's stale commits were fenced");
        jobA.kill();

        writer.stop();
        Duration catchUp = Duration.ofSeconds(90);
        assertThat(lake.verifyCaughtUp(server.connection(), tables.clicks, catchUp))
                .as("every log record once (seed %d)", seed)
                .isEqualTo(writer.logRows());
        lake.verifyCaughtUp(server.connection(), tables.customers, catchUp);
        jobs.note("both tables caught up and verified exactly once");
        for (HeldAttempt a : held) {
            TableInfo t = a.tableId() == tables.clicks.tableId() ? tables.clicks : tables.customers;
            assertThat(lake.tieringSnapshots(t.path()))
                    .as("no lake snapshot of job-a's fenced attempt %s (seed %d)", a, seed)
                    .noneMatch(p -> p.epoch() == a.epoch());
            assertThat(lake.liveFiles(t.path()))
                    .as("%s: none of job-a's files is read from the lake (seed %d)", t.path(), seed)
                    .doesNotContainAnyElementsOf(staleFiles.get(a.tableId()));
            // T23: the fenced attempt's files are gone from disk, not just unreferenced
            assertThat(lake.filesOnDisk(t.path()))
                    .as("%s: job-a's files are gone from disk (seed %d)", t.path(), seed)
                    .containsAll(lake.liveFiles(t.path()))
                    .doesNotContainAnyElementsOf(staleFiles.get(a.tableId()));
            if (t == tables.clicks) {
                // the PK table has deletion vectors (T48): files its rounds' compactions
                // replaced stay on disk for the older snapshots until those expire
                assertThat(lake.filesOnDisk(t.path()))
                        .as("%s: only live files stay on disk (seed %d)", t.path(), seed)
                        .isEqualTo(lake.liveFiles(t.path()));
            }
        }
    }

    private static List<HeldAttempt> heldAttempts(String output) {
        List<HeldAttempt> out = new ArrayList<>();
        Matcher m = HELD.matcher(output);
        while (m.find()) {
            out.add(
                    new HeldAttempt(
                            Long.parseLong(m.group(1)),
                            Long.parseLong(m.group(2)),
                            Long.parseLong(m.group(3))));
        }
        return out;
    }

    private static HeldAttempt attemptOf(List<HeldAttempt> held, long tableId) {
        return held.stream()
                .filter(a -> a.tableId() == tableId)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no held commit of table " + tableId));
    }
}

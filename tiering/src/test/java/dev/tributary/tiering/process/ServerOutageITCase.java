package dev.tributary.tiering.process;

import static dev.tributary.tiering.process.ShopTables.CLICKS;
import static dev.tributary.tiering.process.ShopTables.CUSTOMERS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.admin.TableInfo;
import dev.tributary.tiering.job.TieringJobMain;
import dev.tributary.tiering.testutil.LakeCheck;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone tiering job process ({@code TieringJobMain}) outlives the server: it starts while
 * the server is down (registration retries), keeps running through an outage much longer than the
 * heartbeat timeout (heartbeats, table requests and commits fail and are retried), and after the
 * server restarts on the same address it tiers again on its own: the restarted coordinator fences
 * the attempts of its previous run (T17, T19) and hands the tables out again. The lake ends exact.
 */
class ServerOutageITCase {
    private static final Duration OUTAGE = Duration.ofSeconds(10);

    @TempDir Path dir;
    @RegisterExtension final JobProcesses jobs = new JobProcesses();
    private final long seed = new Random().nextLong();

    @Test
    void aJobOutlivesAServerOutageAndARestartAndTiersAgainWithoutAnyHelp() throws Exception {
        jobs.seed(seed);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path data = dir.resolve("data");
        // the job first, while no server listens: it must wait for one
        TieringServer first = TieringServer.start(data, port);
        java.util.List<String> args = first.jobArgs("job-a", seed, Map.of());
        ShopTables tables = ShopTables.create(first);
        first.close();
        JobProcess job = jobs.start("job-a", dir, TieringJobMain.class, args);
        Thread.sleep(3_000);
        assertThat(job.isAlive()).as("the job waits for the server instead of exiting").isTrue();

        TieringServer server = TieringServer.start(data, port);
        jobs.note("server started");
        LakeCheck lake = new LakeCheck(server.warehouse(), seed);
        try (ContinuousWriter writer =
                new ContinuousWriter(server.connection(), CLICKS, CUSTOMERS, seed)) {
            writer.preload(2_000, 500);
            writer.start(50, 10);
            Thread.sleep(3_000);
            writer.stop();
        }
        lake.verifyCaughtUp(server.connection(), tables.clicks, Duration.ofSeconds(120));
        lake.verifyCaughtUp(server.connection(), tables.customers, Duration.ofSeconds(60));
        jobs.note("tiered before the outage");

        // rounds in flight when the server goes away
        try (ContinuousWriter writer =
                new ContinuousWriter(server.connection(), CLICKS, CUSTOMERS, seed + 1)) {
            writer.preload(20_000, 2_000);
        }
        server.close();
        jobs.note("server stopped for " + OUTAGE);
        Thread.sleep(OUTAGE.toMillis());
        assertThat(job.isAlive()).as("the job outlives the outage").isTrue();

        server = jobs.closeAfterTest(TieringServer.start(data, port));
        long restartedAt = System.nanoTime();
        jobs.note("server restarted");
        TableInfo clicks = server.connection().admin().describeTable(CLICKS);
        TableInfo customers = server.connection().admin().describeTable(CUSTOMERS);
        try (ContinuousWriter writer =
                new ContinuousWriter(server.connection(), CLICKS, CUSTOMERS, seed + 2)) {
            writer.preload(1_000, 200);
        }
        lake.verifyCaughtUp(server.connection(), clicks, Duration.ofSeconds(180));
        lake.verifyCaughtUp(server.connection(), customers, Duration.ofSeconds(60));
        Duration recovery = Duration.ofNanos(System.nanoTime() - restartedAt);
        jobs.note("caught up again " + recovery + " after the restart, exactly once");
        assertThat(job.isAlive()).isTrue();
        assertThat(server.status(CLICKS).lastRound().flatMap(r -> r.jobId()))
                .as("the same job process tiered after the restart")
                .contains("job-a");
    }
}

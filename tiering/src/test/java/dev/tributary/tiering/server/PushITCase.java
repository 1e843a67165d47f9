package dev.tributary.tiering.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.status.JobStatus;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.job.TieringOptions;
import dev.tributary.tiering.service.GatewayTieringService;
import dev.tributary.tiering.testutil.TestSchemas;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T3 against a real server and a real job: an idle job does not poll, its table request waits at
 * the coordinator, and a table that becomes pending goes straight to it. The proof is the
 * coordinator's own count of the job's requests and of tables pushed to a waiting request, not a
 * timing: an idle job asks about once per heartbeat interval (the longest wait the coordinator
 * grants) instead of every tiering.request.min-interval, and the round it gets was pushed.
 */
class PushITCase {
    private static final Duration HEARTBEAT = Duration.ofSeconds(2);

    @TempDir Path dir;

    @Test
    void t3_anIdleJobWaitsAtTheCoordinatorAndAPendingTableIsPushedToIt() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("data").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("tiering.heartbeat.interval", HEARTBEAT.toMillis() + "ms");
        try (TributaryServer server = TributaryServer.start(conf, Clock.system(), List.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            Configuration job = new Configuration(server.lakeConfiguration().toMap());
            job.set(TieringOptions.EMBEDDED_PARALLELISM, 1);
            job.set(TieringOptions.JOB_ID, "idle-job");
            // a polling job would ask 10 times a second
            job.set(TieringOptions.REQUEST_MIN_INTERVAL, Duration.ofMillis(100));
            try (EmbeddedTiering tiering =
                    EmbeddedTiering.start(
                            GatewayTieringService.factory(server.rpcTarget(), null, Map.of()),
                            job)) {
                JobStatus registered =
                        await().atMost(Duration.ofSeconds(60))
                                .until(() -> job(server), j -> j != null && j.waitingForTable());
                long t0 = System.nanoTime();
                Thread.sleep(3 * HEARTBEAT.toMillis());
                // each wait ends after a heartbeat interval and the job asks again at once: a
                // sample taken right then (three intervals after the first wait began) can fall
                // between the answer and the next request, so take the next one that waits
                JobStatus idle =
                        await().atMost(HEARTBEAT)
                                .pollInterval(Duration.ofMillis(10))
                                .until(() -> job(server), JobStatus::waitingForTable);
                double heartbeats = (System.nanoTime() - t0) / (double) HEARTBEAT.toNanos();
                assertThat(idle.tableRequests() - registered.tableRequests())
                        .as("an idle job sends about one request per wait, not one per 100 ms")
                        .isLessThanOrEqualTo((long) Math.ceil(heartbeats) + 1);

                conn.admin().createDatabase("db", true);
                TableInfo t =
                        conn.admin()
                                .createTable(
                                        TablePath.of("db", "events"),
                                        TableDescriptor.builder(TestSchemas.LOG)
                                                .bucketCount(2)
                                                .property("table.datalake.enabled", "true")
                                                .property("table.datalake.freshness", "1s")
                                                .build(),
                                        false);
                try (AppendWriter w = conn.appendWriter(t.path())) {
                    for (long i = 0; i < 100; i++) {
                        w.append(Row.of(i, "e" + i));
                    }
                    w.flush();
                }
                TableTieringStatus.Round round =
                        await().atMost(Duration.ofSeconds(60))
                                .until(
                                        () -> conn.admin().tieringStatus(t.path()).recentRounds(),
                                        r -> !r.isEmpty())
                                .get(0);
                assertThat(round.jobId()).contains("idle-job");
                assertThat(job(server).pushedPlans() - idle.pushedPlans())
                        .as("the table went to the job's waiting request")
                        .isPositive();
                assertThat(round.queueWaitMillis())
                        .as("pushed at once, not on the next poll")
                        .isBetween(0L, HEARTBEAT.toMillis());
            }
        }
    }

    private static JobStatus job(TributaryServer server) {
        return server.coordinator().status().join().jobs().stream()
                .filter(j -> j.jobId().equals("idle-job"))
                .findFirst()
                .orElse(null);
    }
}

package dev.tributary.cli.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.cli.TributaryCli;
import dev.tributary.cli.embedded.EmbeddedTieringExtension;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.planner.yaml.WorkloadFile;
import dev.tributary.server.TributaryServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary plan} in live mode against a real server with the embedded tiering job: the
 * workload the server measured (tables, write rates from the store's end offsets, the job's
 * parallelism from its registration, a reader model fitted to the real rounds) is planned by the
 * real coordinator logic, and the same verdicts reach {@code /api/tiering/plan} and the console.
 */
class PlanCommandITCase {
    private static final TablePath EVENTS = TablePath.of("shop", "events");
    private static final TablePath AUDIT = TablePath.of("shop", "audit");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    @Test
    @DisplayName(
            "T44 live plan of a running server: measured write rates and job parallelism, a reader"
                    + " model fitted to real rounds, a verdict per table in the CLI, the API and"
                    + " the console")
    void livePlan() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("data").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("datalake.format", "paimon");
        conf.setString("tiering.embedded.parallelism", "2");
        conf.setString("server.http.lag-history.interval", "500ms");
        try (TributaryServer server =
                        TributaryServer.start(
                                conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
                Connection conn = Connection.open(server.rpcTarget())) {
            String http = "127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            conn.admin().createDatabase("shop", false);
            createLakeTable(conn, EVENTS, 4, "2s");
            createLakeTable(conn, AUDIT, 2, "3s");
            long t0 = System.nanoTime();
            AtomicLong written = new AtomicLong();
            try (AppendWriter events = conn.appendWriter(EVENTS);
                    AppendWriter audit = conn.appendWriter(AUDIT)) {
                // ~2,000 rows/s into events, ~200 into audit, until both have committed rounds
                await().atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(100))
                        .until(
                                () -> {
                                    for (int i = 0; i < 200; i++) {
                                        events.append(Row.of(written.incrementAndGet(), "e" + i));
                                    }
                                    for (int i = 0; i < 20; i++) {
                                        audit.append(Row.of((long) i, "a" + i));
                                    }
                                    events.flush();
                                    audit.flush();
                                    return committed(conn, EVENTS) >= 4
                                            && committed(conn, AUDIT) >= 3;
                                });
            }
            double eventsRate = written.get() / ((System.nanoTime() - t0) / 1e9);

            Path saved = dir.resolve("measured.yaml");
            Run run =
                    cli(
                            "plan",
                            "--http",
                            http,
                            "--horizon",
                            "20min",
                            "--timeline",
                            "30s",
                            "--save-workload",
                            saved.toString());
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.out())
                    .contains("Live plan of the server at " + http)
                    .contains("shop.events", "shop.audit")
                    .contains("readers fitted over")
                    .contains("Timeline of the first 30s")
                    .containsPattern("shop\\.events .* (met at p99|missed by .* at p99)");

            // the saved workload is what the server measured, readable as a what-if file
            WorkloadFile.Parsed measured =
                    WorkloadFile.parse(Files.readString(saved, StandardCharsets.UTF_8), "saved");
            JobLoad job = measured.workload().jobs().get(0);
            assertThat(job.parallelism()).as("from the job's registration").isEqualTo(2);
            assertThat(job.reader().commitTime().toMillis()).isPositive();
            TableLoad events = measured.workload().table("shop.events");
            assertThat(events.buckets()).isEqualTo(4);
            assertThat(events.freshness()).isEqualTo(Duration.ofSeconds(2));
            assertThat(events.writeRecordsPerSecond())
                    .as("measured from end offsets; written %.0f/s", eventsRate)
                    .isCloseTo(eventsRate, within(eventsRate * 0.35));
            // id BIGINT + a short string, as the store encodes them
            assertThat(events.recordBytes()).isBetween(8.0, 64.0);
            assertThat(measured.workload().table("shop.audit").lagTarget())
                    .isEqualTo(Duration.ofSeconds(5));

            // the same planner behind the HTTP API...
            JsonNode plan = get(http, "/api/tiering/plan?horizon=20min&recommend=false");
            assertThat(plan.get("horizonMillis").asLong()).isEqualTo(1_200_000);
            assertThat(plan.get("tables")).hasSize(2);
            for (JsonNode t : plan.get("tables")) {
                assertThat(t.get("verdict").asText()).matches("met at p99|missed by .* at p99");
                assertThat(t.get("lagP99Millis").asLong())
                        .isGreaterThanOrEqualTo(t.get("freshnessMillis").asLong() - 1000);
                assertThat(t.get("rounds").asLong()).isPositive();
            }
            assertThat(plan.get("jobs").get(0).get("parallelism").asInt()).isEqualTo(2);
            // ...and in the console's snapshot, one verdict per table
            // (renewed in the background: the first refresh may come before the first verdicts)
            JsonNode verdicts =
                    await().atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> get(http, "/api/console").get("plan"),
                                    p -> p != null && !p.isNull())
                            .get("tables");
            assertThat(verdicts.has("shop.events")).isTrue();
            assertThat(verdicts.get("shop.audit").get("text").asText())
                    .matches("met at p99|missed by .* at p99");
            assertThat(verdicts.get("shop.audit").get("lagTargetMillis").asLong()).isEqualTo(5_000);
            // a lag target that is not a duration is refused when it is set
            assertThatThrownBy(
                            () ->
                                    conn.admin()
                                            .alterTable(
                                                    EVENTS,
                                                    TableAlteration.create()
                                                            .setProperty(
                                                                    "table.datalake.lag-target",
                                                                    "soon")))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("table.datalake.lag-target");
        }
    }

    @Test
    @DisplayName("T44 live plan without a server: one line saying where it looked and what to do")
    void noServer() {
        Run run = cli("plan", "--http", "127.0.0.1:1");
        assertThat(run.code()).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(run.err())
                .startsWith("error: cannot reach the server's HTTP endpoint at 127.0.0.1:1")
                .contains("--file")
                .doesNotContain("\tat ");
    }

    private static long committed(Connection conn, TablePath path) {
        TableTieringStatus s = conn.admin().tieringStatus(path);
        return s.recentRounds().stream().filter(r -> r.outcome().equals("COMMITTED")).count();
    }

    private static void createLakeTable(
            Connection conn, TablePath path, int buckets, String freshness) {
        TableDescriptor.Builder d =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT())
                                        .column("page", DataTypes.STRING())
                                        .build())
                        .bucketCount(buckets)
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", freshness);
        if (path.equals(AUDIT)) {
            d.property("table.datalake.lag-target", "5s");
        }
        conn.admin().createTable(path, d.build(), false);
    }

    private static JsonNode get(String http, String path) throws Exception {
        HttpResponse<String> r =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create("http://" + http + path)).build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    record Run(int code, String out, String err) {}

    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = TributaryCli.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }
}

package dev.tributary.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.TestServers;
import dev.tributary.server.TributaryServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lag page and its history over a real server: the sampler runs on the server's maintenance
 * thread, the page and the JSON come over real HTTP.
 */
class LagPageITCase {
    private static final TablePath EVENTS = TablePath.of("lake", "events");
    private static final TablePath OTHER = TablePath.of("lake", "other");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    @DisplayName(
            "T28: the server samples each lake table's lag; / serves the offline plot page,"
                    + " /api/tiering/history the series with the freshness")
    void pageAndHistory() throws Exception {
        try (TributaryServer server =
                        TestServers.start(
                                dir,
                                Map.of(
                                        "server.http.lag-history.interval", "100ms",
                                        "server.http.lag-history.retention", "1min"));
                Connection conn = Connection.open(server.rpcTarget())) {
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            conn.admin().createDatabase("lake", false);
            createLakeTable(conn, EVENTS, "30s");
            createLakeTable(conn, OTHER, "1min");
            // no tiering job runs: nothing reaches the lake, so the lag only grows
            try (AppendWriter w = conn.appendWriter(EVENTS)) {
                for (long i = 0; i < 500; i++) {
                    w.append(Row.of(i));
                }
                w.flush();
            }

            JsonNode events =
                    await().atMost(Duration.ofSeconds(30))
                            .until(
                                    () -> series(get(base + "/api/tiering/history", null), EVENTS),
                                    s -> s != null && samplesWith(s, 500) >= 3);
            assertThat(events.get("freshnessMillis").asLong()).isEqualTo(30_000);
            assertThat(events.get("state").asText()).isNotBlank();
            long[] times = longs(events.get("timeMillis"));
            long[] lagMillis = longs(events.get("lagMillis"));
            assertThat(times).isSorted();
            assertThat(times.length)
                    .isEqualTo(lagMillis.length)
                    .isEqualTo(events.get("lagRecords").size());
            // once all 500 records are in the store, the oldest only gets older
            int first = times.length - samplesWith(events, 500);
            for (int i = first + 1; i < times.length; i++) {
                assertThat(lagMillis[i]).isGreaterThanOrEqualTo(lagMillis[i - 1]);
            }
            assertThat(lagMillis[times.length - 1]).isPositive();

            HttpResponse<String> one = get(base + "/api/tiering/history?table=" + EVENTS, null);
            assertThat(one.statusCode()).isEqualTo(200);
            JsonNode oneJson = JSON.readTree(one.body());
            assertThat(oneJson.get("intervalMillis").asLong()).isEqualTo(100);
            assertThat(oneJson.get("retentionMillis").asLong()).isEqualTo(60_000);
            assertThat(oneJson.get("tables")).hasSize(1);
            assertThat(oneJson.get("tables").get(0).get("table").asText()).isEqualTo("lake.events");

            HttpResponse<String> missing = get(base + "/api/tiering/history?table=lake.nope", null);
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(missing.body()).contains("NOT_FOUND").contains("lake.nope");
            HttpResponse<String> typo = get(base + "/api/tiering/history?tabel=lake.events", null);
            assertThat(typo.statusCode()).isEqualTo(400);
            assertThat(typo.body()).contains("INVALID_INPUT").contains("tabel");

            for (String path : new String[] {"/", "/ui", "/tables/lake.events"}) {
                HttpResponse<String> page = get(base + path, null);
                assertThat(page.statusCode()).as(path).isEqualTo(200);
                assertThat(page.headers().firstValue("Content-Type"))
                        .hasValue("text/html; charset=utf-8");
                assertThat(page.headers().firstValue("Content-Security-Policy"))
                        .hasValueSatisfying(csp -> assertThat(csp).contains("default-src 'none'"));
                assertThat(page.body())
                        .contains("http://www.w3.org/2000/svg", "polyline", "/api/console")
                        .contains("freshnessMillis", "stroke-dasharray")
                        .contains("Authorization", "Bearer")
                        // self-contained: nothing loaded from elsewhere
                        .doesNotContain("<script src", " src=", "<link", "https://");
            }
            assertThat(get(base + "/nope", null).statusCode()).isEqualTo(404);
            assertThat(get(base + "/tables/lake.events/x", null).statusCode()).isEqualTo(404);

            // a dropped table leaves the history at the next sample
            conn.admin().dropTable(OTHER, false);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> series(get(base + "/api/tiering/history", null), OTHER) == null);
            assertThat(series(get(base + "/api/tiering/history", null), EVENTS)).isNotNull();
        }
    }

    @Test
    @DisplayName("T28: samples are stamped and spaced by the server's clock, lag measured on it")
    void samplesFollowTheServerClock() throws Exception {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("server.http.lag-history.interval", "1s");
        try (TributaryServer server = TributaryServer.start(conf, clock, List.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            conn.admin().createDatabase("lake", false);
            createLakeTable(conn, EVENTS, "1min");
            try (AppendWriter w = conn.appendWriter(EVENTS)) {
                for (long i = 0; i < 10; i++) {
                    w.append(Row.of(i));
                }
                w.flush();
            }
            long appendedAt = clock.currentTimeMillis();
            // the thread ticks every second of real time, but a sample is only taken when the
            // server's clock says one is due: one per clock step, however many ticks pass
            for (int step = 1; step <= 2; step++) {
                clock.advance(Duration.ofSeconds(30));
                long now = clock.currentTimeMillis();
                JsonNode s =
                        await().atMost(Duration.ofSeconds(30))
                                .until(
                                        () ->
                                                series(
                                                        get(base + "/api/tiering/history", null),
                                                        EVENTS),
                                        n -> n != null && lastOf(n, "timeMillis") == now);
                assertThat(lastOf(s, "lagMillis")).isEqualTo(now - appendedAt);
                assertThat(lastOf(s, "lagRecords")).isEqualTo(10);
                assertThat(s.get("timeMillis")).hasSize(step);
            }
        }
    }

    @Test
    @DisplayName("T28: with a token the page loads but its data needs 'Authorization: Bearer'")
    void tokenGuardsTheDataNotThePage() throws Exception {
        String token = "s3cret";
        try (TributaryServer server =
                TestServers.start(
                        dir,
                        Map.of(
                                "security.token",
                                token,
                                "server.http.lag-history.interval",
                                "100ms"))) {
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            assertThat(get(base + "/ui", null).statusCode()).isEqualTo(200);
            assertThat(get(base + "/api/tiering/history", null).statusCode()).isEqualTo(401);
            assertThat(get(base + "/api/tiering/history", "wrong").statusCode()).isEqualTo(401);
            HttpResponse<String> ok = get(base + "/api/tiering/history", token);
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(ok.body()).get("tables").isArray()).isTrue();
        }
    }

    private static void createLakeTable(Connection conn, TablePath path, String freshness) {
        conn.admin()
                .createTable(
                        path,
                        TableDescriptor.builder(
                                        Schema.newBuilder()
                                                .column("id", DataTypes.BIGINT())
                                                .build())
                                .bucketCount(2)
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", freshness)
                                .build(),
                        false);
    }

    /** The table's series in a history response, or null. */
    private static JsonNode series(HttpResponse<String> history, TablePath table) throws Exception {
        assertThat(history.statusCode()).isEqualTo(200);
        for (JsonNode t : JSON.readTree(history.body()).get("tables")) {
            if (t.get("table").asText().equals(table.toString())) {
                return t;
            }
        }
        return null;
    }

    private static long lastOf(JsonNode series, String column) {
        JsonNode a = series.get(column);
        return a.get(a.size() - 1).asLong();
    }

    private static int samplesWith(JsonNode series, long lagRecords) {
        int n = 0;
        for (JsonNode r : series.get("lagRecords")) {
            if (r.asLong() == lagRecords) {
                n++;
            }
        }
        return n;
    }

    private static long[] longs(JsonNode array) {
        long[] out = new long[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asLong();
        }
        return out;
    }

    private HttpResponse<String> get(String url, String token) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url)).GET();
        if (token != null) {
            req.header("Authorization", "Bearer " + token);
        }
        return http.send(req.build(), HttpResponse.BodyHandlers.ofString());
    }
}

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
import dev.tributary.server.TributaryServer;
import dev.tributary.server.status.ConsoleSnapshots;
import dev.tributary.server.status.PageRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Status at 1,000 lake tables (issue 26) over a real server whose time is a ManualClock: {@code
 * /api/tiering} and the console's first load ({@code /api/console} without {@code since}) stay
 * under fixed byte limits however many tables there are and however long the lag history grew, and
 * paging reaches every table exactly once. Tiering stays off: a row carries no round history (only
 * the last round), so rounds cannot change its size; {@code TableRowTest} shows that.
 */
class StatusAtScaleITCase {
    private static final int TABLES = 1_000;

    /**
     * The documented bounds: a default page of {@code /api/tiering} (50 rows) and of the console's
     * first load (50 rows and at most {@link ConsoleSnapshots#OVERVIEW_POINTS} lag samples each).
     */
    static final int TIERING_PAGE_MAX_BYTES = 128 * 1024;

    static final int CONSOLE_FIRST_LOAD_MAX_BYTES = 384 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    @Test
    @DisplayName(
            "T28 T43: at 1,000 lake tables /api/tiering and the console's first load are pages of"
                    + " bounded size whatever the history holds, and paging reaches every table")
    void boundedAtAThousandTables() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("server.http.lag-history.interval", "100ms");
        conf.setString("server.http.lag-history.retention", "1min");
        conf.setString("server.http.lag-history.save-interval", "1h");
        try (TributaryServer server = TributaryServer.start(conf, clock, List.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            conn.admin().createDatabase("scale", false);
            for (int i = 0; i < TABLES; i++) {
                TablePath p = TablePath.of("scale", String.format("t%04d", i));
                conn.admin()
                        .createTable(
                                p,
                                TableDescriptor.builder(
                                                Schema.newBuilder()
                                                        .column("id", DataTypes.BIGINT())
                                                        .build())
                                        .bucketCount(1)
                                        .property("table.datalake.enabled", "true")
                                        .property("table.datalake.freshness", "1h")
                                        .build(),
                                false);
                if (i % 10 == 0) {
                    // a lag to measure (and its record to read) on every page
                    try (AppendWriter w = conn.appendWriter(p)) {
                        w.append(Row.of((long) i));
                        w.flush();
                    }
                }
            }

            // the history fills: more samples per table than the overview sends
            int samples = ConsoleSnapshots.OVERVIEW_POINTS + 30;
            for (int s = 0; s < samples; s++) {
                clock.advance(Duration.ofMillis(100));
                awaitSample(base, clock.currentTimeMillis());
            }

            HttpResponse<String> tiering = get(base + "/api/tiering");
            JsonNode page = JSON.readTree(tiering.body());
            assertThat(page.get("total").asInt()).isEqualTo(TABLES);
            assertThat(page.get("tables")).hasSize(PageRequest.DEFAULT_LIMIT);
            assertThat(page.get("tables").get(0).has("rounds")).isFalse();
            assertThat(tiering.body().length()).isLessThan(TIERING_PAGE_MAX_BYTES);

            HttpResponse<String> first = get(base + "/api/console");
            JsonNode snap = JSON.readTree(first.body());
            assertThat(snap.get("summary").get("tables").asInt()).isEqualTo(TABLES);
            assertThat(snap.get("tables")).hasSize(PageRequest.DEFAULT_LIMIT);
            JsonNode series = snap.get("history").get("series");
            assertThat(series).hasSize(PageRequest.DEFAULT_LIMIT);
            for (JsonNode s : series) {
                assertThat(s.get("timeMillis")).hasSize(ConsoleSnapshots.OVERVIEW_POINTS);
            }
            assertThat(first.body().length()).isLessThan(CONSOLE_FIRST_LOAD_MAX_BYTES);

            // the largest page allowed is bounded too, and every table is on exactly one page
            Set<String> seen = new HashSet<>();
            for (int offset = 0; offset < TABLES; offset += PageRequest.MAX_LIMIT) {
                HttpResponse<String> r =
                        get(
                                base
                                        + "/api/tiering?offset="
                                        + offset
                                        + "&limit="
                                        + PageRequest.MAX_LIMIT);
                assertThat(r.body().length())
                        .isLessThan(
                                TIERING_PAGE_MAX_BYTES
                                        * PageRequest.MAX_LIMIT
                                        / PageRequest.DEFAULT_LIMIT);
                for (JsonNode t : JSON.readTree(r.body()).get("tables")) {
                    assertThat(seen.add(t.get("table").asText())).isTrue();
                }
            }
            assertThat(seen).hasSize(TABLES);
            JsonNode one = JSON.readTree(get(base + "/api/tiering?table=scale.t0500").body());
            assertThat(one.get("table").asText()).isEqualTo("scale.t0500");
            assertThat(one.get("rounds").isArray()).isTrue();

            // as fast as a page should be (printed, not asserted: the machine is shared)
            System.out.printf(
                    "1,000 tables: /api/tiering %d bytes, p50 %d ms; /api/console first load %d"
                            + " bytes, p50 %d ms%n",
                    tiering.body().length(),
                    medianMillis(base + "/api/tiering"),
                    first.body().length(),
                    medianMillis(base + "/api/console"));
        }
    }

    private long medianMillis(String url) throws Exception {
        long[] ms = new long[9];
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            get(url);
            ms[i] = (System.nanoTime() - t0) / 1_000_000;
        }
        Arrays.sort(ms);
        return ms[ms.length / 2];
    }

    private void awaitSample(String base, long time) {
        // 404 until the sampler's first sample of the table: not yet, not a failure
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(
                        () -> {
                            HttpResponse<String> r =
                                    send(base + "/api/tiering/history?table=scale.t0000");
                            return r.statusCode() == 200
                                    && JSON.readTree(r.body()).get("lastSampleMillis").asLong()
                                            == time;
                        });
    }

    private HttpResponse<String> send(String url) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String url) throws Exception {
        HttpResponse<String> r = send(url);
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        return r;
    }
}

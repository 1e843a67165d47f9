package dev.tributary.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.EpochFormat;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.TributaryServer;
import dev.tributary.server.status.LagHistoryFile;
import dev.tributary.server.status.LagHistoryView;
import dev.tributary.server.status.PageRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api/console} over a real server whose time is a ManualClock: one snapshot per call,
 * {@code since=} increments, {@code table=} with the round history, and a lag history that is still
 * there after a restart.
 */
class ConsoleApiITCase {
    private static final TablePath EVENTS = TablePath.of("lake", "events");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    private TributaryServer start() {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        // the metronome ticks every 100 ms of real time; samples are due by the manual clock
        conf.setString("server.http.lag-history.interval", "100ms");
        conf.setString("server.http.lag-history.retention", "1h");
        conf.setString("server.http.lag-history.save-interval", "1min");
        return TributaryServer.start(conf, clock, List.of());
    }

    @Test
    @DisplayName(
            "T43: one call is one snapshot: summary, tables and history up to the same instant;"
                    + " since= gives only newer samples; table= adds the round history")
    void oneSnapshotPerRefreshAndIncrementalHistory() throws Exception {
        try (TributaryServer server = start();
                Connection conn = Connection.open(server.rpcTarget())) {
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            conn.admin().createDatabase("lake", false);
            createLakeTable(conn);
            writeRows(conn, 10);
            long appendedAt = clock.currentTimeMillis();

            clock.advance(Duration.ofSeconds(20));
            long first = clock.currentTimeMillis();
            JsonNode snap = awaitSampleAt(base, "", first);
            JsonNode table = snap.get("tables").get(0);
            assertThat(snap.get("timeMillis").asLong()).isEqualTo(first);
            assertThat(snap.get("summary").get("tables").asInt()).isEqualTo(1);
            assertThat(table.get("table").asText()).isEqualTo("lake.events");
            // the table's lag is measured at the snapshot's instant, on the server's clock
            assertThat(table.get("lagMillis").asLong()).isEqualTo(first - appendedAt);
            assertThat(table.get("lagRecords").asLong()).isEqualTo(10);
            long epoch = table.get("epoch").asLong();
            assertThat(table.get("epochText").asText()).isEqualTo(EpochFormat.format(epoch));
            assertThat(table.has("rounds")).as("the overview leaves rounds out").isFalse();
            assertThat(table.has("endOffsets")).as("and the offsets per bucket").isFalse();
            assertThat(snap.get("page").get("total").asInt()).isEqualTo(1);
            assertThat(snap.get("page").get("limit").asInt()).isEqualTo(PageRequest.DEFAULT_LIMIT);
            JsonNode series = snap.get("history").get("series").get(0);
            assertThat(longs(series.get("timeMillis")))
                    .allSatisfy(t -> assertThat(t).isLessThanOrEqualTo(first));
            assertThat(snap.get("history").get("lastSampleMillis").asLong()).isEqualTo(first);

            // nothing new since the last sample: an empty increment
            JsonNode none = console(base, "?since=" + first);
            assertThat(none.get("history").get("series").get(0).get("timeMillis")).isEmpty();
            assertThat(none.get("history").get("lastSampleMillis").asLong()).isEqualTo(first);

            clock.advance(Duration.ofSeconds(20));
            long second = clock.currentTimeMillis();
            JsonNode next = awaitSampleAt(base, "?since=" + first, second);
            JsonNode inc = next.get("history").get("series").get(0);
            assertThat(longs(inc.get("timeMillis"))).containsExactly(second);
            assertThat(longs(inc.get("lagMillis"))).containsExactly(second - appendedAt);

            JsonNode one = console(base, "?table=lake.events&since=" + first);
            assertThat(one.get("tables")).hasSize(1);
            assertThat(one.get("tables").get(0).get("rounds").isArray()).isTrue();
            assertThat(one.get("summary").get("tables").asInt()).isEqualTo(1);

            // past the last table: an empty page with the totals
            JsonNode beyond = console(base, "?offset=1&limit=10");
            assertThat(beyond.get("tables")).isEmpty();
            assertThat(beyond.get("history").get("series")).isEmpty();
            assertThat(beyond.get("summary").get("tables").asInt()).isEqualTo(1);
            HttpResponse<String> tooMany = get(base + "/api/console?limit=100000");
            assertThat(tooMany.statusCode()).isEqualTo(400);
            assertThat(tooMany.body()).contains("limit='100000'", "1 to " + PageRequest.MAX_LIMIT);

            HttpResponse<String> missing = get(base + "/api/console?table=lake.nope");
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(missing.body()).contains("lake.nope", "not a lake table");
            HttpResponse<String> bad = get(base + "/api/console?since=yesterday");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).contains("since='yesterday'", "lastSampleMillis");
        }
    }

    @Test
    @DisplayName("T43: the lag history is saved by the clock and is still there after a restart")
    void historySurvivesARestart() throws Exception {
        List<Long> times = new ArrayList<>();
        List<Long> lags = new ArrayList<>();
        try (TributaryServer server = start();
                Connection conn = Connection.open(server.rpcTarget())) {
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            conn.admin().createDatabase("lake", false);
            createLakeTable(conn);
            writeRows(conn, 5);
            // three samples within the first minute, so no save is due while they are taken
            for (int i = 0; i < 3; i++) {
                clock.advance(Duration.ofMillis(19_990));
                awaitSampleAt(base, "", clock.currentTimeMillis());
            }
            long newest = clock.currentTimeMillis();
            // a save is now due by the clock (a minute since start) but no sample is (40 ms is
            // under half the sampling interval), so whichever of the two ticks runs first, the
            // save holds all three: the file has them even if the server never shuts down cleanly
            clock.advance(Duration.ofMillis(40));
            LagHistoryFile file =
                    new LagHistoryFile(
                            dir.resolve("status").resolve(TributaryServer.LAG_HISTORY_FILE));
            await().atMost(Duration.ofSeconds(30)).until(() -> lastTime(file) == newest);
            JsonNode before = console(base, "");
            JsonNode s = before.get("history").get("series").get(0);
            for (int i = 0; i < s.get("timeMillis").size(); i++) {
                times.add(s.get("timeMillis").get(i).asLong());
                lags.add(s.get("lagMillis").get(i).asLong());
            }
            assertThat(times).hasSizeGreaterThanOrEqualTo(3);
        }

        clock.advance(Duration.ofSeconds(10));
        try (TributaryServer server = start()) {
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            JsonNode after = awaitSampleAt(base, "", clock.currentTimeMillis());
            JsonNode s = after.get("history").get("series").get(0);
            assertThat(s.get("table").asText()).isEqualTo("lake.events");
            List<Long> t = longs(s.get("timeMillis"));
            List<Long> l = longs(s.get("lagMillis"));
            // the old samples, unchanged, then the first one of the new run
            assertThat(t.subList(0, times.size())).isEqualTo(times);
            assertThat(l.subList(0, lags.size())).isEqualTo(lags);
            assertThat(t.get(t.size() - 1)).isEqualTo(clock.currentTimeMillis());
        }
    }

    private static long lastTime(LagHistoryFile file) throws Exception {
        List<LagHistoryView.Series> s = file.read();
        if (s.isEmpty() || s.get(0).timeMillis().length == 0) {
            return -1;
        }
        long[] t = s.get(0).timeMillis();
        return t[t.length - 1];
    }

    private JsonNode awaitSampleAt(String base, String query, long time) {
        return await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> console(base, query),
                        snap -> {
                            JsonNode series = snap.get("history").get("series");
                            if (series.isEmpty()) {
                                return false;
                            }
                            JsonNode t = series.get(0).get("timeMillis");
                            return t.size() > 0 && t.get(t.size() - 1).asLong() == time;
                        });
    }

    private JsonNode console(String base, String query) throws Exception {
        HttpResponse<String> r = get(base + "/api/console" + query);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void createLakeTable(Connection conn) {
        conn.admin()
                .createTable(
                        EVENTS,
                        TableDescriptor.builder(
                                        Schema.newBuilder()
                                                .column("id", DataTypes.BIGINT())
                                                .build())
                                .bucketCount(2)
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", "1h")
                                .build(),
                        false);
    }

    private static void writeRows(Connection conn, int n) {
        try (AppendWriter w = conn.appendWriter(EVENTS)) {
            for (long i = 0; i < n; i++) {
                w.append(Row.of(i));
            }
            w.flush();
        }
    }

    private static List<Long> longs(JsonNode array) {
        List<Long> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asLong()));
        return out;
    }
}

package dev.tributary.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TieringOverview;
import dev.tributary.server.TestServers;
import dev.tributary.server.TributaryServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server shows where its lake lives (format, catalog, warehouse) in {@code /api/tiering},
 * {@code /api/console} and the tiering status RPC, and never the credentials it was given.
 */
class LakeLocationITCase {
    private static final String SECRET = "lake-secret-5e1d";
    @TempDir Path dir;

    @Test
    void t46_statusShowsTheCatalogAndWarehouseButNoCredential() throws Exception {
        String warehouse = dir.resolve("lake").toUri().toString();
        try (TributaryServer server =
                        TestServers.start(
                                dir.resolve("data"),
                                Map.of(
                                        "datalake.format",
                                        "paimon",
                                        "datalake.paimon.warehouse",
                                        warehouse,
                                        // unused by a local warehouse; present as a user would
                                        // leave them
                                        "datalake.paimon.s3.access-key",
                                        "AKIATEST",
                                        "datalake.paimon.s3.secret-key",
                                        SECRET));
                Connection conn = Connection.open(server.rpcTarget())) {
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            HttpClient http = HttpClient.newHttpClient();
            String tiering = get(http, base + "/api/tiering");
            String console = get(http, base + "/api/console");
            JsonNode lake = new ObjectMapper().readTree(tiering).get("lake");
            assertThat(lake.get("format").asText()).isEqualTo("paimon");
            assertThat(lake.get("catalog").asText()).isEqualTo("filesystem");
            assertThat(lake.get("warehouse").asText()).isEqualTo(warehouse);
            assertThat(new ObjectMapper().readTree(console).at("/summary/lake/warehouse").asText())
                    .isEqualTo(warehouse);

            TieringOverview o = conn.admin().tieringStatus();
            assertThat(o.lakeLocation())
                    .contains(new TieringOverview.LakeLocation("paimon", "filesystem", warehouse));
            assertThat(tiering + console + o).doesNotContain(SECRET);
        }
        // nor in anything the server wrote to its data directory: metadata, the lag history
        try (var files = Files.walk(dir.resolve("data"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(
                                new String(
                                        Files.readAllBytes(f),
                                        java.nio.charset.StandardCharsets.ISO_8859_1))
                        .as(f.toString())
                        .doesNotContain(SECRET);
            }
        }
    }

    private static String get(HttpClient http, String url) throws Exception {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(url).isEqualTo(200);
        return r.body();
    }
}

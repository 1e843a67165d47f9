package dev.tributary.cli.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.cli.embedded.EmbeddedTieringExtension;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableTieringStatus;
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
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The web console (T43) in a real headless Chromium, against a real server with embedded tiering
 * (Flink MiniCluster, Paimon warehouse) whose time is a ManualClock: the overview's tables, plots,
 * jobs and layout, a table page with its committed rounds, and a table whose rounds fail because
 * another engine dropped its lake table. Screenshots land in {@code
 * cli/target/console-screenshots/}.
 */
class ConsoleBrowserITCase {
    private static final TablePath CLICKS = TablePath.of("shop", "clicks");
    private static final TablePath BROKEN = TablePath.of("shop", "broken");
    private static final int WIDTH = 1366;
    private static final int HEIGHT = 768;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    // near real time: the Flink job measures its own timeouts on the wall clock
    private final ManualClock clock = new ManualClock(System.currentTimeMillis());

    @Test
    @DisplayName(
            "T43 T28: the console in Chromium shows tables, lag plots with every sample, jobs, a"
                    + " table's rounds with files and lake snapshots, and a failing table's message")
    void consoleInARealBrowser() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("data").toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("datalake.format", "paimon");
        conf.setString("tiering.embedded.parallelism", "1");
        // the manual clock jumps: a job must not look dead because the test moved time
        conf.setString("tiering.heartbeat.timeout", "1h");
        // a failed table stays failed, with a retry time, while the browser looks at it
        conf.setString("tiering.failure.backoff.base", "2min");
        conf.setString("server.http.lag-history.interval", "1s");
        try (TributaryServer server =
                        TributaryServer.start(
                                conf, clock, List.of(new EmbeddedTieringExtension()));
                Connection conn = Connection.open(server.rpcTarget())) {
            String base = "http://127.0.0.1:" + server.httpAddress().orElseThrow().getPort();
            conn.admin().createDatabase("shop", false);
            createLakeTable(conn, CLICKS);
            createLakeTable(conn, BROKEN);
            write(conn, CLICKS, 300);
            write(conn, BROKEN, 200);
            dropPaimonTable(server.dataDir().resolve("lake"), BROKEN);

            // the lag grows while no round is due...
            for (int i = 0; i < 4; i++) {
                step(base, Duration.ofSeconds(2));
            }
            // ...both tables become due: clicks commits, broken fails
            step(base, Duration.ofSeconds(3));
            TableTieringStatus committed =
                    await().atMost(Duration.ofSeconds(90))
                            .until(
                                    () -> conn.admin().tieringStatus(CLICKS),
                                    s ->
                                            s.state().equals("SCHEDULED")
                                                    && s.recentRounds().stream()
                                                            .anyMatch(
                                                                    r ->
                                                                            r.outcome()
                                                                                    .equals(
                                                                                            "COMMITTED")));
            TableTieringStatus failing =
                    await().atMost(Duration.ofSeconds(90))
                            .until(
                                    () -> conn.admin().tieringStatus(BROKEN),
                                    s -> s.state().equals("FAILED") && s.failures() > 0);
            // ...and the lag of the committed table drops: the sawtooth's first tooth
            for (int i = 0; i < 3; i++) {
                step(base, Duration.ofSeconds(1));
            }
            JsonNode api = console(base, "");
            int clickSamples = samples(api, "shop.clicks");
            assertThat(clickSamples).isGreaterThanOrEqualTo(8);

            ChromeDriver browser = HeadlessChromium.start(dir, WIDTH, HEIGHT);
            try {
                File shots = HeadlessChromium.screenshotDir();
                browser.get(base + "/");
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> plotted(browser, "shop.clicks") == clickSamples);
                onAStableRender(() -> checkOverview(browser, api, committed, failing));
                save(browser, shots, "overview.png");

                // the overview shows a page of tables (?offset=N): from the second table on,
                // with where the page is and a link back
                browser.get(base + "/?offset=1");
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> !browser.findElements(By.id("page")).isEmpty());
                onAStableRender(
                        () -> {
                            assertThat(browser.findElement(By.id("page")).getText())
                                    .isEqualTo("tables 2\u20132 of 2");
                            assertThat(browser.findElements(By.cssSelector("#tables tbody tr")))
                                    .extracting(r -> r.getAttribute("data-table"))
                                    .containsExactly("shop.clicks");
                        });
                browser.findElement(By.id("prev")).click();
                await().atMost(Duration.ofSeconds(30))
                        .until(
                                () ->
                                        browser.findElements(By.cssSelector("#tables tbody tr"))
                                                        .size()
                                                == 2);
                assertThat(browser.findElements(By.id("page"))).isEmpty();

                browser.findElement(By.linkText("shop.clicks")).click();
                await().atMost(Duration.ofSeconds(30))
                        .until(
                                () ->
                                        browser.findElements(By.cssSelector("#rounds tbody tr"))
                                                        .size()
                                                > 0);
                assertThat(browser.getCurrentUrl()).endsWith("/tables/shop.clicks");
                onAStableRender(() -> checkCommittedTable(browser, committed, clickSamples));
                save(browser, shots, "table.png");

                // the page asks only for newer samples and adds them to its plot
                step(base, Duration.ofSeconds(1));
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> plotted(browser, "shop.clicks") == clickSamples + 1);

                browser.get(base + "/tables/shop.broken");
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> !browser.findElements(By.id("failures")).isEmpty());
                onAStableRender(() -> checkFailingTable(browser, failing));
                save(browser, shots, "failing-table.png");

                assertNoBrowserErrors(browser);
            } finally {
                browser.quit();
            }
        }
    }

    private void checkOverview(
            ChromeDriver browser,
            JsonNode api,
            TableTieringStatus committed,
            TableTieringStatus failing) {
        assertThat(browser.findElement(By.id("summary")).getText())
                .contains("2 lake tables", "1 failing", "1 of 1 jobs live");
        List<WebElement> rows = browser.findElements(By.cssSelector("#tables tbody tr"));
        assertThat(rows)
                .extracting(r -> r.getAttribute("data-table"))
                .containsExactly("shop.broken", "shop.clicks");

        List<String> clicks = cells(browser, "shop.clicks");
        assertThat(clicks.get(0)).isEqualTo("shop.clicks");
        assertThat(clicks.get(1)).isEqualTo("SCHEDULED");
        // the epoch people read, never the raw durable number
        assertThat(clicks.get(2))
                .matches("\\d+:\\d+")
                .isEqualTo(EpochFormat.format(tableOf(api, "shop.clicks").get("epoch").asLong()));
        assertThat(String.join(" ", clicks))
                .doesNotContain(Long.toString(tableOf(api, "shop.clicks").get("epoch").asLong()));

        List<String> broken = cells(browser, "shop.broken");
        assertThat(broken.get(1)).isEqualTo("FAILED");
        assertThat(broken.get(9)).startsWith(failing.failures() + " / ");
        WebElement lastFailure =
                browser.findElements(By.cssSelector("#tables tr[data-table='shop.broken'] td"))
                        .get(10);
        assertThat(lastFailure.getAttribute("title"))
                .isEqualTo(failing.lastFailure().orElseThrow());
        assertThat(broken.get(11)).startsWith("retry ");
        // the tiering planner's verdict (T44), from the same snapshot
        JsonNode verdict = api.get("plan").get("tables").get("shop.clicks");
        assertThat(clicks.get(12)).isEqualTo(verdict.get("text").asText());
        assertThat(clicks.get(12)).matches("met at p99|missed by .+ at p99.*");

        // every sample of the history is a point, left to right in time, higher for more lag
        JsonNode series = seriesOf(api, "shop.clicks");
        List<double[]> points = points(browser, ".chart[data-table='shop.clicks'] polyline.lag");
        assertThat(points).hasSize(series.get("timeMillis").size());
        for (int i = 1; i < points.size(); i++) {
            assertThat(points.get(i)[0]).isGreaterThan(points.get(i - 1)[0]);
        }
        JsonNode lag = series.get("lagMillis");
        for (int i = 0; i < points.size(); i++) {
            for (int j = 0; j < points.size(); j++) {
                if (lag.get(i).asLong() > lag.get(j).asLong()) {
                    assertThat(points.get(i)[1])
                            .as("sample %d above %d", i, j)
                            .isLessThan(points.get(j)[1]);
                }
            }
        }
        assertThat(
                        browser.findElements(
                                By.cssSelector(".chart[data-table='shop.clicks'] line.fresh")))
                .hasSize(1);
        assertThat(committed.lastRound()).isPresent();

        List<WebElement> jobs = browser.findElements(By.cssSelector("#jobs tbody tr"));
        assertThat(jobs).hasSize(1);
        assertThat(jobs.get(0).findElements(By.tagName("td")).get(3).getText()).isEqualTo("yes");
        // T50: the coordinator's replication health under the cluster's heading
        assertThat(browser.findElement(By.id("cluster-replication")).getText())
                .matches("[1-9][0-9]* buckets · 0 under-replicated · 0 without a leader");

        // fits a laptop screen: nothing wider than the window
        long scrollWidth =
                (Long)
                        ((JavascriptExecutor) browser)
                                .executeScript("return document.documentElement.scrollWidth");
        long clientWidth =
                (Long)
                        ((JavascriptExecutor) browser)
                                .executeScript("return document.documentElement.clientWidth");
        assertThat(scrollWidth).isLessThanOrEqualTo(clientWidth);
        assertThat(browser.findElement(By.id("error")).getText()).isEmpty();
    }

    private void checkCommittedTable(
            ChromeDriver browser, TableTieringStatus committed, int samples) {
        TableTieringStatus.Round round =
                committed.recentRounds().stream()
                        .filter(r -> r.outcome().equals("COMMITTED"))
                        .reduce((a, b) -> b)
                        .orElseThrow();
        WebElement row =
                browser.findElement(
                        By.cssSelector("#rounds tr[data-round='" + round.roundId() + "']"));
        List<String> c =
                row.findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
        assertThat(c.get(1)).isEqualTo(EpochFormat.format(round.epoch()));
        assertThat(c.get(2)).isEqualTo("COMMITTED");
        assertThat(c.get(5)).isEqualTo(Long.toString(round.rows())).isEqualTo("300");
        assertThat(Long.parseLong(c.get(7))).isEqualTo(round.files()).isPositive();
        assertThat(Long.parseLong(c.get(10))).isEqualTo(round.lakeSnapshotId()).isPositive();
        assertThat(c.get(9)).isEqualTo(round.forceFinished() ? "yes" : "no");
        assertThat(browser.findElement(By.id("facts")).getText())
                .contains("SCHEDULED", EpochFormat.format(committed.epoch()));
        assertThat(plotted(browser, "shop.clicks")).isEqualTo(samples);
        assertThat(browser.findElements(By.cssSelector("line.round-mark"))).isNotEmpty();
        assertThat(browser.findElements(By.id("failures"))).isEmpty();
        // T50: each bucket's one replica, on the lone server (id 0), leading and in sync
        assertThat(browser.findElement(By.id("replicas-summary")).getText())
                .isEqualTo("2 buckets · 0 under-replicated · 0 without a leader");
        List<String> bucket1 =
                browser
                        .findElement(By.cssSelector("#replicas tr[data-bucket='1']"))
                        .findElements(By.tagName("td"))
                        .stream()
                        .map(WebElement::getText)
                        .toList();
        assertThat(bucket1).containsExactly("1", "0", "0", "0", "0", "in sync");
    }

    private void checkFailingTable(ChromeDriver browser, TableTieringStatus failing) {
        String message = failing.lastFailure().orElseThrow();
        assertThat(browser.findElement(By.id("failures")).getText())
                .contains("failed in a row")
                .contains("retry ")
                .contains(message);
        WebElement failed =
                browser.findElement(By.cssSelector("#rounds tr[data-outcome='FAILED']"));
        List<WebElement> c = failed.findElements(By.tagName("td"));
        assertThat(c.get(2).getText()).isEqualTo("FAILED");
        assertThat(c.get(11).getText()).isNotBlank();
        assertThat(message).contains(c.get(11).getText().substring(0, 10));
    }

    private static void assertNoBrowserErrors(ChromeDriver browser) {
        List<String> severe = new ArrayList<>();
        for (LogEntry e : browser.manage().logs().get(LogType.BROWSER)) {
            if (e.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue()) {
                severe.add(e.getMessage());
            }
        }
        // a script error or a Content-Security-Policy refusal would show here
        assertThat(severe).as("browser console errors").isEmpty();
    }

    /** The whole page, not only the window, so a person sees what is below the fold too. */
    private static void save(ChromeDriver browser, File dir, String name) throws Exception {
        JavascriptExecutor js = browser;
        long width = (Long) js.executeScript("return document.documentElement.scrollWidth");
        long height = (Long) js.executeScript("return document.documentElement.scrollHeight");
        Map<String, Object> shot =
                browser.executeCdpCommand(
                        "Page.captureScreenshot",
                        Map.of(
                                "format",
                                "png",
                                "captureBeyondViewport",
                                true,
                                "clip",
                                Map.of(
                                        "x", 0, "y", 0, "width", width, "height", height, "scale",
                                        1)));
        Files.write(
                dir.toPath().resolve(name),
                java.util.Base64.getDecoder().decode((String) shot.get("data")));
    }

    private static List<String> cells(ChromeDriver browser, String table) {
        return browser
                .findElements(By.cssSelector("#tables tr[data-table='" + table + "'] td"))
                .stream()
                .map(WebElement::getText)
                .toList();
    }

    private static int plotted(ChromeDriver browser, String table) {
        List<WebElement> line =
                browser.findElements(
                        By.cssSelector(".chart[data-table='" + table + "'] polyline.lag"));
        try {
            return line.isEmpty() ? -1 : Integer.parseInt(line.get(0).getAttribute("data-samples"));
        } catch (StaleElementReferenceException rerendered) {
            return -1;
        }
    }

    /**
     * Runs checks that read several elements. The page replaces its view on every poll, so an
     * element found just before a refresh goes stale; the checks then run again on the new render
     * (the data is the same: the server's clock only moves when the test moves it).
     */
    private static void onAStableRender(Runnable checks) {
        for (int attempt = 1; ; attempt++) {
            try {
                checks.run();
                return;
            } catch (StaleElementReferenceException rerendered) {
                if (attempt == 5) {
                    throw rerendered;
                }
            }
        }
    }

    private static List<double[]> points(ChromeDriver browser, String css) {
        List<double[]> out = new ArrayList<>();
        for (String p :
                browser.findElement(By.cssSelector(css)).getAttribute("points").split(" ")) {
            String[] xy = p.split(",");
            out.add(new double[] {Double.parseDouble(xy[0]), Double.parseDouble(xy[1])});
        }
        return out;
    }

    /** Moves the server's clock and waits for the lag sample it makes due. */
    private void step(String base, Duration d) {
        clock.advance(d);
        long now = clock.currentTimeMillis();
        await().atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                console(base, "").get("history").get("lastSampleMillis").asLong()
                                        == now);
    }

    private JsonNode console(String base, String query) throws Exception {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(URI.create(base + "/api/console" + query)).build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static JsonNode tableOf(JsonNode api, String table) {
        for (JsonNode t : api.get("tables")) {
            if (t.get("table").asText().equals(table)) {
                return t;
            }
        }
        throw new AssertionError("no " + table + " in " + api);
    }

    private static JsonNode seriesOf(JsonNode api, String table) {
        for (JsonNode s : api.get("history").get("series")) {
            if (s.get("table").asText().equals(table)) {
                return s;
            }
        }
        throw new AssertionError("no series of " + table + " in " + api);
    }

    private static int samples(JsonNode api, String table) {
        return seriesOf(api, table).get("timeMillis").size();
    }

    private static void createLakeTable(Connection conn, TablePath path) {
        conn.admin()
                .createTable(
                        path,
                        TableDescriptor.builder(
                                        Schema.newBuilder()
                                                .column("id", DataTypes.BIGINT())
                                                .column("page", DataTypes.STRING())
                                                .build())
                                .bucketCount(2)
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", "10s")
                                .build(),
                        false);
    }

    private static void write(Connection conn, TablePath path, int rows) {
        try (AppendWriter w = conn.appendWriter(path)) {
            for (long i = 0; i < rows; i++) {
                w.append(Row.of(i, "/p/" + i));
            }
            w.flush();
        }
    }

    /** Another engine drops the lake table: every round of the table fails from now on. */
    private static void dropPaimonTable(Path warehouse, TablePath path) throws Exception {
        Options options =
                Options.fromMap(
                        Map.of(
                                "warehouse",
                                warehouse.toUri().toString(),
                                "cache-enabled",
                                "false"));
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            catalog.dropTable(Identifier.create(path.database(), path.table()), false);
        }
    }
}

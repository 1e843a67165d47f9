package dev.tributary.tiering.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.io.ObjectStoreCounts;
import dev.tributary.lake.api.io.ObjectStoreRequest;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import dev.tributary.lake.api.testing.IcebergRestCatalogServer;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.testutil.TestSchemas;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T47 end to end: the real server with the embedded tiering job writes an Iceberg table on S3
 * (s3proxy) behind Iceberg's REST catalog; the object-store requests of each round, as the server
 * cuts them out of the process's counts, do not grow with the table's age, files or snapshots.
 */
class ObjectStoreRequestsITCase {
    private static final int ROUNDS = 30;

    /** Requests a late round may cost more than an early one (a retry, a refresh). */
    private static final long BOUND = 4;

    @TempDir Path dir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private S3Server s3;
    private IcebergRestCatalogServer rest;
    private TributaryServer server;
    private Connection conn;

    @AfterEach
    void tearDown() throws Exception {
        if (conn != null) {
            conn.close();
        }
        if (server != null) {
            server.close();
        }
        if (rest != null) {
            rest.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void t47_aRoundsRequestCountDoesNotGrowWithTheTablesAgeOrSnapshots() throws Exception {
        s3 = S3Server.start(dir.resolve("s3"), S3Lake.BUCKET);
        rest = IcebergRestCatalogServer.startOnS3(dir.resolve("rest"), S3Lake.WAREHOUSE, s3);
        server =
                S3Lake.startServer(
                        dir.resolve("server"), seed, S3Lake.icebergOnS3(rest, s3.endpoint()));
        conn = Connection.open(server.rpcTarget());
        conn.admin().createDatabase("shop", true);
        TablePath clicks = TablePath.of("shop", "clicks");
        conn.admin()
                .createTable(
                        clicks,
                        TableDescriptor.builder(TestSchemas.LOG)
                                .bucketCount(4)
                                .property("table.datalake.enabled", "true")
                                .property("table.datalake.freshness", "500ms")
                                // every round adds files and a snapshot that stay: the table ages
                                .property("table.datalake.auto-compaction", "false")
                                .property("table.datalake.compaction.interval", "1h")
                                .build(),
                        false);

        // one batch per round: written, then tiered completely before the next
        List<ObjectStoreCounts> singleRounds = new ArrayList<>();
        List<Integer> batchOfRound = new ArrayList<>();
        try (AppendWriter log = conn.appendWriter(clicks)) {
            for (int batch = 1; batch <= ROUNDS; batch++) {
                long roundsBefore = server.objectStoreCosts().roundCount(clicks);
                List<CompletableFuture<?>> acks = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    long id = random.nextLong();
                    acks.add(log.append(Row.of(id, "click-" + id)));
                }
                log.flush();
                CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                await().atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> caughtUp(clicks));
                long rounds = server.objectStoreCosts().roundCount(clicks) - roundsBefore;
                if (rounds == 1) {
                    singleRounds.add(server.objectStoreCosts().lastRound(clicks));
                    batchOfRound.add(batch);
                }
            }
        }
        for (int i = 0; i < singleRounds.size(); i++) {
            System.out.printf(
                    "t47 round of batch %d: %s%n", batchOfRound.get(i), singleRounds.get(i));
        }
        System.out.println("t47 cumulative: " + ObjectStoreRequests.global().snapshot(clicks));
        System.out.println("t47 view: " + server.objectStoreCosts().view(clicks));

        // an early round (not the first: it creates what every later one reuses) and the last
        ObjectStoreCounts early = roundOf(singleRounds, batchOfRound, 3, 8);
        ObjectStoreCounts late = roundOf(singleRounds, batchOfRound, ROUNDS - 4, ROUNDS);
        assertThat(early.requests(ObjectStoreRequest.PUT))
                .as("an early round writes its data files (seed %d)", seed)
                .isPositive();
        assertThat(late.totalRequests())
                .as("round %s vs round %s (seed %d)", late, early, seed)
                .isLessThanOrEqualTo(early.totalRequests() + BOUND);
        assertThat(late.requests(ObjectStoreRequest.LIST))
                .as("no listing in a round (seed %d)", seed)
                .isZero();
        // the metrics endpoint carries the table's cumulative counts
        String metrics = http("/metrics");
        assertThat(metrics)
                .contains(
                        "tributary_lake_objectstore_requests_total{kind=\"put\",table=\"shop.clicks\"}");
        // and the table's status view its last round and totals
        com.fasterxml.jackson.databind.JsonNode view =
                new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(http("/api/tiering?table=shop.clicks"))
                        .get("objectStore");
        assertThat(view.at("/last_round/requests").asLong())
                .isEqualTo(server.objectStoreCosts().lastRound(clicks).totalRequests());
        assertThat(view.at("/total/by_kind/put").asLong()).isPositive();
    }

    /** The last single-round batch in [from, to]. */
    private static ObjectStoreCounts roundOf(
            List<ObjectStoreCounts> rounds, List<Integer> batches, int from, int to) {
        for (int i = rounds.size() - 1; i >= 0; i--) {
            if (batches.get(i) >= from && batches.get(i) <= to) {
                return rounds.get(i);
            }
        }
        throw new AssertionError(
                "no batch in [" + from + ", " + to + "] was tiered in one round: " + batches);
    }

    private boolean caughtUp(TablePath path) {
        TableTieringStatus s = conn.admin().tieringStatus(path);
        return s.lagRecords().isPresent() && s.lagRecords().getAsLong() == 0;
    }

    private String http(String path) throws IOException, InterruptedException {
        var address = server.httpAddress().orElseThrow();
        HttpResponse<String> r =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:"
                                                                + address.getPort()
                                                                + path))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        return r.body();
    }
}

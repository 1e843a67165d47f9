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
import dev.tributary.lake.api.testing.S3FaultProxy;
import dev.tributary.lake.api.testing.S3FaultProxy.Action;
import dev.tributary.lake.api.testing.S3FaultProxy.Fault;
import dev.tributary.lake.api.testing.S3Server;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.testutil.TestSchemas;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T47 with T22 and T23 end to end: between the server (with its embedded job) and the S3 server
 * sits {@link S3FaultProxy}, injecting into the requests of one Iceberg table only 503 SlowDown,
 * latency spikes, connection resets and failed multipart uploads. That table's rounds retry or fail
 * and retry; the other table keeps committing; every written row lands in the lake once; and once
 * swept the bucket holds no object under the tables that nothing they retain references.
 */
class ObjectStoreFaultsITCase {
    /** Iceberg's smallest part: data files over 1.5 parts go up as multipart uploads. */
    private static final int PART = 5 << 20;

    @TempDir Path dir;

    /** {@code -Dt47.seed=} replays a run; {@code -Dt47.batches=} (8) sets phase 1's length. */
    private final long seed = Long.getLong("t47.seed", new Random().nextLong());

    private final Random random = new Random(seed);
    private S3Server s3;
    private IcebergRestCatalogServer rest;
    private S3FaultProxy proxy;
    private TributaryServer server;
    private Connection conn;
    private final TablePath victim = TablePath.of("shop", "victim");
    private final TablePath steady = TablePath.of("shop", "steady");
    private final List<Long> written = new ArrayList<>();
    private final List<Long> writtenSteady = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        if (conn != null) {
            conn.close();
        }
        if (server != null) {
            server.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (rest != null) {
            rest.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void t47_t22_t23_throttlingResetsLatencyAndAFailedMultipartUploadFailOnlyThatTablesRounds()
            throws Exception {
        System.out.println("t47 seed " + seed);
        s3 = S3Server.start(dir.resolve("s3"), S3Lake.BUCKET);
        rest = IcebergRestCatalogServer.startOnS3(dir.resolve("rest"), S3Lake.WAREHOUSE, s3);
        proxy = S3FaultProxy.start(s3);
        Map<String, String> conf = new HashMap<>(S3Lake.icebergOnS3(rest, proxy.endpoint()));
        conf.put("datalake.iceberg.s3.multipart.part-size-bytes", Integer.toString(PART));
        conf.put("datalake.iceberg.s3.retry.num-retries", "3");
        conf.put("datalake.iceberg.s3.retry.min-wait-ms", "50");
        conf.put("datalake.iceberg.s3.retry.max-wait-ms", "500");
        conf.put("tiering.failure.backoff.base", "200ms");
        conf.put("tiering.failure.backoff.max", "1s");
        server = S3Lake.startServer(dir.resolve("server"), seed, conf);
        conn = Connection.open(server.rpcTarget());
        conn.admin().createDatabase("shop", true);
        conn.admin().createTable(victim, table(1), false);
        conn.admin().createTable(steady, table(2), false);
        String victimPath = "/" + S3Lake.BUCKET + "/wh/shop/victim/";

        // 1. throttling, resets and latency spikes on a third of the victim's requests
        Function<S3FaultProxy.Request, Fault> random =
                S3FaultProxy.random(seed, 0.15, 0.08, 0.1, 300);
        proxy.rule(r -> r.path().startsWith(victimPath) ? random.apply(r) : Fault.FORWARD);
        try (AppendWriter v = conn.appendWriter(victim);
                AppendWriter s = conn.appendWriter(steady)) {
            for (int batch = 0; batch < Integer.getInteger("t47.batches", 8); batch++) {
                append(v, written, 100, 16);
                append(s, writtenSteady, 100, 16);
                awaitCaughtUp(victim);
                awaitCaughtUp(steady);
            }
            long randomFaults = proxy.faults();
            System.out.printf(
                    "t47 faults of phase 1: %d (503 %d, reset %d, delay %d) of %d requests%n",
                    randomFaults,
                    proxy.count(Action.SLOW_DOWN),
                    proxy.count(Action.RESET),
                    proxy.count(Action.DELAY),
                    proxy.requests());
            assertThat(proxy.count(Action.SLOW_DOWN)).as("seed %d", seed).isPositive();
            assertThat(proxy.count(Action.RESET)).as("seed %d", seed).isPositive();

            // 2. every multipart upload of the victim fails to complete until the other table
            // has committed a round meanwhile and the victim has failed one
            AtomicBoolean failUploads = new AtomicBoolean(true);
            AtomicLong completesFailed = new AtomicLong();
            proxy.rule(
                    r -> {
                        if (r.path().startsWith(victimPath)
                                && r.isCompleteMultipart()
                                && failUploads.get()) {
                            completesFailed.incrementAndGet();
                            return Fault.RESET;
                        }
                        return Fault.FORWARD;
                    });
            long failedBefore = failedRounds(victim);
            System.out.println("t47 phase 2 starts");
            // ~24 MB of barely compressible text per burst: a round that takes a third of it
            // writes a data file over one part; rounds end at the table's freshness, so a round
            // may take only part of a burst: then more
            for (int i = 0; i < 6 && completesFailed.get() == 0; i++) {
                append(v, written, 24_000, 1_000);
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> completesFailed.get() > 0 || lag(victim) == 0);
            }
            assertThat(completesFailed.get())
                    .as("a multipart upload was failed (seed %d)", seed)
                    .isPositive();
            await().atMost(Duration.ofSeconds(180))
                    .until(() -> failedRounds(victim) > failedBefore);
            append(s, writtenSteady, 100, 16);
            awaitCaughtUp(steady); // T22: the other table's rounds go on
            assertThat(lag(victim)).as("the victim is still behind").isPositive();
            failUploads.set(false);
            awaitCaughtUp(victim);

            // 3. a last round of each after the faults: it sweeps what failed attempts left
            append(v, written, 10, 16);
            append(s, writtenSteady, 10, 16);
            awaitCaughtUp(victim);
            awaitCaughtUp(steady);
        }

        ObjectStoreCounts counts = ObjectStoreRequests.global().snapshot(victim);
        System.out.printf(
                "t47 faults in all: %d (503 %d, reset %d, delay %d) of %d requests; victim's"
                        + " requests %s%n",
                proxy.faults(),
                proxy.count(Action.SLOW_DOWN),
                proxy.count(Action.RESET),
                proxy.count(Action.DELAY),
                proxy.requests(),
                counts);
        assertThat(counts.requests(ObjectStoreRequest.MULTIPART_ABORT))
                .as("the failed uploads were aborted")
                .isPositive();
        assertThat(counts.requests(ObjectStoreRequest.MULTIPART_COMPLETE))
                .isGreaterThan(counts.requests(ObjectStoreRequest.MULTIPART_CREATE));

        try (S3IcebergCheck lake = new S3IcebergCheck(rest, s3)) {
            assertExactlyOnce(lake.ids(victim), written, "victim");
            assertExactlyOnce(lake.ids(steady), writtenSteady, "steady");
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () ->
                                    assertThat(lake.unreferencedObjects(victim))
                                            .as("objects no snapshot references (seed %d)", seed)
                                            .isEmpty());
            assertThat(lake.unreferencedObjects(steady)).isEmpty();
        }
    }

    private static TableDescriptor table(int buckets) {
        return TableDescriptor.builder(TestSchemas.LOG)
                .bucketCount(buckets)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "500ms")
                .property("table.datalake.auto-compaction", "false")
                .build();
    }

    private void append(AppendWriter w, List<Long> ids, int rows, int textBytes) throws Exception {
        List<CompletableFuture<?>> acks = new ArrayList<>();
        StringBuilder text = new StringBuilder(textBytes);
        for (int i = 0; i < rows; i++) {
            long id = random.nextLong();
            text.setLength(0);
            for (int c = 0; c < textBytes; c++) {
                text.append((char) ('!' + random.nextInt(90)));
            }
            ids.add(id);
            acks.add(w.append(Row.of(id, text.toString())));
        }
        w.flush();
        CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
    }

    private void assertExactlyOnce(List<Long> inLake, List<Long> expected, String what) {
        assertThat(inLake)
                .as("%s: every row once (seed %d)", what, seed)
                .hasSize(expected.size())
                .doesNotHaveDuplicates();
        assertThat(new HashSet<>(inLake)).isEqualTo(new HashSet<>(expected));
    }

    private void awaitCaughtUp(TablePath path) {
        await().atMost(Duration.ofSeconds(180))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> lag(path) == 0);
    }

    private long lag(TablePath path) {
        TableTieringStatus s = conn.admin().tieringStatus(path);
        return s.lagRecords().isPresent() ? s.lagRecords().getAsLong() : Long.MAX_VALUE;
    }

    private long failedRounds(TablePath path) {
        return conn.admin().tieringStatus(path).failures();
    }
}

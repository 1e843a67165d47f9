package dev.tributary.tiering.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.testutil.LakeLayout;
import dev.tributary.tiering.testutil.TestSchemas;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T36/T37 end to end: a real server with the tiering job embedded tiers a 12-bucket PK table into
 * Paimon and into Iceberg over several rounds. Read back with each format's own API: every round
 * added at most one data file per lake bucket, and only to buckets whose store offsets it advanced;
 * every live row sits in the lake bucket of its store bucket; a key filter opens only that key's
 * bucket; the lake equals what was written. A table created with Tributary's own hash (as before
 * T36) tiers into the same lake correctly, fanned out over the lake buckets, and its status carries
 * a warning.
 */
class LakeLayoutITCase {
    private static final Schema PK = TestSchemas.PK;
    private static final int BUCKETS = 12;

    @TempDir File dataDir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private TributaryServer server;
    private Connection conn;

    @AfterEach
    void tearDown() {
        if (conn != null) {
            conn.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void t36_t37_paimonPkRoundsWriteOneFilePerBucketAndReadsPruneByKey() throws Exception {
        tierAndCheck("paimon");
    }

    @Test
    void t36_t37_icebergPkRoundsWriteOneFilePerBucketAndReadsPruneByKey() throws Exception {
        tierAndCheck("iceberg");
    }

    private void tierAndCheck(String format) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dataDir.getAbsolutePath());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "0");
        conf.setString("datalake.format", format);
        conf.setString("tiering.embedded.parallelism", "2");
        conf.setString("tiering.split.shuffle-seed", Long.toString(seed));
        server =
                TributaryServer.start(
                        conf, Clock.system(), List.of(new EmbeddedTieringExtension()));
        conn = Connection.open(server.rpcTarget());
        conn.admin().createDatabase("shop", true);
        TablePath customers = TablePath.of("shop", "customers");
        TablePath legacy = TablePath.of("shop", "legacy");
        // Paimon: merge-on-read (write-only rounds, one file per bucket per round). A table with
        // deletion vectors (T48, the default) compacts its level 0 inside each round, in a
        // second snapshot of the round: PkFirstRoundITCase and PaimonDeletionVectorTest
        Map<String, String> mode =
                format.equals("paimon")
                        ? Map.of("table.datalake.pk-deletes", "equality")
                        : Map.of();
        TableInfo aligned = conn.admin().createTable(customers, lakeTable(mode), false);
        TableInfo fanOut =
                conn.admin()
                        .createTable(
                                legacy,
                                lakeTable(Map.of("table.bucket.function", "tributary")),
                                false);
        assertThat(BucketFunctionType.of(aligned.descriptor()))
                .as("a new table gets the lake format's function")
                .isEqualTo(BucketFunctionType.forLakeFormat(format));
        assertThat(BucketFunctionType.of(fanOut.descriptor()))
                .isEqualTo(BucketFunctionType.TRIBUTARY);

        Map<Long, Row> expected = new HashMap<>();
        try (UpsertWriter a = conn.upsertWriter(customers);
                UpsertWriter b = conn.upsertWriter(legacy)) {
            for (int burst = 0; burst < 4; burst++) {
                List<CompletableFuture<?>> acks = new ArrayList<>();
                for (int i = 0; i < 600; i++) {
                    long key = random.nextInt(1_500);
                    Row row = Row.of(key, "c" + key + "-" + burst, random.nextInt(1000));
                    boolean delete = expected.containsKey(key) && random.nextInt(6) == 0;
                    acks.add(delete ? a.delete(row) : a.upsert(row));
                    acks.add(delete ? b.delete(row) : b.upsert(row));
                    if (delete) {
                        expected.remove(key);
                    } else {
                        expected.put(key, row);
                    }
                }
                a.flush();
                b.flush();
                CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
                // let a round or two commit between bursts
                LockSupport.parkNanos(1_500_000_000L);
            }
        }

        LakeLayout lake = LakeLayout.of(format, new File(dataDir, "lake"));
        awaitCaughtUp(lake, aligned);
        awaitCaughtUp(lake, fanOut);
        String why = format + " (seed " + seed + ")";

        // T36, aligned table: one data file per lake bucket per round, only where data was new
        List<LakeLayout.Round> rounds = lake.rounds(customers);
        assertThat(rounds).as(why).isNotEmpty();
        Map<Integer, Long> before = Map.of();
        int files = 0;
        for (LakeLayout.Round r : rounds) {
            Map<Integer, Long> after = r.properties().bucketOffsets();
            for (Map.Entry<Integer, Integer> e : r.addedDataFilesPerLakeBucket().entrySet()) {
                assertThat(e.getValue())
                        .as("%s: round %s, lake bucket %s", why, r.snapshotId(), e.getKey())
                        .isEqualTo(1);
                assertThat(after.getOrDefault(e.getKey(), 0L))
                        .as("%s: a round writes only buckets it read new data of", why)
                        .isGreaterThan(before.getOrDefault(e.getKey(), 0L));
                files++;
            }
            before = after;
        }
        // every bucket got new data in every burst: at least one file per bucket in all
        assertThat(files).as(why).isGreaterThanOrEqualTo(BUCKETS);
        List<LakeLayout.PlacedRow> rows = lake.rows(customers, PK);
        for (LakeLayout.PlacedRow r : rows) {
            assertThat(r.lakeBucket())
                    .as("%s: store bucket b is lake bucket b, row %s", why, r.row())
                    .isEqualTo(r.storeBucket());
        }
        assertThat(userRows(rows)).as(why).containsExactlyInAnyOrderElementsOf(expected.values());

        // T37: the format's own planner opens only the key's bucket
        BucketFunction function = BucketFunction.of(aligned.descriptor());
        for (long key = 0; key < 1_500; key += 97) {
            Map<Integer, Integer> planned = lake.dataFilesPlannedFor(customers, "id", key);
            int bucket = function.bucketOf(Row.of(key, null, null));
            if (expected.containsKey(key)) {
                assertThat(planned.keySet()).as("%s: key %s", why, key).containsExactly(bucket);
            } else {
                // an absent key may be pruned further, by file statistics
                assertThat(planned.keySet()).as("%s: key %s", why, key).isSubsetOf(bucket);
            }
        }

        // Tributary's own hash: correct, but each split writes into many lake buckets
        List<LakeLayout.PlacedRow> legacyRows = lake.rows(legacy, PK);
        assertThat(userRows(legacyRows))
                .as(why)
                .containsExactlyInAnyOrderElementsOf(expected.values());
        assertThat(
                        legacyRows.stream()
                                .filter(
                                        r ->
                                                !Integer.valueOf(r.storeBucket())
                                                        .equals(r.lakeBucket())))
                .as("%s: rows of one store bucket land in other lake buckets", why)
                .hasSizeGreaterThan(legacyRows.size() / 2);
        int mostFilesInOneBucket =
                lake.rounds(legacy).stream()
                        .flatMap(r -> r.addedDataFilesPerLakeBucket().values().stream())
                        .max(Integer::compare)
                        .orElse(0);
        assertThat(mostFilesInOneBucket).as(why).isGreaterThan(1);
        assertThat(conn.admin().tieringStatus(legacy).warnings())
                .singleElement()
                .asString()
                .contains("'tributary' is not the lake format's ('" + format + "')");
        assertThat(conn.admin().tieringStatus(customers).warnings()).isEmpty();
        String json =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:"
                                                                + server.httpAddress()
                                                                        .orElseThrow()
                                                                        .getPort()
                                                                + "/api/tiering"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
        assertThat(json).contains("\"warnings\"").contains("is not the lake format's");
    }

    private static TableDescriptor lakeTable(Map<String, String> extra) {
        return TableDescriptor.builder(PK)
                .bucketCount(BUCKETS)
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "1s")
                .properties(extra)
                .build();
    }

    private static List<Row> userRows(List<LakeLayout.PlacedRow> rows) {
        return rows.stream().map(LakeLayout.PlacedRow::row).toList();
    }

    private void awaitCaughtUp(LakeLayout lake, TableInfo t) {
        Map<Integer, Long> ends = conn.tieringGateway().endOffsets(t.tableId());
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(300))
                .ignoreExceptions()
                .untilAsserted(
                        () -> {
                            Map<Integer, Long> committed = lake.committedOffsets(t.path());
                            for (Map.Entry<Integer, Long> e : ends.entrySet()) {
                                assertThat(committed.getOrDefault(e.getKey(), 0L))
                                        .as("%s bucket %d (seed %d)", t.path(), e.getKey(), seed)
                                        .isEqualTo(e.getValue());
                            }
                        });
    }
}

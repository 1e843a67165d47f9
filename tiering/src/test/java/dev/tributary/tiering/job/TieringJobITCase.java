package dev.tributary.tiering.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.tiering.testutil.ExactlyOnceVerifier;
import dev.tributary.tiering.testutil.InMemoryTieringService;
import dev.tributary.tiering.testutil.TestSchemas;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real tiering job on a Flink MiniCluster against an in-process tiering service holding real
 * log batches, writing real Paimon tables through the Paimon plugin, read back with Paimon's own
 * reader and checked by the exactly-once verifier.
 */
class TieringJobITCase {
    private static final Schema LOG_SCHEMA = TestSchemas.LOG;
    private static final Schema PK_SCHEMA = TestSchemas.PK;

    @TempDir File warehouse;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private LakeStorage lake;
    private InMemoryTieringService store;
    private EmbeddedTiering job;

    @BeforeEach
    void setUp() {
        lake = LakeStoragePlugins.open(lakeConfig());
        store = new InMemoryTieringService("it-" + seed, lake, Clock.system());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (job != null) {
            job.close();
        }
        store.unregister();
        lake.close();
    }

    private String format = "paimon";

    private Configuration lakeConfig() {
        return new Configuration()
                .setString("datalake.format", format)
                .setString("datalake." + format + ".warehouse", warehouse.getAbsolutePath());
    }

    /** Re-creates the store on an Iceberg warehouse (a directory named iceberg*). */
    private void useIceberg() {
        store.unregister();
        lake.close();
        format = "iceberg";
        warehouse = new File(warehouse, "iceberg-warehouse");
        lake = LakeStoragePlugins.open(lakeConfig());
        store = new InMemoryTieringService("it-iceberg-" + seed, lake, Clock.system());
    }

    private void startJob(int parallelism, Configuration tiering) throws Exception {
        Configuration conf = lakeConfig();
        tiering.toMap().forEach(conf::setString);
        conf.set(TieringOptions.SHUFFLE_SEED, seed);
        conf.set(TieringOptions.EMBEDDED_PARALLELISM, parallelism);
        job = EmbeddedTiering.start(store.factory(), conf);
    }

    private static TableDescriptor log(int buckets) {
        return TableDescriptor.builder(LOG_SCHEMA).bucketCount(buckets).build();
    }

    private static TableDescriptor pk(int buckets) {
        return TableDescriptor.builder(PK_SCHEMA).bucketCount(buckets).build();
    }

    private void appendLog(long tableId, int buckets, int rows) {
        for (int b = 0; b < buckets; b++) {
            List<Row> batch = new ArrayList<>();
            for (int i = 0; i < rows; i++) {
                long id = random.nextLong();
                batch.add(Row.of(id, "row-" + id));
            }
            store.bucket(tableId, b).appendLog(batch, System.currentTimeMillis());
        }
    }

    private void writePk(long tableId, int buckets, int keys) {
        for (int i = 0; i < keys; i++) {
            long key = random.nextInt(400);
            int b = (int) (key % buckets);
            boolean delete = random.nextInt(5) == 0;
            store.bucket(tableId, b)
                    .upsert(
                            List.of(Row.of(key, "k" + key, random.nextInt(1000))),
                            delete,
                            System.currentTimeMillis());
        }
    }

    private void awaitCaughtUp(long... tableIds) {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(
                        () -> {
                            for (long id : tableIds) {
                                assertThat(store.caughtUp(id))
                                        .as("table %d caught up (seed %d)", id, seed)
                                        .isTrue();
                            }
                        });
    }

    @Test
    void t6_t7_t8_logAndPkTablesTierExactlyOnceOverSeveralRoundsWhileWritesContinue()
            throws Exception {
        TablePath clicks = TablePath.of("demo", "clicks");
        TablePath customers = TablePath.of("demo", "customers");
        TablePath orders = TablePath.of("demo", "orders");
        Duration cadence = Duration.ofMillis(300);
        long clicksId = store.createTable(clicks, log(4), Duration.ofMinutes(1), cadence);
        // customers: first round from KV snapshots (T7); orders: PK without snapshot, from
        // changelog
        long customersId = store.createTable(customers, pk(3), Duration.ofMinutes(1), cadence);
        long ordersId = store.createTable(orders, pk(2), Duration.ofMinutes(1), cadence);
        appendLog(clicksId, 4, 500);
        writePk(customersId, 3, 600);
        for (int b = 0; b < 3; b++) {
            store.bucket(customersId, b).takeSnapshot();
        }
        writePk(customersId, 3, 100);
        writePk(ordersId, 2, 300);

        Configuration tiering = new Configuration();
        tiering.set(TieringOptions.SPLIT_MAX_RECORDS, 200L); // T5: buckets are cut into ranges
        startJob(2, tiering);

        AtomicBoolean stop = new AtomicBoolean();
        Thread writer =
                new Thread(
                        () -> {
                            for (int i = 0; i < 20 && !stop.get(); i++) {
                                appendLog(clicksId, 4, 50);
                                writePk(customersId, 3, 30);
                                writePk(ordersId, 2, 30);
                                java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
                            }
                        });
        writer.start();
        writer.join();
        awaitCaughtUp(clicksId, customersId, ordersId);

        assertThat(ExactlyOnceVerifier.verify(store, clicksId, clicks, log(4), warehouse))
                .isEqualTo(4 * (500 + 20 * 50));
        ExactlyOnceVerifier.verify(store, customersId, customers, pk(3), warehouse);
        ExactlyOnceVerifier.verify(store, ordersId, orders, pk(2), warehouse);
        assertThat(store.committedRounds().stream().filter(r -> r.tableId() == clicksId).count())
                .as("several rounds while writes continued")
                .isGreaterThan(1);
        assertThat(store.leasesTaken()).as("T9: snapshot reads hold leases").isEqualTo(3);
        assertThat(store.activeLeases()).isZero();
        assertThat(job.status()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void t6_t8_t29_icebergLogAndPkTablesTierExactlyOnce() throws Exception {
        useIceberg();
        TablePath events = TablePath.of("ice", "events");
        TablePath accounts = TablePath.of("ice", "accounts");
        Duration cadence = Duration.ofMillis(200);
        long eventsId = store.createTable(events, log(2), Duration.ofMinutes(1), cadence);
        long accountsId = store.createTable(accounts, pk(2), Duration.ofMinutes(1), cadence);
        appendLog(eventsId, 2, 300);
        writePk(accountsId, 2, 300);
        startJob(2, new Configuration());
        for (int round = 0; round < 2; round++) {
            awaitCaughtUp(eventsId, accountsId);
            appendLog(eventsId, 2, 100);
            writePk(accountsId, 2, 100);
        }
        awaitCaughtUp(eventsId, accountsId);
        assertThat(ExactlyOnceVerifier.verify(store, eventsId, events, log(2), warehouse))
                .isEqualTo(2 * 500);
        ExactlyOnceVerifier.verify(store, accountsId, accounts, pk(2), warehouse);
    }

    @Test
    void t26_twoJobsServeOneCoordinatorWithoutDuplicates() throws Exception {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            long id =
                    store.createTable(
                            TablePath.of("demo", "t" + i),
                            log(2),
                            Duration.ofMinutes(1),
                            Duration.ofMillis(100));
            appendLog(id, 2, 300);
            ids.add(id);
        }
        startJob(1, new Configuration());
        Configuration second = lakeConfig();
        second.set(TieringOptions.EMBEDDED_PARALLELISM, 1);
        second.set(TieringOptions.JOB_ID, "second-job");
        try (EmbeddedTiering other = EmbeddedTiering.start(store.factory(), second)) {
            for (int round = 0; round < 3; round++) {
                for (long id : ids) {
                    appendLog(id, 2, 100);
                }
                awaitCaughtUp(ids.stream().mapToLong(Long::longValue).toArray());
            }
        }
        for (int i = 0; i < 4; i++) {
            assertThat(
                            ExactlyOnceVerifier.verify(
                                    store,
                                    ids.get(i),
                                    TablePath.of("demo", "t" + i),
                                    log(2),
                                    warehouse))
                    .isEqualTo(2 * 600);
        }
        assertThat(store.committedJobs()).as("both jobs committed rounds").hasSize(2);
    }

    @Test
    void t13_roundsLongerThanFreshnessAreForceFinishedAndTheRestFollows() throws Exception {
        TablePath path = TablePath.of("demo", "slow");
        long id = store.createTable(path, log(2), Duration.ofMillis(700), Duration.ofMillis(50));
        appendLog(id, 2, 1_500);
        store.setReadDelayPerRecord(Duration.ofMillis(1));
        Configuration tiering = new Configuration();
        tiering.set(TieringOptions.READER_STEP_RECORDS, 64);
        startJob(2, tiering);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> store.committedRounds().stream().anyMatch(r -> r.forceFinished()));
        store.setReadDelayPerRecord(Duration.ZERO);
        awaitCaughtUp(id);
        assertThat(ExactlyOnceVerifier.verify(store, id, path, log(2), warehouse)).isEqualTo(3_000);
        var first = store.committedRounds().get(0);
        assertThat(first.forceFinished()).isTrue();
        assertThat(first.records())
                .as("a partial round commits what it read")
                .isBetween(1L, 2_999L);
    }

    @Test
    void t22_failuresOfOneTableDoNotStopOthersNorRestartTheJob() throws Exception {
        TablePath badPath = TablePath.of("demo", "bad");
        TablePath goodPath = TablePath.of("demo", "good");
        Duration cadence = Duration.ofMillis(200);
        long bad = store.createTable(badPath, log(2), Duration.ofMinutes(1), cadence);
        long good = store.createTable(goodPath, log(2), Duration.ofMinutes(1), cadence);
        appendLog(bad, 2, 300);
        appendLog(good, 2, 300);
        store.failReads(bad, 3);
        store.failCommits(bad, 1);
        startJob(2, new Configuration());
        awaitCaughtUp(good);
        appendLog(good, 2, 100);
        awaitCaughtUp(good, bad);
        assertThat(store.failedReports())
                .as("failed rounds were reported")
                .hasSizeGreaterThanOrEqualTo(2);
        assertThat(store.failedReports()).allSatisfy(r -> assertThat(r).startsWith(bad + "@"));
        assertThat(ExactlyOnceVerifier.verify(store, bad, badPath, log(2), warehouse))
                .isEqualTo(600);
        assertThat(ExactlyOnceVerifier.verify(store, good, goodPath, log(2), warehouse))
                .isEqualTo(800);
        assertThat(job.status()).isEqualTo(JobStatus.RUNNING);
    }
}

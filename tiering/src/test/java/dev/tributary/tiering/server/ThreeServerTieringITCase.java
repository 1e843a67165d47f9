package dev.tributary.tiering.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.testing.LoopbackPorts;
import dev.tributary.common.time.Clock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.server.ServerExtension;
import dev.tributary.server.TributaryServer;
import dev.tributary.tiering.testutil.FaultyReads;
import dev.tributary.tiering.testutil.LakeCheck;
import dev.tributary.tiering.testutil.TestSchemas;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T49: tiering across the servers of a cluster. Three real servers of one cluster in one JVM (Raft,
 * gRPC, heartbeats over loopback) share one lake warehouse; a log table and a primary-key table
 * have their buckets spread over the three. One server runs the embedded tiering job: it follows
 * the coordinator for its rounds and commits, reads each bucket's log and KV snapshots (under a
 * lease) from the server holding it, and the lake ends up with every record exactly once; every
 * server's retention learns the tiered offsets of its buckets.
 */
class ThreeServerTieringITCase {
    private static final TablePath CLICKS = TablePath.of("shop", "clicks");
    private static final TablePath CUSTOMERS = TablePath.of("shop", "customers");

    @TempDir File dir;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);
    private final List<TributaryServer> servers = new ArrayList<>();
    private File warehouse;
    private String format = "paimon";
    private String voters;

    @AfterEach
    void stopAll() {
        servers.forEach(TributaryServer::close);
    }

    @Test
    void t49_aJobTiersTheBucketsOfEveryServerExactlyOnce() throws Exception {
        startThree();
        LakeCheck lake = new LakeCheck(warehouse, seed);
        // the job's server is not necessarily the coordinator: connect where the job does
        try (Connection conn = Connection.open(servers.get(0).rpcTarget())) {
            awaitThreeAlive(conn);
            conn.admin().createDatabase("shop", false);
            TableInfo clicks = conn.admin().createTable(CLICKS, lakeTable(false), false);
            TableInfo customers = conn.admin().createTable(CUSTOMERS, lakeTable(true), false);
            assertThat(conn.admin().describeCluster().servers())
                    .as("every server holds buckets (seed %d)", seed)
                    .allSatisfy(s -> assertThat(s.buckets()).isPositive());
            write(conn, 0);
            lake.verifyCaughtUp(conn, clicks, Duration.ofSeconds(120));
            try {
                lake.verifyCaughtUp(conn, customers, Duration.ofSeconds(120));
            } catch (AssertionError e) {
                System.out.println("DIAG snapshots " + lake.tieringSnapshots(CUSTOMERS));
                System.out.println(
                        "DIAG ends " + conn.tieringGateway().endOffsets(customers.tableId()));
                System.out.println("DIAG rows " + lake.rows(CUSTOMERS, customers.schema()).size());
                throw e;
            }
            write(conn, 1);
            lake.verifyCaughtUp(conn, clicks, Duration.ofSeconds(120));
            lake.verifyCaughtUp(conn, customers, Duration.ofSeconds(120));
            // every server's retention learns the tiered offsets of the buckets it holds: the
            // coordinator's from its state, the others' from the tiering records they applied
            for (TableInfo t : List.of(clicks, customers)) {
                Map<Integer, Long> ends = conn.tieringGateway().endOffsets(t.tableId());
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(
                                () -> {
                                    for (TributaryServer s : servers) {
                                        for (Map.Entry<Integer, Long> e : ends.entrySet()) {
                                            TableBucket b =
                                                    new TableBucket(t.tableId(), e.getKey());
                                            long here = s.store().endOffset(b);
                                            if (here > 0) {
                                                assertThat(s.store().tieredOffset(b))
                                                        .as("%s on %s", b, s.dataDir())
                                                        .isEqualTo(here);
                                            }
                                        }
                                    }
                                });
            }
        }
        for (TributaryServer s : servers) {
            assertThat(s.fatalError()).as("server %s", s.dataDir()).isEmpty();
        }
    }

    @Test
    void t52_replicatedLogAndPrimaryKeyTablesAreTieredExactlyOnceAcrossALeaderChange()
            throws Exception {
        tieredAcrossALeaderChange();
    }

    /**
     * The same with Iceberg, whose primary-key rounds retract rows by position through each
     * server's lake row index (T48): the bucket's new leader has no entries for it, or old ones.
     */
    @Test
    void t52_iceberg_replicatedTablesAreTieredExactlyOnceAcrossALeaderChange() throws Exception {
        format = "iceberg";
        tieredAcrossALeaderChange();
    }

    /**
     * T52, T9: a primary-key table's first round reads KV snapshot splits; the server leading one
     * of the buckets stops after the round was planned on its snapshot and before that bucket's
     * split leases it (held at a gate), and the remaining servers keep only snapshots taken after
     * more writes. The split finds its snapshot gone, starts over on the newest snapshot of the
     * bucket's new leader, and the round commits without failing; the lake holds the table's state
     * exactly.
     */
    @Test
    void t52_aSnapshotSplitWhoseLeaderStopsStartsOverOnTheNewLeader() throws Exception {
        FaultyReads faults = new FaultyReads("three-servers-" + seed);
        try {
            startThree(
                    faults,
                    Map.of("kv.snapshot.interval", "100ms", "kv.snapshot.num-retained", "1"));
            LakeCheck lake = new LakeCheck(warehouse, format, seed);
            try (Connection conn = Connection.open(servers.get(0).rpcTarget())) {
                awaitThreeAlive(conn);
                conn.admin().createDatabase("shop", false);
                TableInfo customers =
                        conn.admin().createTable(CUSTOMERS, lakeTable(true, 3), false);
                TributaryServer coordinator =
                        servers.stream()
                                .filter(TributaryServer::coordinates)
                                .findFirst()
                                .orElseThrow();
                List<BucketReplicas> replicas = replicasOf(coordinator, customers.tableId());
                int bucket = 0;
                while (replicas.get(bucket).leader() == 1
                        || server(replicas.get(bucket).leader()) == coordinator) {
                    bucket++;
                }
                int stopping = replicas.get(bucket).leader();
                TableBucket gated = new TableBucket(customers.tableId(), bucket);
                faults.holdLeases(gated);
                upsertCustomers(conn);
                await().atMost(Duration.ofSeconds(60)).until(() -> faults.leaseWaiting(gated));

                server(stopping).close();
                int b = bucket;
                int newLeader =
                        await().atMost(Duration.ofSeconds(30))
                                .until(
                                        () -> replicasOf(coordinator, customers.tableId()).get(b),
                                        r -> r.leader() != stopping && r.leader() >= 0)
                                .leader();
                upsertCustomers(conn);
                TributaryServer leader = server(newLeader);
                await().atMost(Duration.ofSeconds(30))
                        .until(
                                () ->
                                        leader.store().listSnapshots(gated).stream()
                                                .allMatch(
                                                        s ->
                                                                s.logOffset()
                                                                        == leader.store()
                                                                                .endOffset(gated)));
                faults.releaseLeases(gated);

                lake.verifyCaughtUp(conn, customers, Duration.ofSeconds(120));
                assertThat(conn.admin().tieringStatus().tables())
                        .filteredOn(s -> s.path().equals(CUSTOMERS))
                        .singleElement()
                        .satisfies(
                                s ->
                                        assertThat(s.failures())
                                                .as("seed %d: %s", seed, s.lastFailure())
                                                .isZero());
                assertThat(faults.newestLeases())
                        .as("the gated split was granted the new leader's newest snapshot")
                        .isEqualTo(1);
                await().atMost(Duration.ofSeconds(30)).until(() -> faults.activeLeases() == 0);
            }
        } finally {
            faults.unregister();
        }
    }

    private void tieredAcrossALeaderChange() throws Exception {
        startThree();
        LakeCheck lake = new LakeCheck(warehouse, format, seed);
        try (Connection conn = Connection.open(servers.get(0).rpcTarget())) {
            awaitThreeAlive(conn);
            conn.admin().createDatabase("shop", false);
            TableInfo clicks =
                    conn.admin()
                            .createTable(
                                    CLICKS,
                                    TableDescriptor.builder(TestSchemas.LOG)
                                            .bucketCount(3)
                                            .property("table.replication.factor", "3")
                                            .property("table.datalake.enabled", "true")
                                            .property("table.datalake.freshness", "1s")
                                            .build(),
                                    false);
            TableInfo customers = conn.admin().createTable(CUSTOMERS, lakeTable(true, 3), false);
            appendClicks(conn, 0);
            upsertCustomers(conn);
            lake.verifyCaughtUp(conn, clicks, Duration.ofSeconds(120));
            lake.verifyCaughtUp(conn, customers, Duration.ofSeconds(120));

            // a server leading buckets of the table stops (not the job's, not the
            // coordinator's): its buckets get in-sync followers as leaders, the job reads there
            TributaryServer coordinator =
                    servers.stream().filter(TributaryServer::coordinates).findFirst().orElseThrow();
            List<BucketReplicas> before = replicasOf(coordinator, clicks.tableId());
            int stopping =
                    before.stream()
                            .map(BucketReplicas::leader)
                            .filter(id -> id != 1 && server(id) != coordinator)
                            .findFirst()
                            .orElseThrow();
            // the stop lands in the middle of a burst of writes, while rounds run
            CountDownLatch halfWritten = new CountDownLatch(1);
            CompletableFuture<Void> writing =
                    CompletableFuture.runAsync(
                            () -> {
                                appendClicks(conn, 1, halfWritten);
                                upsertCustomers(conn);
                            },
                            task -> new Thread(task, "test-writer").start());
            assertThat(halfWritten.await(60, TimeUnit.SECONDS)).isTrue();
            server(stopping).close();
            writing.get(60, TimeUnit.SECONDS);
            assertThat(replicasOf(coordinator, clicks.tableId()))
                    .as("seed %d", seed)
                    .allSatisfy(
                            r -> {
                                assertThat(r.leader()).isNotEqualTo(stopping);
                                assertThat(r.isr()).doesNotContain(stopping);
                            });
            lake.verifyCaughtUp(conn, clicks, Duration.ofSeconds(120));
            lake.verifyCaughtUp(conn, customers, Duration.ofSeconds(120));

            // back, it copies what it missed and rejoins; tiering goes on exactly once
            servers.set(servers.indexOf(server(stopping)), start(stopping, List.of()));
            await().atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    replicasOf(coordinator, clicks.tableId()).stream()
                                            .allMatch(r -> r.isr().contains(stopping)));
            appendClicks(conn, 2);
            upsertCustomers(conn);
            assertThat(lake.verifyCaughtUp(conn, clicks, Duration.ofSeconds(120)))
                    .as("seed %d", seed)
                    .isEqualTo(3 * 600);
            lake.verifyCaughtUp(conn, customers, Duration.ofSeconds(120));
            // a read the stop broke read on from the bucket's new leader: no round failed
            assertThat(conn.admin().tieringStatus().tables())
                    .filteredOn(s -> s.path().equals(CLICKS))
                    .singleElement()
                    .satisfies(s -> assertThat(s.failures()).as("%s", s.lastFailure()).isZero());
        }
        for (TributaryServer s : servers) {
            assertThat(s.fatalError()).as("server %s", s.dataDir()).isEmpty();
        }
    }

    private static void awaitThreeAlive(Connection conn) {
        await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> conn.admin().describeCluster(),
                        info ->
                                info.servers().size() == 3
                                        && info.servers().stream()
                                                .allMatch(
                                                        s ->
                                                                s.liveness()
                                                                        == ClusterInfo.Liveness
                                                                                .ALIVE));
    }

    private void appendClicks(Connection conn, int burst) {
        appendClicks(conn, burst, new CountDownLatch(1));
    }

    /** 600 rows in flushes of 50; {@code halfWritten} counts down after the sixth. */
    private void appendClicks(Connection conn, int burst, CountDownLatch halfWritten) {
        try (AppendWriter log = conn.appendWriter(CLICKS)) {
            for (int i = 0; i < 600; i++) {
                long id = random.nextLong();
                log.append(Row.of(id, "click-" + burst + "-" + id));
                if (i % 50 == 49) {
                    log.flush();
                    if (i == 299) {
                        halfWritten.countDown();
                    }
                }
            }
        }
    }

    private static List<BucketReplicas> replicasOf(TributaryServer coordinator, long tableId) {
        BucketAssignment a =
                coordinator.coordinator().bucketAssignments().stream()
                        .filter(x -> x.tableId() == tableId)
                        .findFirst()
                        .orElseThrow();
        List<BucketReplicas> out = new ArrayList<>();
        for (int b = 0; b < a.bucketCount(); b++) {
            out.add(a.replicasOf(b));
        }
        return out;
    }

    private TributaryServer server(int id) {
        return servers.stream()
                .filter(s -> s.dataDir().getFileName().toString().equals("server-" + id))
                .findFirst()
                .orElseThrow();
    }

    private void write(Connection conn, int burst) throws Exception {
        try (AppendWriter log = conn.appendWriter(CLICKS);
                UpsertWriter pk = conn.upsertWriter(CUSTOMERS)) {
            for (int i = 0; i < 600; i++) {
                long id = random.nextLong();
                log.append(Row.of(id, "click-" + burst + "-" + id));
            }
            upsertCustomers(pk);
            log.flush();
            pk.flush();
        }
    }

    private void upsertCustomers(Connection conn) {
        try (UpsertWriter pk = conn.upsertWriter(CUSTOMERS)) {
            upsertCustomers(pk);
            pk.flush();
        }
    }

    /** 300 upserts and deletes of 200 keys. */
    private void upsertCustomers(UpsertWriter pk) {
        for (int i = 0; i < 300; i++) {
            long key = random.nextInt(200);
            Row row = Row.of(key, "c" + key, random.nextInt(1000));
            if (random.nextInt(5) == 0) {
                pk.delete(row);
            } else {
                pk.upsert(row);
            }
        }
    }

    private static TableDescriptor lakeTable(boolean primaryKey) {
        return lakeTable(primaryKey, 1);
    }

    private static TableDescriptor lakeTable(boolean primaryKey, int replicationFactor) {
        return TableDescriptor.builder(primaryKey ? TestSchemas.PK : TestSchemas.LOG)
                .bucketCount(primaryKey ? 3 : 6)
                .property("table.replication.factor", Integer.toString(replicationFactor))
                .property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "1s")
                .build();
    }

    /** Servers 1 to 3 of one cluster sharing one lake; server 1 runs the embedded tiering job. */
    private void startThree() throws Exception {
        startThree(null, Map.of());
    }

    /** The same, the job's reads going through {@code faults} (if any), with {@code extra}. */
    private void startThree(FaultyReads faults, Map<String, String> extra) throws Exception {
        warehouse = new File(dir, "lake");
        voters =
                "1@127.0.0.1:"
                        + LoopbackPorts.free()
                        + ",2@127.0.0.1:"
                        + LoopbackPorts.free()
                        + ",3@127.0.0.1:"
                        + LoopbackPorts.free();
        servers.add(
                start(
                        1,
                        List.of(
                                faults == null
                                        ? new EmbeddedTieringExtension()
                                        : new EmbeddedTieringExtension(faults::wrap)),
                        extra));
        servers.add(start(2, List.of(), extra));
        servers.add(start(3, List.of(), extra));
    }

    private TributaryServer start(int id, List<ServerExtension> extensions) {
        return start(id, extensions, Map.of());
    }

    private TributaryServer start(
            int id, List<ServerExtension> extensions, Map<String, String> extra) {
        Configuration conf = new Configuration();
        conf.setString("data.dir", new File(dir, "server-" + id).getAbsolutePath());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("cluster.id", "three");
        conf.setString("cluster.server-id", Integer.toString(id));
        conf.setString("cluster.voters", voters);
        conf.setString("cluster.election-timeout", "1s");
        conf.setString("cluster.server.heartbeat-interval", "200ms");
        // one lake for the cluster: every server's coordinator commits to the same tables
        conf.setString("datalake.format", format);
        conf.setString("datalake." + format + ".warehouse", warehouse.toURI().toString());
        conf.setString("tiering.embedded.parallelism", "1");
        conf.setString("server.maintenance.interval", "500ms");
        extra.forEach(conf::setString);
        return TributaryServer.start(conf, Clock.system(), extensions);
    }
}

package dev.tributary.server.replica;

import static dev.tributary.server.replica.ThreeServers.logOf;
import static dev.tributary.server.replica.ThreeServers.replicasOf;
import static dev.tributary.server.replica.ThreeServers.serverId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.BucketReplicaInfo;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.cluster.LivenessState;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.server.TributaryServer;
import dev.tributary.storage.log.LogBucket;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real servers of one cluster in one JVM over loopback, log tables with three replicas per
 * bucket: the followers copy the leader's log byte for byte, writes are acknowledged once every
 * in-sync replica has them, a silent follower leaves the in-sync set once it lagged for {@code
 * replica.lag.time.max} and back it catches up and rejoins; a silent leader is replaced once the
 * coordinator expired it, a stopping one at once (controlled shutdown), and clients follow.
 * Stopping a server with {@code replica.controlled-shutdown} off is what a crash costs the others:
 * silence until the coordinator's probe finds its port closed, or without the probe until {@code
 * cluster.server.heartbeat-timeout}.
 */
class ReplicatedLogITCase {
    private static final TablePath TABLE = TablePath.of("db", "replicated");
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("s", DataTypes.STRING())
                    .build();

    @TempDir Path dir;

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private ThreeServers cluster;

    @BeforeEach
    void cluster() {
        cluster = new ThreeServers(dir, clock);
    }

    @AfterEach
    void stopAll() {
        cluster.close();
    }

    @Test
    void t50_aReplicatedLogIsCopiedAcknowledgedByItsInSyncReplicasAndSurvivesAFollowerStopping()
            throws Exception {
        cluster.controlledShutdown(false); // a follower that goes silent, as after a crash
        TributaryServer coordinator = cluster.startThree();
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> conn.admin().describeCluster().servers().size() == 3);
            conn.admin().createDatabase("db", true);
            assertThatThrownBy(
                            () ->
                                    conn.admin()
                                            .createTable(
                                                    TablePath.of("db", "four"),
                                                    descriptor(4, false),
                                                    false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("needs 4 servers and 3 are registered");
            conn.admin().createTable(TABLE, descriptor(3, false), false);
            long tableId = coordinator.coordinator().describeTable(TABLE).join().tableId();
            TableBucket bucket = new TableBucket(tableId, 0);
            BucketReplicas replicas = replicasOf(coordinator, tableId);
            assertThat(replicas.replicas()).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(replicas.isr()).hasSize(3);

            Set<Integer> written = new HashSet<>();
            write(conn, 0, 200, written);
            for (TributaryServer s : cluster.all()) {
                await().atMost(Duration.ofSeconds(30))
                        .until(
                                () ->
                                        s.store().hasTable(tableId)
                                                && logOf(s, bucket).endOffset() == 200);
            }
            byte[] leaderLog = bytes(logOf(cluster.server(replicas.leader()), bucket));
            for (TributaryServer s : cluster.all()) {
                assertThat(bytes(logOf(s, bucket)))
                        .as("server %s holds the leader's log byte for byte", s.dataDir())
                        .isEqualTo(leaderLog);
            }

            // a follower that does not coordinate stops: writes wait for it until it lagged for
            // replica.lag.time.max, then the in-sync set drops it and they are acknowledged
            int stopped =
                    replicas.replicas().stream()
                            .filter(
                                    id ->
                                            id != replicas.leader()
                                                    && cluster.server(id) != coordinator)
                            .findFirst()
                            .orElseThrow();
            cluster.server(stopped).close();
            CompletableFuture<Void> waiting = writeAsync(conn, 200, 250, written);
            // held by the leader, not acknowledged: a reader that planned to read up to there (a
            // new leader's high watermark behind its predecessor's) is told to retry (T52); past
            // what the leader holds is refused
            LogBucket leading = logOf(cluster.server(replicas.leader()), bucket);
            await().atMost(Duration.ofSeconds(30)).until(() -> leading.durableEndOffset() == 250);
            assertThatThrownBy(() -> drain(conn.tieringGateway().readLog(bucket, 0, 250, SCHEMA)))
                    .isInstanceOf(RetriableException.class)
                    .hasMessageContaining("not acknowledged by its in-sync replicas yet");
            assertThatThrownBy(() -> drain(conn.tieringGateway().readLog(bucket, 0, 251, SCHEMA)))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("beyond the end offset 200");
            clock.advance(Duration.ofSeconds(6));
            waiting.get(60, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !replicasOf(coordinator, tableId).isr().contains(stopped));
            // what an operator sees: the bucket is under-replicated, its leader unchanged
            BucketReplicaInfo shrunk = conn.admin().describeBuckets(TABLE, null).get(0);
            assertThat(shrunk.underReplicated()).isTrue();
            assertThat(shrunk.leader()).hasValue(replicas.leader());
            assertThat(shrunk.leaderAddress())
                    .hasValue(cluster.server(replicas.leader()).advertisedRpcAddress());
            assertThat(shrunk.leaderEpoch()).isEqualTo(replicas.leaderEpoch());
            assertThat(shrunk.replicas()).isEqualTo(replicas.replicas());
            assertThat(shrunk.inSyncReplicas()).hasSize(2).doesNotContain(stopped);
            assertThat(conn.admin().describeCluster().replication())
                    .hasValue(new ClusterInfo.Replication(1, 1, 0, 0, 0));

            // back with its data directory, it copies what it missed and rejoins the set
            cluster.restart(stopped);
            awaitRejoined(coordinator, bucket, stopped, 250);
            BucketReplicaInfo rejoined = conn.admin().describeBuckets(TABLE, null).get(0);
            assertThat(rejoined.underReplicated()).isFalse();
            assertThat(rejoined.inSyncReplicas()).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(conn.admin().describeCluster().replication())
                    .hasValue(new ClusterInfo.Replication(1, 0, 0, 0, 0));

            // readers see every acknowledged row exactly once
            assertReadOnce(conn.logScanner(TABLE), written);
        }
    }

    @Test
    void t51_logTable_aDeadLeadersBucketIsLedByAnInSyncFollowerAndNoAcknowledgedRowIsLost()
            throws Exception {
        cluster.controlledShutdown(false); // a leader that goes silent, as after a crash
        TributaryServer coordinator = cluster.startThree();
        Set<Integer> written = new HashSet<>();
        // one connection throughout: its cached route names the leader that stops
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            TablePath table = tableLedByAnotherServer(conn, coordinator);
            long tableId = coordinator.coordinator().describeTable(table).join().tableId();
            int dead = replicasOf(coordinator, tableId).leader();
            write(conn, table, 0, 200, written);
            // the followers hold every acknowledged row before the leader goes
            TableBucket bucket = new TableBucket(tableId, 0);
            for (int id : replicasOf(coordinator, tableId).replicas()) {
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> logOf(cluster.server(id), bucket).durableEndOffset() == 200);
            }
            cluster.server(dead).close();
            // a write to the stopped leader's address is retried until the bucket's new leader
            // is known, and lands there
            CompletableFuture<Void> duringFailover = writeAsync(conn, table, 200, 230, written);
            // the dead server stays silent while the others keep beating, time moving a second at
            // a time, each step after every live server beat again: four seconds, half of
            // cluster.server.heartbeat-timeout (8s), as the coordinator probes a server 1.5
            // heartbeat intervals late and nothing listens at the dead one's address
            cluster.advanceWhileOthersBeat(coordinator, dead, 4);
            BucketReplicas after =
                    await().atMost(Duration.ofSeconds(30))
                            .until(
                                    () -> replicasOf(coordinator, tableId),
                                    r -> r.leader() != dead && r.hasLeader());
            assertThat(after.leaderEpoch()).isEqualTo(1);
            assertThat(after.isr()).doesNotContain(dead).hasSize(2);
            duringFailover.get(60, TimeUnit.SECONDS);
            // clients follow the new leader; it holds every row acknowledged before
            write(conn, table, 230, 250, written);
            // the old leader comes back as a follower of the new one and catches up
            cluster.restart(dead);
            awaitRejoined(coordinator, bucket, dead, 250);

            assertReadOnce(conn.logScanner(table), written);
        }
    }

    @Test
    void t51_aStoppingLeaderHandsItsBucketsToInSyncFollowersAtOnceAndLeadsAgainWhenBack()
            throws Exception {
        // checked as the manual clock moves: only when this test moves it past the interval
        cluster.option("cluster.preferred-leader.check-interval", "1s");
        TributaryServer coordinator = cluster.startThree();
        Set<Integer> written = new HashSet<>();
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            TablePath table = tableLedByAnotherServer(conn, coordinator);
            long tableId = coordinator.coordinator().describeTable(table).join().tableId();
            BucketReplicas before = replicasOf(coordinator, tableId);
            int stopping = before.leader();
            write(conn, table, 0, 100, written);

            // the clock stands still: no heartbeat timeout can pass, only the stop moves leaders
            cluster.server(stopping).close();
            BucketReplicas after = replicasOf(coordinator, tableId);
            assertThat(after.leader()).isNotEqualTo(stopping);
            assertThat(after.leaderEpoch()).isEqualTo(1);
            assertThat(after.isr()).hasSize(2).doesNotContain(stopping);
            assertThat(coordinator.coordinator().serverLiveness().join())
                    .filteredOn(v -> v.serverId() == stopping)
                    .singleElement()
                    .satisfies(v -> assertThat(v.state()).isEqualTo(LivenessState.EXPIRED));
            // clients whose route names the stopped server follow without waiting
            write(conn, table, 100, 150, written);
            assertThat(conn.admin().describeCluster().replication().orElseThrow())
                    .extracting(ClusterInfo.Replication::notPreferredLeader)
                    .isEqualTo(1);

            // back as a new instance, it follows the new leader and rejoins the in-sync set
            cluster.restart(stopping);
            TableBucket bucket = new TableBucket(tableId, 0);
            awaitRejoined(coordinator, bucket, stopping, 150);

            // its bucket's first replica, it leads again at the next preferred-leader check, and
            // writers follow
            clock.advanceMillis(1_500);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> replicasOf(coordinator, tableId).leader() == stopping);
            assertThat(replicasOf(coordinator, tableId).leaderEpoch()).isEqualTo(2);
            assertThat(coordinator.coordinator().replicationHealth().notPreferredLeader()).isZero();
            write(conn, table, 150, 200, written);
            awaitRejoined(coordinator, bucket, after.leader(), 200);
            assertReadOnce(conn.logScanner(table), written);
        }
    }

    @Test
    void t51_theCoordinatorsServerDiesLeadingABucket_aNewCoordinatorMovesTheLeadership()
            throws Exception {
        cluster.controlledShutdown(false); // a crash: nobody is told
        // and no probe: the heartbeat timeout alone moves the leadership
        cluster.option("cluster.server.liveness-probe", "false");
        TributaryServer first = cluster.startThree();
        int dead = serverId(first);
        Set<Integer> written = new HashSet<>();
        TablePath table;
        try (Connection conn = Connection.open(first.rpcTarget())) {
            table = tableLedBy(conn, first, id -> id == dead);
            writeToEveryReplica(conn, first, table, 200, written);
        }
        long tableId = first.coordinator().describeTable(table).join().tableId();

        // the coordinator and the bucket's leader go at once; another voter coordinates, and once
        // the dead server's heartbeats are overdue it gives the bucket an in-sync leader
        first.close();
        TributaryServer coordinator = cluster.awaitOneCoordinator();
        // time passes in steps, each heartbeat of the live servers landing before the next
        cluster.advanceWhileOthersBeat(coordinator, dead, 10);
        BucketReplicas after =
                await().atMost(Duration.ofSeconds(60))
                        .until(
                                () -> replicasOf(coordinator, tableId),
                                r -> r.hasLeader() && r.leader() != dead);
        assertThat(after.leaderEpoch()).isEqualTo(1);
        assertThat(after.isr()).doesNotContain(dead).hasSize(2);
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            write(conn, table, 200, 250, written);
            assertReadOnce(conn.logScanner(table), written);
        }
    }

    @Test
    void t53_aLeaderBackWithAnEmptyDataDirectoryLeadsNothingAndCopiesItsReplicaAgain()
            throws Exception {
        cluster.controlledShutdown(
                false); // it stays the leader in the metadata: the dangerous case
        TributaryServer first = cluster.startThree();
        Set<Integer> written = new HashSet<>();
        // the coordinator's server leads the table's bucket and loses its disk: the metadata
        // quorum elects another leader, which copies the whole metadata to the wiped server
        // (a Raft leader that stays keeps its idea of a wiped follower's log: see cluster/README)
        int wiped = serverId(first);
        TablePath table;
        TableBucket bucket;
        try (Connection conn = Connection.open(first.rpcTarget())) {
            table = tableLedBy(conn, first, id -> id == wiped);
            bucket = writeToEveryReplica(conn, first, table, 200, written);
        }
        long tableId = bucket.tableId();

        // its disk is wiped; it is back before it could expire (the clock stands still):
        // leading with an empty log would make the followers cut theirs to nothing
        // on its old port, as a server with a fixed server.rpc.port comes back: its followers
        // reach it at once
        String port = first.rpcTarget().substring(first.rpcTarget().lastIndexOf(':') + 1);
        first.close();
        DurableFiles.deleteRecursively(cluster.dataDir(wiped));
        cluster.restart(wiped, port);
        TributaryServer coordinator = cluster.awaitOneCoordinator();
        assertThat(serverId(coordinator)).isNotEqualTo(wiped);
        BucketReplicas after =
                await().atMost(Duration.ofSeconds(60))
                        .until(
                                () -> replicasOf(coordinator, tableId),
                                r -> r.hasLeader() && r.leader() != wiped);
        assertThat(after.leaderEpoch()).isEqualTo(1);
        for (int id : List.of(1, 2, 3)) {
            if (id != wiped) {
                assertThat(logOf(cluster.server(id), bucket).durableEndOffset())
                        .as("server %d kept every acknowledged record", id)
                        .isGreaterThanOrEqualTo(200);
            }
        }

        // writes go on; it copies the whole log again and rejoins the in-sync set
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            write(conn, table, 200, 250, written);
            awaitRejoined(coordinator, bucket, wiped, 250);
            assertReadOnce(conn.logScanner(table), written);
        }
    }

    @Test
    void t53_aFollowerBackWithAnEmptyDiskWhileTheMetadataLeaderStaysCopiesItsReplicaAgain()
            throws Exception {
        cluster.controlledShutdown(
                false); // as after a crash: it stays in the in-sync set meanwhile
        TributaryServer first = cluster.startThree();
        Set<Integer> written = new HashSet<>();
        int wiped;
        long tableId;
        try (Connection conn = Connection.open(first.rpcTarget())) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> conn.admin().describeCluster().servers().size() == 3);
            conn.admin().createDatabase("db", true);
            conn.admin().createTable(TABLE, descriptor(3, false), false);
            tableId = first.coordinator().describeTable(TABLE).join().tableId();
            BucketReplicas replicas = replicasOf(first, tableId);
            write(conn, 0, 200, written);
            TableBucket bucket = new TableBucket(tableId, 0);
            for (int id : replicas.replicas()) {
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> logOf(cluster.server(id), bucket).durableEndOffset() == 200);
            }
            wiped =
                    replicas.replicas().stream()
                            .filter(id -> id != replicas.leader() && cluster.server(id) != first)
                            .findFirst()
                            .orElseThrow();
        }
        // its disk (metadata log included) is wiped; the metadata leader keeps leading, and Ratis
        // would answer the wiped voter with heartbeats only: it asks for the leadership to move
        cluster.server(wiped).close();
        DurableFiles.deleteRecursively(cluster.dataDir(wiped));
        cluster.restart(wiped);
        TableBucket bucket = new TableBucket(tableId, 0);
        // (the coordinator moves meanwhile: one found a moment ago may refuse to answer)
        await().atMost(Duration.ofSeconds(90))
                .ignoreExceptions()
                .until(
                        () -> {
                            TributaryServer c = cluster.awaitOneCoordinator();
                            return replicasOf(c, tableId).isr().contains(wiped)
                                    && cluster.server(wiped).store().hasTable(tableId)
                                    && logOf(cluster.server(wiped), bucket).durableEndOffset()
                                            == 200;
                        });
        TributaryServer coordinator = cluster.awaitOneCoordinator();
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            write(conn, 200, 250, written);
            awaitRejoined(coordinator, bucket, wiped, 250);
            assertReadOnce(conn.logScanner(TABLE), written);
        }
    }

    @Test
    void t53_aFollowerBackAfterRetentionPassedItsEndCopiesFromTheLeadersStartAndRejoins()
            throws Exception {
        // small segments and size retention: the leader deletes what a stopped follower misses
        cluster.option("log.segment.size", "4kb");
        cluster.option("server.maintenance.interval", "100ms");
        TributaryServer coordinator = cluster.startThree();
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> conn.admin().describeCluster().servers().size() == 3);
            conn.admin().createDatabase("db", true);
            conn.admin()
                    .createTable(
                            TABLE,
                            TableDescriptor.builder(SCHEMA)
                                    .bucketCount(1)
                                    .property("table.replication.factor", "3")
                                    .property("table.log.retention-size", "1kb")
                                    .build(),
                            false);
            long tableId = coordinator.coordinator().describeTable(TABLE).join().tableId();
            TableBucket bucket = new TableBucket(tableId, 0);
            BucketReplicas replicas = replicasOf(coordinator, tableId);
            Set<Integer> written = new HashSet<>();
            write(conn, 0, 200, written);
            for (int id : replicas.replicas()) {
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> logOf(cluster.server(id), bucket).durableEndOffset() == 200);
            }
            int stopped =
                    replicas.replicas().stream()
                            .filter(
                                    id ->
                                            id != replicas.leader()
                                                    && cluster.server(id) != coordinator)
                            .findFirst()
                            .orElseThrow();
            cluster.server(stopped).close();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !replicasOf(coordinator, tableId).isr().contains(stopped));
            LogBucket leaderLog = logOf(cluster.server(replicas.leader()), bucket);
            int next = 200;
            while (leaderLog.startOffset() <= 200) {
                assertThat(next).as("retention deleted past offset 200").isLessThan(20_000);
                write(conn, next, next + 500, written);
                next += 500;
            }
            int end = next;

            // back, its log ends below the leader's start: it starts again there and rejoins
            cluster.restart(stopped);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> replicasOf(coordinator, tableId).isr().contains(stopped));
            LogBucket copy = logOf(cluster.server(stopped), bucket);
            await().atMost(Duration.ofSeconds(30)).until(() -> copy.durableEndOffset() == end);
            assertThat(copy.startOffset()).isGreaterThan(200);
            // the same records from where both still hold them (each replica runs retention)
            long from = Math.max(copy.startOffset(), leaderLog.startOffset());
            assertThat(bytesFrom(copy, from)).isEqualTo(bytesFrom(leaderLog, from));
            write(conn, end, end + 10, written);
        }
    }

    private TablePath tableLedByAnotherServer(Connection conn, TributaryServer coordinator) {
        return cluster.tableLedByAnotherServer(conn, coordinator, "led_", descriptor(3, false));
    }

    private TablePath tableLedBy(Connection conn, TributaryServer coordinator, IntPredicate leads) {
        return cluster.tableLedBy(conn, coordinator, "led_", descriptor(3, false), leads);
    }

    /** Writes rows [0, count) and waits until every replica holds them; returns the bucket. */
    private TableBucket writeToEveryReplica(
            Connection conn,
            TributaryServer coordinator,
            TablePath table,
            int count,
            Set<Integer> written)
            throws Exception {
        write(conn, table, 0, count, written);
        long tableId = coordinator.coordinator().describeTable(table).join().tableId();
        TableBucket bucket = new TableBucket(tableId, 0);
        for (int id : replicasOf(coordinator, tableId).replicas()) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> logOf(cluster.server(id), bucket).durableEndOffset() == count);
        }
        return bucket;
    }

    private static void drain(RecordIterator records) {
        try (records) {
            while (records.hasNext()) {
                records.next();
            }
        }
    }

    /** Every row written is read exactly once. */
    private static void assertReadOnce(LogScanner scanner, Set<Integer> written) {
        List<Integer> read = new ArrayList<>();
        for (LogRecord r : scanner.readAll(0)) {
            read.add(r.row().getInt(0));
        }
        assertThat(read).hasSize(written.size()).doesNotHaveDuplicates();
        assertThat(new HashSet<>(read)).isEqualTo(written);
    }

    /**
     * Waits until {@code server} is back in the bucket's in-sync set and holds its leader's log up
     * to {@code end}, byte for byte.
     */
    private void awaitRejoined(
            TributaryServer coordinator, TableBucket bucket, int server, long end) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> replicasOf(coordinator, bucket.tableId()).isr().contains(server));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> logOf(cluster.server(server), bucket).durableEndOffset() == end);
        int leader = replicasOf(coordinator, bucket.tableId()).leader();
        assertThat(bytes(logOf(cluster.server(server), bucket)))
                .isEqualTo(bytes(logOf(cluster.server(leader), bucket)));
    }

    private static TableDescriptor descriptor(int replicationFactor, boolean primaryKey) {
        Schema schema =
                primaryKey
                        ? Schema.newBuilder()
                                .column("id", DataTypes.INT().notNull())
                                .column("s", DataTypes.STRING())
                                .primaryKey("id")
                                .build()
                        : SCHEMA;
        return TableDescriptor.builder(schema)
                .bucketCount(1)
                .property("table.replication.factor", Integer.toString(replicationFactor))
                .build();
    }

    private void write(Connection conn, int from, int to, Set<Integer> written) throws Exception {
        write(conn, TABLE, from, to, written);
    }

    private void write(Connection conn, TablePath path, int from, int to, Set<Integer> written)
            throws Exception {
        writeAsync(conn, path, from, to, written).get(60, TimeUnit.SECONDS);
    }

    /** Writes on another thread: a flush waits until every row is acknowledged. */
    private CompletableFuture<Void> writeAsync(
            Connection conn, int from, int to, Set<Integer> written) {
        return writeAsync(conn, TABLE, from, to, written);
    }

    private CompletableFuture<Void> writeAsync(
            Connection conn, TablePath path, int from, int to, Set<Integer> written) {
        for (int i = from; i < to; i++) {
            written.add(i);
        }
        return CompletableFuture.runAsync(
                () -> {
                    try (AppendWriter w = conn.appendWriter(path)) {
                        for (int i = from; i < to; i++) {
                            w.append(Row.of(i, "row-" + i));
                        }
                        w.flush();
                    }
                },
                // its own thread: a flush may wait long, and the common pool may have one
                task -> new Thread(task, "test-writer").start());
    }

    private static byte[] bytes(LogBucket log) {
        return bytesFrom(log, log.startOffset());
    }

    private static byte[] bytesFrom(LogBucket log, long from) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long at = from;
        while (at < log.durableEndOffset()) {
            LogBucket.Read r = log.readForFollower(at, 1 << 20);
            out.writeBytes(r.records());
            at = r.nextOffset();
        }
        return out.toByteArray();
    }
}

package dev.tributary.server.replica;

import static dev.tributary.server.replica.ThreeServers.logOf;
import static dev.tributary.server.replica.ThreeServers.replicasOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.lookup.Lookuper;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.cluster.ReplicaMoves;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.server.TributaryServer;
import dev.tributary.storage.CloseableIterator;
import dev.tributary.storage.kv.KvBucket;
import dev.tributary.storage.kv.KvSnapshotInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A primary-key table with three replicas per bucket on three real servers (T50, T51): every
 * replica keeps the bucket's KV state from the log it copies, a follower up to the leader's high
 * watermark; a crashed leader's bucket is led by an in-sync follower that answers lookups with
 * every acknowledged write and takes upserts at once (its state is the log's, no replay of the
 * whole changelog), and the old leader, back, follows with the same state. A bucket moved to
 * another server (issue 23) copies the leader's KV snapshot and log there, throttled, and serves
 * every write.
 */
class ReplicatedPrimaryKeyITCase {
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.INT().notNull())
                    .column("s", DataTypes.STRING())
                    .primaryKey("id")
                    .build();
    private static final int KEYS = 260;

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
    void
            t51_primaryKeyTable_aDeadLeadersBucketIsLedByAFollowerWhoseKvStateHoldsEveryAcknowledgedWrite()
                    throws Exception {
        cluster.controlledShutdown(false); // a leader that goes silent, as after a crash
        TributaryServer coordinator = cluster.startThree();
        Map<Integer, String> expected = new HashMap<>();
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            TablePath table = tableLedByAnotherServer(conn, coordinator);
            long tableId = coordinator.coordinator().describeTable(table).join().tableId();
            TableBucket bucket = new TableBucket(tableId, 0);
            BucketReplicas replicas = replicasOf(coordinator, tableId);
            assertThat(replicas.replicas()).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(conn.admin().describeTable(table).descriptor().properties())
                    .containsEntry("table.replication.factor", "3");
            int dead = replicas.leader();

            upsert(conn, table, 0, 200, "a", expected);
            upsert(conn, table, 50, 100, "b", expected);
            delete(conn, table, 0, 20, expected);
            awaitSameState(bucket, replicas.replicas());
            int follower = replicas.replicas().stream().filter(id -> id != dead).findFirst().get();
            assertThatThrownBy(() -> cluster.server(follower).store().lookup(bucket, Row.of(60)))
                    .isInstanceOf(NotLeaderForBucketException.class)
                    .hasMessageContaining("look keys up at its leader");

            cluster.server(dead).close();
            // writes during the failover wait for the new leader and land there once
            CompletableFuture<Void> duringFailover =
                    CompletableFuture.runAsync(
                            () -> upsert(conn, table, 180, 230, "c", expected),
                            task -> new Thread(task, "test-writer").start());
            cluster.advanceWhileOthersBeat(coordinator, dead, 4);
            BucketReplicas after =
                    await().atMost(Duration.ofSeconds(30))
                            .until(
                                    () -> replicasOf(coordinator, tableId),
                                    r -> r.hasLeader() && r.leader() != dead);
            assertThat(after.isr()).doesNotContain(dead).hasSize(2);
            duringFailover.get(60, TimeUnit.SECONDS);
            assertLookups(conn, table, expected);

            upsert(conn, table, 220, KEYS, "d", expected);
            delete(conn, table, 100, 110, expected);
            assertLookups(conn, table, expected);

            // the old leader comes back as a follower with the same state
            cluster.restart(dead);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> replicasOf(coordinator, tableId).isr().contains(dead));
            awaitSameState(bucket, replicas.replicas());
        }
    }

    @Test
    void t53_primaryKeyTable_aFollowerBackWithAnEmptyDiskRebuildsItsKvStateFromWhatItCopies()
            throws Exception {
        cluster.controlledShutdown(false); // as after a crash: it stays in the in-sync set
        TributaryServer coordinator = cluster.startThree();
        Map<Integer, String> expected = new HashMap<>();
        TablePath table;
        long tableId;
        int wiped;
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            table = tableLedByAnotherServer(conn, coordinator);
            tableId = coordinator.coordinator().describeTable(table).join().tableId();
            BucketReplicas replicas = replicasOf(coordinator, tableId);
            upsert(conn, table, 0, 200, "a", expected);
            delete(conn, table, 0, 20, expected);
            awaitSameState(new TableBucket(tableId, 0), replicas.replicas());
            wiped = followerThatDoesNotCoordinate(replicas, coordinator);
        }
        wipeAndRestart(wiped);
        // (the coordinator may move meanwhile: see ReplicatedLogITCase's wiped follower)
        await().atMost(Duration.ofSeconds(90))
                .ignoreExceptions()
                .until(
                        () ->
                                replicasOf(cluster.awaitOneCoordinator(), tableId)
                                        .isr()
                                        .contains(wiped));
        TributaryServer now = cluster.awaitOneCoordinator();
        try (Connection conn = Connection.open(now.rpcTarget())) {
            upsert(conn, table, 100, KEYS, "b", expected);
            awaitSameState(new TableBucket(tableId, 0), List.of(1, 2, 3));
            assertLookups(conn, table, expected);
        }
    }

    @Test
    void t53_primaryKeyTable_aFollowerBackWithAnEmptyDiskBelowTheLeadersLogStartCopiesItsSnapshot()
            throws Exception {
        cluster.controlledShutdown(false).option("log.segment.size", "2kb");
        TributaryServer coordinator = cluster.startThree();
        Map<Integer, String> expected = new HashMap<>();
        TablePath table;
        long tableId;
        TableBucket bucket;
        int wiped;
        long leaderStart;
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            table =
                    cluster.tableLedByAnotherServer(
                            conn,
                            coordinator,
                            "pk_",
                            TableDescriptor.builder(SCHEMA)
                                    .bucketCount(1)
                                    .property("table.log.retention-size", "4kb")
                                    .property("kv.snapshot.num-retained", "1")
                                    .build());
            tableId = coordinator.coordinator().describeTable(table).join().tableId();
            bucket = new TableBucket(tableId, 0);
            BucketReplicas replicas = replicasOf(coordinator, tableId);
            for (int round = 0; round < 5; round++) {
                upsert(conn, table, 0, KEYS, "r" + round + "-", expected);
            }
            delete(conn, table, 0, 20, expected);
            awaitSameState(bucket, replicas.replicas());
            // retention deletes the leader's changelog before its snapshot: a replica that lost its
            // disk cannot rebuild its KV state from the leader's log any more
            TributaryServer leader = cluster.server(replicas.leader());
            KvSnapshotInfo snap = leader.store().snapshot(bucket);
            leader.store().runRetention();
            leaderStart = logOf(leader, bucket).startOffset();
            assertThat(leaderStart).isPositive().isLessThanOrEqualTo(snap.logOffset());
            wiped = followerThatDoesNotCoordinate(replicas, coordinator);
        }
        wipeAndRestart(wiped);
        // it starts its log where the leader's snapshot was, not at 0, and rejoins the in-sync set
        await().atMost(Duration.ofSeconds(90))
                .ignoreExceptions()
                .until(
                        () ->
                                logOf(cluster.server(wiped), bucket).startOffset() >= leaderStart
                                        && replicasOf(cluster.awaitOneCoordinator(), tableId)
                                                .isr()
                                                .contains(wiped));
        TributaryServer now = cluster.awaitOneCoordinator();
        try (Connection conn = Connection.open(now.rpcTarget())) {
            upsert(conn, table, 100, KEYS, "b", expected);
            awaitSameState(bucket, List.of(1, 2, 3));
            assertLookups(conn, table, expected);
        }
    }

    /** A follower of the bucket that does not coordinate: the metadata leader stays. */
    private int followerThatDoesNotCoordinate(
            BucketReplicas replicas, TributaryServer coordinator) {
        return replicas.replicas().stream()
                .filter(id -> id != replicas.leader() && cluster.server(id) != coordinator)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void move_aOneCopyPrimaryKeyBucketDrainedOffItsServerKeepsEveryWriteAndServesLookupsThere()
            throws Exception {
        // a small throttle, and retention past the start of the log: the new replica copies the
        // leader's KV snapshot, throttled, before it fetches the log
        cluster.option("log.segment.size", "2kb")
                .option("replica.move.max-bytes-per-second", "8kb");
        TributaryServer coordinator = cluster.startThree();
        Map<Integer, String> expected = new HashMap<>();
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            TablePath table =
                    cluster.tableLedByAnotherServer(
                            conn,
                            coordinator,
                            "one_",
                            TableDescriptor.builder(SCHEMA)
                                    .bucketCount(1)
                                    .property("table.replication.factor", "1")
                                    .property("table.log.retention-size", "4kb")
                                    .property("kv.snapshot.num-retained", "1")
                                    .build());
            long tableId = coordinator.coordinator().describeTable(table).join().tableId();
            TableBucket bucket = new TableBucket(tableId, 0);
            int from = replicasOf(coordinator, tableId).leader();
            for (int round = 0; round < 5; round++) {
                upsert(conn, table, 0, 200, "r" + round + "-", expected);
            }
            delete(conn, table, 0, 20, expected);
            TributaryServer source = cluster.server(from);
            source.store().snapshot(bucket);
            source.store().runRetention();
            long sourceStart = logOf(source, bucket).startOffset();
            assertThat(sourceStart).isPositive();

            // writes go on while the bucket moves; the idempotent writer retries what the
            // leadership change cut
            CompletableFuture<Void> duringMove =
                    CompletableFuture.runAsync(
                            () -> upsert(conn, table, 150, KEYS, "b", expected),
                            task -> new Thread(task, "test-writer").start());
            List<ReplicaMoves.Move> moves =
                    coordinator.coordinator().moveReplicas(Set.of(from), Set.of(), false).join();
            assertThat(moves).hasSize(1);
            int to = moves.get(0).to().get(0);
            assertThat(to).isNotEqualTo(from);
            BucketReplicas after =
                    await().atMost(Duration.ofSeconds(30))
                            .until(() -> replicasOf(coordinator, tableId), r -> !r.moving());
            assertThat(after.replicas()).containsExactly(to);
            assertThat(after.leader()).isEqualTo(to);
            assertThat(after.leaderEpoch()).isEqualTo(1);
            assertThat(logOf(cluster.server(to), bucket).startOffset())
                    .as("it started from the leader's snapshot")
                    .isGreaterThanOrEqualTo(sourceStart);
            duringMove.get(60, TimeUnit.SECONDS);
            assertLookups(conn, table, expected);
            await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> {
                                // a moved-away copy goes replica.moved-away.delete-after later
                                clock.advance(Duration.ofSeconds(1));
                                return !cluster.server(from).store().hasTable(tableId);
                            });

            upsert(conn, table, 0, 10, "c", expected);
            assertLookups(conn, table, expected);
            assertThat(kvOf(to, bucket).role()).isEqualTo(KvBucket.Role.LEADER);
            assertThat(kvOf(to, bucket).appliedOffset())
                    .isEqualTo(logOf(cluster.server(to), bucket).durableEndOffset());
        }
    }

    /** Stops a server, deletes its data directory and starts it again (T53). */
    private void wipeAndRestart(int server) throws Exception {
        cluster.server(server).close();
        DurableFiles.deleteRecursively(cluster.dataDir(server));
        cluster.restart(server);
    }

    /**
     * Waits until every replica applied its whole log to its KV state, then checks that their
     * snapshots hold the same rows at the same offset.
     */
    private void awaitSameState(TableBucket bucket, List<Integer> replicas) {
        int leader = replicasOf(cluster.awaitOneCoordinator(), bucket.tableId()).leader();
        long end = logOf(cluster.server(leader), bucket).durableEndOffset();
        for (int id : replicas) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> kvOf(id, bucket).appliedOffset() == end);
        }
        List<Row> leaderRows = snapshotRows(leader, bucket, end);
        assertThat(leaderRows).isNotEmpty();
        for (int id : replicas) {
            assertThat(snapshotRows(id, bucket, end))
                    .as("server %d's KV state", id)
                    .isEqualTo(leaderRows);
        }
    }

    private KvBucket kvOf(int server, TableBucket bucket) {
        return cluster.server(server).store().replicaKv(bucket).orElseThrow();
    }

    private List<Row> snapshotRows(int server, TableBucket bucket, long offset) {
        KvSnapshotInfo snapshot = cluster.server(server).store().snapshot(bucket);
        assertThat(snapshot.logOffset()).isEqualTo(offset);
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                cluster.server(server).store().readSnapshot(bucket, snapshot.snapshotId())) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    /** Every key looked up through the client at the bucket's leader reads as written. */
    private static void assertLookups(Connection conn, TablePath table, Map<Integer, String> rows) {
        Lookuper lookuper = conn.lookuper(table);
        List<Row> keys = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
            keys.add(Row.of(k));
        }
        // the client's route may still name the dead leader for a moment
        List<Optional<Row>> found =
                await().atMost(Duration.ofSeconds(30))
                        .ignoreExceptions()
                        .until(() -> lookuper.lookupAll(keys), r -> true);
        for (int k = 0; k < KEYS; k++) {
            assertThat(found.get(k).map(r -> r.getString(1)))
                    .as("key %d", k)
                    .isEqualTo(Optional.ofNullable(rows.get(k)));
        }
    }

    private static void upsert(
            Connection conn,
            TablePath table,
            int from,
            int to,
            String value,
            Map<Integer, String> expected) {
        try (UpsertWriter w = conn.upsertWriter(table)) {
            for (int k = from; k < to; k++) {
                w.upsert(Row.of(k, value + k));
            }
            w.flush();
        }
        synchronized (expected) {
            for (int k = from; k < to; k++) {
                expected.put(k, value + k);
            }
        }
    }

    private static void delete(
            Connection conn, TablePath table, int from, int to, Map<Integer, String> expected) {
        try (UpsertWriter w = conn.upsertWriter(table)) {
            for (int k = from; k < to; k++) {
                w.delete(Row.of(k, null));
            }
            w.flush();
        }
        synchronized (expected) {
            for (int k = from; k < to; k++) {
                expected.remove(k);
            }
        }
    }

    /** A one-bucket PK table, no factor given, led by a server that does not coordinate. */
    private TablePath tableLedByAnotherServer(Connection conn, TributaryServer coordinator) {
        // no factor: a cluster of three gives a table three copies
        return cluster.tableLedByAnotherServer(
                conn, coordinator, "pk_", TableDescriptor.builder(SCHEMA).bucketCount(1).build());
    }
}

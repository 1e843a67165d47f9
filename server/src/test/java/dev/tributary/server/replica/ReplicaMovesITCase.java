package dev.tributary.server.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.PartitionInfo;
import dev.tributary.client.admin.ReplicaMove;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.cluster.ReplicaMoves;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.server.TributaryServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23's moves of a partitioned table's buckets on three real servers: a drained server holds
 * no replica of any partition afterwards and closes its partitions' copies, a rebalance makes new
 * copies there, and every row written before, between and after is read exactly once.
 */
class ReplicaMovesITCase {
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    private static final TablePath EVENTS = TablePath.of("db", "events");
    private static final List<String> DAYS = List.of("2026-12-01", "2026-12-02");
    private static final Schema TEXT_SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("text", DataTypes.STRING())
                    .build();

    @TempDir Path dir;

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
    void move_aDrainedServerClosesItsPartitionsAndARebalanceCopiesThemBack() throws Exception {
        TributaryServer coordinator = cluster.startThree();
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> conn.admin().describeCluster().servers().size() == 3);
            conn.admin().createDatabase("db", true);
            conn.admin()
                    .createTable(
                            EVENTS,
                            TableDescriptor.builder(
                                            Schema.newBuilder()
                                                    .column("id", DataTypes.BIGINT())
                                                    .column("dt", DataTypes.STRING())
                                                    .build())
                                    .bucketCount(2)
                                    .partitionKeys("dt")
                                    .property("table.replication.factor", "2")
                                    .build(),
                            false);
            for (String day : DAYS) {
                conn.admin().createPartition(EVENTS, PartitionSpec.of("dt", day), false);
            }
            long tableId = coordinator.coordinator().describeTable(EVENTS).join().tableId();
            List<Long> partitions =
                    conn.admin().listPartitions(EVENTS).stream()
                            .map(PartitionInfo::partitionId)
                            .toList();
            write(conn, 0, 400);

            int drained = 2;
            // the client's dry run names each bucket's partition, and starts nothing
            List<ReplicaMove> planned = conn.admin().moveReplicas(Set.of(drained), true);
            assertThat(planned)
                    .isNotEmpty()
                    .allSatisfy(
                            m -> {
                                assertThat(m.table()).isEqualTo(EVENTS);
                                assertThat(m.partition())
                                        .hasValueSatisfying(p -> assertThat(p).isIn(dtNames()));
                            });
            assertThat(coordinator.coordinator().replicationHealth().moving()).isZero();
            List<ReplicaMoves.Move> moves =
                    coordinator.coordinator().moveReplicas(Set.of(drained), Set.of(), false).join();
            assertThat(moves)
                    .isNotEmpty()
                    .allSatisfy(m -> assertThat(m.to()).doesNotContain(drained));
            write(conn, 400, 400);
            awaitNoMoves(coordinator);
            assertThat(coordinator.coordinator().bucketAssignments())
                    .allSatisfy(
                            a ->
                                    assertThat(a.buckets())
                                            .allSatisfy(
                                                    b ->
                                                            assertThat(b.replicas())
                                                                    .doesNotContain(drained)));
            for (long p : partitions) {
                await().atMost(Duration.ofSeconds(30))
                        .until(
                                () -> {
                                    // a moved-away copy goes replica.moved-away.delete-after later
                                    clock.advance(Duration.ofSeconds(1));
                                    return !cluster.server(drained)
                                            .store()
                                            .hasPartition(tableId, p);
                                });
            }
            assertReadOnce(conn, partitions, 800);

            // it stays drained: a rebalance puts nothing back on it
            assertThat(coordinator.coordinator().moveReplicas(Set.of(), Set.of(), false).join())
                    .isEmpty();
            // and back once undrained: new copies of the partitions it closed
            assertThat(
                            coordinator
                                    .coordinator()
                                    .moveReplicas(Set.of(), Set.of(drained), false)
                                    .join())
                    .isNotEmpty();
            awaitNoMoves(coordinator);
            assertThat(
                            partitions.stream()
                                    .anyMatch(
                                            p ->
                                                    cluster.server(drained)
                                                            .store()
                                                            .hasPartition(tableId, p)))
                    .isTrue();
            write(conn, 800, 200);
            assertReadOnce(conn, partitions, 1000);
        }
    }

    @Test
    void move_aCancelledMoveGoesBackAndItsAddedCopyGoes() throws Exception {
        // a move copies at 1 KB/s: it is still under way when cancelled
        cluster.option("replica.move.max-bytes-per-second", "1kb");
        TributaryServer coordinator = cluster.startThree();
        TablePath logs = TablePath.of("db", "logs");
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> conn.admin().describeCluster().servers().size() == 3);
            conn.admin().createDatabase("db", true);
            conn.admin()
                    .createTable(
                            logs,
                            TableDescriptor.builder(
                                            Schema.newBuilder()
                                                    .column("id", DataTypes.BIGINT())
                                                    .column("text", DataTypes.STRING())
                                                    .build())
                                    .bucketCount(1)
                                    .property("table.replication.factor", "2")
                                    .build(),
                            false);
            long tableId = coordinator.coordinator().describeTable(logs).join().tableId();
            writeText(conn, logs, 0, 100);
            BucketReplicas before = replicasOf(coordinator, tableId);
            int leaving = before.replicas().get(1);
            int added =
                    Set.of(1, 2, 3).stream()
                            .filter(s -> !before.replicas().contains(s))
                            .findFirst()
                            .orElseThrow();
            assertThat(cluster.server(added).store().hasTable(tableId)).isFalse();

            coordinator.coordinator().moveReplicas(Set.of(leaving), Set.of(), false).join();
            assertThat(replicasOf(coordinator, tableId).target()).contains(added);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> cluster.server(added).store().hasTable(tableId));

            // the dry run lists the move and cancels nothing
            List<ReplicaMove> listed = conn.admin().cancelReplicaMoves(true);
            assertThat(listed).hasSize(1);
            assertThat(listed.get(0).from()).contains(added);
            assertThat(listed.get(0).to()).isEqualTo(before.replicas());
            assertThat(coordinator.coordinator().replicationHealth().moving()).isOne();

            assertThat(conn.admin().cancelReplicaMoves(false)).isEqualTo(listed);
            awaitNoMoves(coordinator);
            assertThat(replicasOf(coordinator, tableId).replicas()).isEqualTo(before.replicas());
            assertThat(conn.admin().cancelReplicaMoves(false)).as("nothing moves").isEmpty();
            await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> {
                                // a moved-away copy goes replica.moved-away.delete-after later
                                clock.advance(Duration.ofSeconds(1));
                                return !cluster.server(added).store().hasTable(tableId);
                            });
            assertThat(conn.admin().describeCluster().servers())
                    .as("the drain mark stays")
                    .filteredOn(s -> s.serverId() == leaving)
                    .singleElement()
                    .satisfies(s -> assertThat(s.draining()).isTrue());

            writeText(conn, logs, 100, 50);
            List<Long> ids =
                    await().atMost(Duration.ofSeconds(30))
                            .ignoreExceptions()
                            .until(
                                    () ->
                                            conn.logScanner(logs).readAll(0).stream()
                                                    .map(r -> r.row().getLong(0))
                                                    .toList(),
                                    l -> l.size() >= 150);
            assertThat(ids)
                    .containsExactlyInAnyOrderElementsOf(LongStream.range(0, 150).boxed().toList());
        }
    }

    @Test
    void move_aBucketMovedOffAServerThatKeepsOtherBucketsOfItsTableIsEmptiedThere()
            throws Exception {
        TributaryServer coordinator = cluster.startThree();
        TablePath spread = TablePath.of("db", "spread");
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> conn.admin().describeCluster().servers().size() == 3);
            // server 3 drained while it holds nothing: the table goes on servers 1 and 2 only
            coordinator.coordinator().moveReplicas(Set.of(3), Set.of(), false).join();
            conn.admin().createDatabase("db", true);
            conn.admin()
                    .createTable(
                            spread,
                            TableDescriptor.builder(TEXT_SCHEMA)
                                    .bucketCount(4)
                                    .property("table.replication.factor", "2")
                                    .build(),
                            false);
            var table = coordinator.coordinator().describeTable(spread).join();
            long tableId = table.tableId();
            try (AppendWriter w = conn.appendWriter(spread)) {
                // one batch per flush, and batches go round robin: every bucket gets rows
                for (long id = 0; id < 200; id++) {
                    w.append(Row.of(id, "row " + id));
                    if (id % 25 == 24) {
                        w.flush();
                    }
                }
            }
            List<BucketReplicas> before = bucketsOf(coordinator, tableId);

            // undrained, a rebalance moves some replicas of servers 1 and 2 onto it
            assertThat(coordinator.coordinator().moveReplicas(Set.of(), Set.of(3), false).join())
                    .isNotEmpty();
            awaitNoMoves(coordinator);
            List<BucketReplicas> after = bucketsOf(coordinator, tableId);
            Map<TableBucket, Integer> movedOff = new HashMap<>();
            for (int b = 0; b < 4; b++) {
                for (int s : before.get(b).replicas()) {
                    if (!after.get(b).replicas().contains(s)) {
                        TableBucket bucket = new TableBucket(tableId, b);
                        movedOff.put(bucket, s);
                        assertThat(cluster.server(s).store().replicaLog(bucket).writtenEndOffset())
                                .as("bucket %s on server %d, before the grace", bucket, s)
                                .isPositive();
                    }
                }
            }
            assertThat(movedOff).as("the rebalance moved a bucket off servers 1 or 2").isNotEmpty();
            for (Map.Entry<TableBucket, Integer> e : movedOff.entrySet()) {
                TableBucket bucket = e.getKey();
                int s = e.getValue();
                TributaryServer old = cluster.server(s);
                await().atMost(Duration.ofSeconds(30))
                        .until(
                                () -> {
                                    // replica.moved-away.delete-after later
                                    clock.advance(Duration.ofSeconds(1));
                                    // its records are gone, not only hidden
                                    return old.store().replicaLog(bucket).writtenEndOffset() == 0;
                                });
                assertThat(old.store().hasTable(tableId))
                        .as("server %d keeps the table's other buckets", s)
                        .isTrue();
                // the emptied copy still refuses a write that slipped past the routing
                assertThatThrownBy(
                                () ->
                                        old.store()
                                                .append(
                                                        WriteBatch.builder(
                                                                        tableId,
                                                                        bucket.bucket(),
                                                                        table.schemaId(),
                                                                        TEXT_SCHEMA)
                                                                .append(Row.of(-1L, "x"))
                                                                .build()))
                        .isInstanceOf(NotLeaderForBucketException.class);
            }
            writeText(conn, spread, 200, 100);
            List<Long> ids =
                    await().atMost(Duration.ofSeconds(30))
                            .ignoreExceptions()
                            .until(
                                    () -> {
                                        List<Long> all = new ArrayList<>();
                                        for (int b = 0; b < 4; b++) {
                                            conn.logScanner(spread).readAll(b).stream()
                                                    .map(r -> r.row().getLong(0))
                                                    .forEach(all::add);
                                        }
                                        return all;
                                    },
                                    l -> l.size() >= 300);
            assertThat(ids)
                    .containsExactlyInAnyOrderElementsOf(LongStream.range(0, 300).boxed().toList());
        }
    }

    private static List<BucketReplicas> bucketsOf(TributaryServer coordinator, long tableId) {
        return coordinator.coordinator().bucketAssignments().stream()
                .filter(a -> a.tableId() == tableId)
                .findFirst()
                .orElseThrow()
                .buckets();
    }

    private static BucketReplicas replicasOf(TributaryServer coordinator, long tableId) {
        return coordinator.coordinator().bucketAssignments().stream()
                .filter(a -> a.tableId() == tableId)
                .findFirst()
                .orElseThrow()
                .replicasOf(0);
    }

    /** Rows of 2 KB of text each: a move of the first hundred at 1 KB/s takes minutes. */
    private static void writeText(Connection conn, TablePath path, long from, int count) {
        String text = "x".repeat(2048);
        try (AppendWriter w = conn.appendWriter(path)) {
            for (long id = from; id < from + count; id++) {
                w.append(Row.of(id, text));
            }
            w.flush();
        }
    }

    private static List<String> dtNames() {
        return DAYS.stream().map(d -> "dt=" + d).toList();
    }

    private static void awaitNoMoves(TributaryServer coordinator) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> coordinator.coordinator().replicationHealth().moving() == 0);
    }

    /** Rows from {@code from}, alternating between the two days. */
    private static void write(Connection conn, long from, int count) {
        try (AppendWriter w = conn.appendWriter(EVENTS)) {
            for (long id = from; id < from + count; id++) {
                w.append(Row.of(id, DAYS.get((int) (id % 2))));
            }
            w.flush();
        }
    }

    /** Every row 0..n-1 is read once from the buckets' leaders, whichever servers they are on. */
    private static void assertReadOnce(Connection conn, List<Long> partitions, int n) {
        List<Long> ids =
                await().atMost(Duration.ofSeconds(30))
                        .ignoreExceptions()
                        .until(() -> readAll(conn, partitions), l -> l.size() >= n);
        assertThat(ids)
                .hasSize(n)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, n).boxed().collect(Collectors.toList()));
    }

    private static List<Long> readAll(Connection conn, List<Long> partitions) {
        LogScanner scanner = conn.logScanner(EVENTS);
        List<Long> ids = new ArrayList<>();
        for (long p : partitions) {
            for (int b = 0; b < 2; b++) {
                for (LogRecord r : scanner.readAll(p, b)) {
                    ids.add(r.row().getLong(0));
                }
            }
        }
        return ids;
    }
}

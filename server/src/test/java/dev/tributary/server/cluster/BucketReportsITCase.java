package dev.tributary.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.cluster.ReportedBucket;
import dev.tributary.coordinator.cluster.ReportedBucketStates;
import dev.tributary.coordinator.spi.KvSnapshotRef;
import dev.tributary.server.TributaryServer;
import dev.tributary.storage.BucketStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T49 plan step 1: a real lone server's heartbeats (over its own gRPC endpoint) carry the end
 * offsets and newest KV snapshots of its buckets, and its coordinator's reported states match the
 * store's, for a log table, a partition of a partitioned table and a primary-key table.
 */
class BucketReportsITCase {
    @TempDir Path dir;

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    @Test
    @DisplayName(
            "the coordinator's reported bucket states follow the store's end offsets and snapshots")
    void reportedStatesFollowTheStore() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("cluster.server.heartbeat-interval", "100ms");
        try (TributaryServer server = TributaryServer.start(conf, clock, List.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("db", false);
            TablePath logPath = TablePath.of("db", "events");
            TableInfo log =
                    conn.admin()
                            .createTable(
                                    logPath,
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column("id", DataTypes.BIGINT())
                                                            .column("dt", DataTypes.STRING())
                                                            .build())
                                            .bucketCount(3)
                                            .build(),
                                    false);
            TablePath dailyPath = TablePath.of("db", "daily");
            TableInfo daily =
                    conn.admin()
                            .createTable(
                                    dailyPath,
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column("id", DataTypes.BIGINT())
                                                            .column("dt", DataTypes.STRING())
                                                            .build())
                                            .bucketCount(2)
                                            .partitionKeys("dt")
                                            .build(),
                                    false);
            conn.admin().createPartition(dailyPath, PartitionSpec.of("dt", "2026-12-03"), false);
            TablePath pkPath = TablePath.of("db", "customers");
            TableInfo pk =
                    conn.admin()
                            .createTable(
                                    pkPath,
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column("id", DataTypes.BIGINT())
                                                            .column("name", DataTypes.STRING())
                                                            .primaryKey("id")
                                                            .build())
                                            .bucketCount(2)
                                            .build(),
                                    false);
            try (AppendWriter w = conn.appendWriter(logPath)) {
                for (long i = 0; i < 500; i++) {
                    w.append(Row.of(i, "x"));
                }
                w.flush();
            }
            try (AppendWriter w = conn.appendWriter(dailyPath)) {
                for (long i = 0; i < 100; i++) {
                    w.append(Row.of(i, "2026-12-03"));
                }
                w.flush();
            }
            try (UpsertWriter w = conn.upsertWriter(pkPath)) {
                for (long i = 0; i < 200; i++) {
                    w.upsert(Row.of(i, "n" + i));
                }
                w.flush();
            }
            BucketStore store = server.store();
            long partitionId = store.partitionIds(daily.tableId()).get(0);

            // without a snapshot yet: the end offsets alone
            List<ReportedBucket> expected =
                    expected(store, log.tableId(), daily.tableId(), partitionId, pk.tableId());
            assertThat(expected.stream().mapToLong(ReportedBucket::endOffset).sum())
                    .isEqualTo(500 + 100 + 200);
            awaitReported(server, expected);

            for (int b = 0; b < 2; b++) {
                store.snapshot(new TableBucket(pk.tableId(), b));
            }
            List<ReportedBucket> withSnapshots =
                    expected(store, log.tableId(), daily.tableId(), partitionId, pk.tableId());
            assertThat(withSnapshots)
                    .filteredOn(b -> b.tableId() == pk.tableId())
                    .allMatch(b -> b.newestKvSnapshot() != null);
            awaitReported(server, withSnapshots);
        }
    }

    private static void awaitReported(TributaryServer server, List<ReportedBucket> expected) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .untilAsserted(
                        () ->
                                assertThat(server.coordinator().reportedBucketStates(0).join())
                                        .extracting(ReportedBucketStates.Reported::bucket)
                                        .containsExactlyElementsOf(expected));
        assertThat(server.coordinator().reportedBucketStates(0).join())
                .noneMatch(ReportedBucketStates.Reported::stale);
    }

    /** The store's state of every bucket, ordered like the coordinator's reported states. */
    private static List<ReportedBucket> expected(
            BucketStore store, long logTable, long dailyTable, long partitionId, long pkTable) {
        List<ReportedBucket> out = new ArrayList<>();
        for (int b = 0; b < 3; b++) {
            out.add(state(store, new TableBucket(logTable, b), false));
        }
        for (int b = 0; b < 2; b++) {
            out.add(state(store, new TableBucket(dailyTable, partitionId, b), false));
        }
        for (int b = 0; b < 2; b++) {
            out.add(state(store, new TableBucket(pkTable, b), true));
        }
        out.sort(
                java.util.Comparator.comparingLong(ReportedBucket::tableId)
                        .thenComparingLong(ReportedBucket::partitionId)
                        .thenComparingInt(ReportedBucket::bucket));
        return out;
    }

    private static ReportedBucket state(BucketStore store, TableBucket tb, boolean pk) {
        KvSnapshotRef snapshot =
                pk
                        ? store.latestSnapshot(tb)
                                .map(s -> new KvSnapshotRef(s.snapshotId(), s.logOffset()))
                                .orElse(null)
                        : null;
        return new ReportedBucket(
                tb.tableId(), tb.partitionId(), tb.bucket(), store.endOffset(tb), snapshot);
    }
}

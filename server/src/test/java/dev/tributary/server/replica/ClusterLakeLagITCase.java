package dev.tributary.server.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.rpc.PeerChannels;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.BucketOffsetPb;
import dev.tributary.rpc.proto.ListOffsetsRequest;
import dev.tributary.rpc.proto.ReadServiceGrpc;
import dev.tributary.server.TributaryServer;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T28 on a cluster: the coordinator's server measures the lake lag of every bucket, asking the
 * leaders of the buckets it holds no replica of, so the lag counts every record not in the lake.
 */
class ClusterLakeLagITCase {
    private static final TablePath CLICKS = TablePath.of("db", "clicks");
    private static final long START_MILLIS = 1_700_000_000_000L;
    private static final int ROWS = 600;

    @TempDir Path dir;

    private final ManualClock clock = new ManualClock(START_MILLIS);
    private ThreeServers cluster;

    @AfterEach
    void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theLagCountsBucketsLedByOtherServers() throws Exception {
        cluster = new ThreeServers(dir, clock);
        TributaryServer coordinator = cluster.startThree();
        try (Connection conn = Connection.open(coordinator.rpcTarget())) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> conn.admin().describeCluster().servers().size() == 3);
            conn.admin().createDatabase("db", true);
            // one copy of each bucket, spread over the three servers; no tiering job runs, so
            // every row stays behind
            conn.admin()
                    .createTable(
                            CLICKS,
                            TableDescriptor.builder(
                                            Schema.newBuilder()
                                                    .column("id", DataTypes.BIGINT())
                                                    .column("v", DataTypes.STRING())
                                                    .build())
                                    .bucketCount(6)
                                    .bucketKeys("id")
                                    .property("table.replication.factor", "1")
                                    .property("table.datalake.enabled", "true")
                                    .property("table.datalake.freshness", "1h")
                                    .build(),
                            false);
            int here =
                    Integer.parseInt(coordinator.dataDir().getFileName().toString().substring(7));
            assertThat(coordinator.coordinator().bucketAssignments())
                    .flatExtracting(a -> a.buckets())
                    .extracting(BucketReplicas::leader)
                    .as("buckets led by the other servers")
                    .anyMatch(leader -> leader != here);
            try (AppendWriter w = conn.appendWriter(CLICKS)) {
                for (long id = 0; id < ROWS; id++) {
                    w.append(Row.of(id, "v" + id));
                }
                w.flush();
            }
            clock.advance(Duration.ofSeconds(3));

            TableTieringStatus status = conn.admin().tieringStatus(CLICKS);
            assertThat(status.lagError()).isEmpty();
            assertThat(status.lagRecords()).hasValue(ROWS);
            assertThat(status.lagMillis()).hasValue(3_000);

            // the call it makes: an append time only for a bucket the request lists
            long tableId = status.tableId();
            ManagedChannel raw = PeerChannels.open(coordinator.rpcTarget(), "", 1 << 20);
            try {
                ReadServiceGrpc.ReadServiceBlockingStub read = ReadServiceGrpc.newBlockingStub(raw);
                assertThatThrownBy(
                                () ->
                                        call(
                                                () ->
                                                        read.listOffsets(
                                                                ListOffsetsRequest.newBuilder()
                                                                        .setTableId(tableId)
                                                                        .addBuckets(0)
                                                                        .addAppendTimesFrom(
                                                                                BucketOffsetPb
                                                                                        .newBuilder()
                                                                                        .setBucket(
                                                                                                1))
                                                                        .build())))
                        .isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("which the request does not list");
            } finally {
                raw.shutdownNow();
            }
        }
    }

    private static <T> T call(java.util.function.Supplier<T> rpc) {
        try {
            return rpc.get();
        } catch (RuntimeException e) {
            throw GrpcErrors.fromThrowable(e);
        }
    }
}

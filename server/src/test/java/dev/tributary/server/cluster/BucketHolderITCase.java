package dev.tributary.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.google.protobuf.ByteString;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.store.FileMetadataStore;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.BucketLeaderPb;
import dev.tributary.rpc.proto.BucketOffsetPb;
import dev.tributary.rpc.proto.GetBucketLeadersRequest;
import dev.tributary.rpc.proto.GetBucketLeadersResponse;
import dev.tributary.rpc.proto.ListOffsetsRequest;
import dev.tributary.rpc.proto.ListOffsetsResponse;
import dev.tributary.rpc.proto.ReadLogRequest;
import dev.tributary.rpc.proto.ReadServiceGrpc;
import dev.tributary.rpc.proto.WriteRequest;
import dev.tributary.rpc.proto.WriteResponse;
import dev.tributary.rpc.proto.WriteServiceGrpc;
import dev.tributary.server.TributaryServer;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T49: a real server holds only the buckets the metadata assigns to it, and refuses writes and
 * reads of the others, naming the server that holds them. A second server is registered in the
 * metadata but never started: a cluster member the coordinator has not seen expire (manual clock),
 * so CREATE TABLE gives it half the buckets.
 */
class BucketHolderITCase {
    private static final TablePath EVENTS = TablePath.of("db", "events");

    @TempDir Path dir;

    @Test
    @DisplayName(
            "T49: buckets assigned to another server are refused with NOT_LEADER_FOR_BUCKET naming"
                    + " it; the server's own buckets take writes and reads")
    void refusesBucketsHeldElsewhere() throws Exception {
        try (FileMetadataStore metadata =
                FileMetadataStore.open(dir.resolve(CoordinatorMetadata.FILE_DIR))) {
            metadata.putServer(new ServerRegistration(7, "other-host:9123", "", 1));
        }
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.toString());
        conf.setString("server.rpc.port", "0");
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (TributaryServer server = TributaryServer.start(conf, clock, List.of());
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("db", false);
            Schema schema =
                    Schema.newBuilder()
                            .column("id", DataTypes.BIGINT())
                            .column("v", DataTypes.STRING())
                            .build();
            conn.admin()
                    .createTable(
                            EVENTS,
                            // one copy: the buckets of the server that never starts are elsewhere
                            TableDescriptor.builder(schema)
                                    .bucketCount(4)
                                    .property("table.replication.factor", "1")
                                    .build(),
                            false);
            TableInfo t = conn.admin().describeTable(EVENTS);
            // balanced by count, ties to the lower id: buckets 0 and 2 here (server 0), 1 and 3
            // on server 7
            Map<Integer, Integer> buckets =
                    conn.admin().describeCluster().servers().stream()
                            .collect(
                                    Collectors.toMap(
                                            ClusterInfo.Server::serverId,
                                            ClusterInfo.Server::buckets));
            assertThat(buckets).containsEntry(0, 2).containsEntry(7, 2);

            ManagedChannel raw =
                    NettyChannelBuilder.forTarget(server.rpcTarget()).usePlaintext().build();
            try {
                WriteServiceGrpc.WriteServiceBlockingStub writes =
                        WriteServiceGrpc.newBlockingStub(raw);
                ReadServiceGrpc.ReadServiceBlockingStub reads =
                        ReadServiceGrpc.newBlockingStub(raw);
                WriteResponse ok = call(() -> writes.append(request(t, 0, schema)));
                assertThat(ok.getEndOffset()).isEqualTo(1);
                assertThatThrownBy(() -> call(() -> writes.append(request(t, 1, schema))))
                        .isInstanceOf(NotLeaderForBucketException.class)
                        .hasMessageContaining(
                                "bucket 1 of table db.events is held by server 7 at"
                                        + " other-host:9123");
                assertThatThrownBy(
                                () ->
                                        call(
                                                () ->
                                                        reads.readLog(
                                                                        ReadLogRequest.newBuilder()
                                                                                .setTableId(
                                                                                        t.tableId())
                                                                                .setBucket(3)
                                                                                .build())
                                                                .hasNext()))
                        .isInstanceOf(NotLeaderForBucketException.class)
                        .hasMessageContaining("bucket 3 of table db.events is held by server 7");
                assertThat(
                                call(
                                        () ->
                                                reads.readLog(
                                                                ReadLogRequest.newBuilder()
                                                                        .setTableId(t.tableId())
                                                                        .setBucket(0)
                                                                        .build())
                                                        .next()))
                        .isNotNull();

                // any server tells who holds each bucket, and who it is itself (route35)
                GetBucketLeadersResponse leaders =
                        call(
                                () ->
                                        reads.getBucketLeaders(
                                                GetBucketLeadersRequest.newBuilder()
                                                        .setTableId(t.tableId())
                                                        .build()));
                assertThat(leaders.getServerId()).isEqualTo(0);
                assertThat(leaders.getBucketCount()).isEqualTo(4);
                assertThat(leaders.hasPartitionId()).isFalse();
                assertThat(leaders.getLeadersList())
                        .extracting(
                                BucketLeaderPb::getBucket,
                                BucketLeaderPb::getServerId,
                                BucketLeaderPb::getRpcAddress)
                        .containsExactly(
                                tuple(0, 0, server.advertisedRpcAddress()),
                                tuple(1, 7, "other-host:9123"),
                                tuple(2, 0, server.advertisedRpcAddress()),
                                tuple(3, 7, "other-host:9123"));
                assertThatThrownBy(
                                () ->
                                        call(
                                                () ->
                                                        reads.getBucketLeaders(
                                                                GetBucketLeadersRequest.newBuilder()
                                                                        .setTableId(t.tableId())
                                                                        .setPartition("dt=x")
                                                                        .build())))
                        .isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("not partitioned");

                // listings: a client asks each server only for the buckets it holds
                ListOffsetsResponse own =
                        call(
                                () ->
                                        reads.listOffsets(
                                                ListOffsetsRequest.newBuilder()
                                                        .setTableId(t.tableId())
                                                        .addBuckets(0)
                                                        .addBuckets(2)
                                                        .build()));
                assertThat(own.getEndOffsetsList())
                        .extracting(BucketOffsetPb::getBucket, BucketOffsetPb::getOffset)
                        .containsExactly(tuple(0, 1L), tuple(2, 0L));
                assertThatThrownBy(
                                () ->
                                        call(
                                                () ->
                                                        reads.listOffsets(
                                                                ListOffsetsRequest.newBuilder()
                                                                        .setTableId(t.tableId())
                                                                        .build())))
                        .isInstanceOf(NotLeaderForBucketException.class);
                assertThatThrownBy(
                                () ->
                                        call(
                                                () ->
                                                        reads.listOffsets(
                                                                ListOffsetsRequest.newBuilder()
                                                                        .setTableId(t.tableId())
                                                                        .addBuckets(0)
                                                                        .addBuckets(0)
                                                                        .build())))
                        .isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("named twice");
            } finally {
                raw.shutdownNow();
            }
        }
    }

    private static WriteRequest request(TableInfo t, int bucket, Schema schema) {
        WriteBatch batch =
                WriteBatch.builder(t.tableId(), bucket, t.schemaId(), schema)
                        .append(Row.of(1L, "x"))
                        .build();
        return WriteRequest.newBuilder()
                .setTableId(t.tableId())
                .setBucket(bucket)
                .setSchemaId(t.schemaId())
                .setBatch(ByteString.copyFrom(batch.toBytes()))
                .build();
    }

    private static <T> T call(Supplier<T> s) {
        try {
            return s.get();
        } catch (RuntimeException e) {
            throw GrpcErrors.fromThrowable(e);
        }
    }
}

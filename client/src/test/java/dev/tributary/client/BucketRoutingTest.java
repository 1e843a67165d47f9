package dev.tributary.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.client.lookup.Lookuper;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.WriteResult;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.AdminServiceGrpc;
import dev.tributary.rpc.proto.BucketLeaderPb;
import dev.tributary.rpc.proto.BucketOffsetPb;
import dev.tributary.rpc.proto.DescribeTableRequest;
import dev.tributary.rpc.proto.GetBucketLeadersRequest;
import dev.tributary.rpc.proto.GetBucketLeadersResponse;
import dev.tributary.rpc.proto.ListOffsetsRequest;
import dev.tributary.rpc.proto.ListOffsetsResponse;
import dev.tributary.rpc.proto.LookupRequest;
import dev.tributary.rpc.proto.LookupResponse;
import dev.tributary.rpc.proto.LookupValuePb;
import dev.tributary.rpc.proto.ReadLogRequest;
import dev.tributary.rpc.proto.ReadLogResponse;
import dev.tributary.rpc.proto.ReadServiceGrpc;
import dev.tributary.rpc.proto.TableInfoPb;
import dev.tributary.rpc.proto.WriteRequest;
import dev.tributary.rpc.proto.WriteResponse;
import dev.tributary.rpc.proto.WriteServiceGrpc;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 22 step 3: writers and scanners send each bucket's requests to the server holding it and
 * follow {@code NOT_LEADER_FOR_BUCKET}. Two scripted servers over loopback gRPC stand for a cluster
 * of two: "server 0" (the one the client connects to) holds bucket 0; "server 7" holds bucket 1.
 * Each answers exactly what a real server answers from its metadata (its holders, a refusal of a
 * bucket it does not hold); the store is a map of end offsets.
 */
class BucketRoutingTest {
    private static final TablePath PATH = TablePath.of("db", "t");
    private static final Schema SCHEMA =
            Schema.newBuilder().column("id", DataTypes.BIGINT()).build();
    private static final TableDescriptor DESCRIPTOR =
            TableDescriptor.builder(SCHEMA).bucketCount(2).bucketKeys("id").build();
    private static final long TABLE_ID = 3;
    private static final TablePath PK_PATH = TablePath.of("db", "pk");
    private static final TableDescriptor PK_DESCRIPTOR =
            TableDescriptor.builder(
                            Schema.newBuilder()
                                    .column("id", DataTypes.BIGINT())
                                    .primaryKey("id")
                                    .build())
                    .bucketCount(2)
                    .build();

    private final List<Server> servers = new ArrayList<>();

    /** One server: holds the buckets in {@code held}, refuses the others like a real one. */
    private static final class ScriptedServer {
        final int serverId;
        final List<Integer> held;
        final Map<Integer, Long> ends = new HashMap<>();

        /** Per append received: bucket, writer id, sequence, accepted (1) or refused (0). */
        final List<long[]> appends = new ArrayList<>();

        final AtomicInteger leaderCalls = new AtomicInteger();
        final AtomicInteger readLogCalls = new AtomicInteger();
        final AtomicInteger lookupCalls = new AtomicInteger();

        /** The buckets each ListOffsets named (empty: every bucket). */
        final List<List<Integer>> listed = new ArrayList<>();

        /**
         * The holders this server reports, by bucket: [server id, address]; the first call gets the
         * first answer, later calls {@code laterHolders} when set (a server that learned more).
         */
        volatile Object[][] holders;

        volatile Object[][] laterHolders;

        String address;

        ScriptedServer(int serverId, List<Integer> held) {
            this.serverId = serverId;
            this.held = held;
        }

        NotLeaderForBucketException refusal(int bucket) {
            return new NotLeaderForBucketException(
                    "bucket " + bucket + " is not held by this server (" + serverId + ")");
        }

        Server start() throws Exception {
            TableInfoPb info =
                    TableInfoPb.newBuilder()
                            .setTableId(TABLE_ID)
                            .setPath(ProtoConverters.toPb(PATH))
                            .setSchemaId(1)
                            .setTableDescriptor(ProtoConverters.toPb(DESCRIPTOR))
                            .build();
            TableInfoPb pkInfo =
                    info.toBuilder()
                            .setPath(ProtoConverters.toPb(PK_PATH))
                            .setTableDescriptor(ProtoConverters.toPb(PK_DESCRIPTOR))
                            .build();
            Server s =
                    NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                            .addService(
                                    new AdminServiceGrpc.AdminServiceImplBase() {
                                        @Override
                                        public void describeTable(
                                                DescribeTableRequest req,
                                                StreamObserver<TableInfoPb> out) {
                                            out.onNext(
                                                    ProtoConverters.fromPb(req.getPath())
                                                                    .equals(PK_PATH)
                                                            ? pkInfo
                                                            : info);
                                            out.onCompleted();
                                        }
                                    })
                            .addService(
                                    new WriteServiceGrpc.WriteServiceImplBase() {
                                        @Override
                                        public void append(
                                                WriteRequest req,
                                                StreamObserver<WriteResponse> out) {
                                            onAppend(req, out);
                                        }
                                    })
                            .addService(
                                    new ReadServiceGrpc.ReadServiceImplBase() {
                                        @Override
                                        public void getBucketLeaders(
                                                GetBucketLeadersRequest req,
                                                StreamObserver<GetBucketLeadersResponse> out) {
                                            Object[][] holders =
                                                    leaderCalls.getAndIncrement() > 0
                                                                    && laterHolders != null
                                                            ? laterHolders
                                                            : ScriptedServer.this.holders;
                                            GetBucketLeadersResponse.Builder b =
                                                    GetBucketLeadersResponse.newBuilder()
                                                            .setServerId(serverId)
                                                            .setBucketCount(holders.length);
                                            for (int i = 0; i < holders.length; i++) {
                                                b.addLeaders(
                                                        BucketLeaderPb.newBuilder()
                                                                .setBucket(i)
                                                                .setServerId((int) holders[i][0])
                                                                .setRpcAddress(
                                                                        (String) holders[i][1]));
                                            }
                                            out.onNext(b.build());
                                            out.onCompleted();
                                        }

                                        @Override
                                        public void listOffsets(
                                                ListOffsetsRequest req,
                                                StreamObserver<ListOffsetsResponse> out) {
                                            onListOffsets(req, out);
                                        }

                                        @Override
                                        public void lookup(
                                                LookupRequest req,
                                                StreamObserver<LookupResponse> out) {
                                            lookupCalls.incrementAndGet();
                                            if (!held.contains(req.getBucket())) {
                                                out.onError(
                                                        GrpcErrors.toStatus(
                                                                refusal(req.getBucket())));
                                                return;
                                            }
                                            LookupResponse.Builder r =
                                                    LookupResponse.newBuilder().setSchemaId(1);
                                            req.getKeysList()
                                                    .forEach(
                                                            k ->
                                                                    r.addValues(
                                                                            LookupValuePb
                                                                                    .getDefaultInstance()));
                                            out.onNext(r.build());
                                            out.onCompleted();
                                        }

                                        @Override
                                        public void readLog(
                                                ReadLogRequest req,
                                                StreamObserver<ReadLogResponse> out) {
                                            readLogCalls.incrementAndGet();
                                            if (!held.contains(req.getBucket())) {
                                                out.onError(
                                                        GrpcErrors.toStatus(
                                                                refusal(req.getBucket())));
                                                return;
                                            }
                                            out.onCompleted(); // an empty bucket
                                        }
                                    })
                            .build()
                            .start();
            address = "127.0.0.1:" + s.getPort();
            return s;
        }

        /** As a real server: every named bucket (empty: all) must be held here. */
        private synchronized void onListOffsets(
                ListOffsetsRequest req, StreamObserver<ListOffsetsResponse> out) {
            listed.add(List.copyOf(req.getBucketsList()));
            List<Integer> buckets =
                    req.getBucketsCount() == 0 ? List.of(0, 1) : req.getBucketsList();
            ListOffsetsResponse.Builder r = ListOffsetsResponse.newBuilder();
            for (int b : buckets) {
                if (!held.contains(b)) {
                    out.onError(GrpcErrors.toStatus(refusal(b)));
                    return;
                }
                long end = ends.getOrDefault(b, 0L);
                r.addEndOffsets(BucketOffsetPb.newBuilder().setBucket(b).setOffset(end));
                r.addStartOffsets(BucketOffsetPb.newBuilder().setBucket(b).setOffset(0));
            }
            out.onNext(r.build());
            out.onCompleted();
        }

        private synchronized void onAppend(WriteRequest req, StreamObserver<WriteResponse> out) {
            WriteBatch batch = WriteBatch.fromBytes(req.getBatch().toByteArray());
            boolean holds = held.contains(req.getBucket());
            appends.add(
                    new long[] {
                        req.getBucket(), batch.writerId(), batch.sequence(), holds ? 1 : 0
                    });
            if (!holds) {
                out.onError(GrpcErrors.toStatus(refusal(req.getBucket())));
                return;
            }
            long base = ends.getOrDefault(req.getBucket(), 0L);
            ends.put(req.getBucket(), base + batch.recordCount());
            out.onNext(
                    WriteResponse.newBuilder()
                            .setBaseOffset(base)
                            .setEndOffset(base + batch.recordCount())
                            .build());
            out.onCompleted();
        }
    }

    private ScriptedServer start(int serverId, List<Integer> held) throws Exception {
        ScriptedServer s = new ScriptedServer(serverId, held);
        servers.add(s.start());
        return s;
    }

    @AfterEach
    void stop() {
        servers.forEach(Server::shutdownNow);
    }

    private static Connection connect(String address) {
        return Connection.builder()
                .address(address)
                .option("client.writer.batch-size", "1kb")
                .option("client.writer.retry-backoff", "1ms")
                .build();
    }

    @Test
    @DisplayName(
            "a stale holder refuses with NOT_LEADER_FOR_BUCKET: the writer asks again and re-sends"
                    + " the same batch (writer id, sequence) to the bucket's server")
    void writerFollowsTheBucketsServer() throws Exception {
        ScriptedServer zero = start(0, List.of(0));
        ScriptedServer seven = start(7, List.of(1));
        // first answer stale: server 0 claims both buckets; then it knows bucket 1 is on 7
        Object[][] stale = {{0, zero.address}, {0, zero.address}};
        Object[][] current = {{0, "advertised-name-of-zero:1"}, {7, seven.address}};
        zero.holders = stale;
        zero.laterHolders = current;
        seven.holders = current;

        BucketFunction buckets = BucketFunction.of(DESCRIPTOR);
        List<CompletableFuture<WriteResult>> futures = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        try (Connection conn = connect(zero.address);
                AppendWriter w = conn.appendWriter(PATH)) {
            // one row per bucket first, so the stale answer is the one cached
            long first1 = firstIdIn(buckets, 1);
            futures.add(w.append(Row.of(first1)));
            ids.add(first1);
            w.flush();
            assertThat(zero.leaderCalls.get()).isEqualTo(2); // the stale one, then after refusal
            for (long i = 0; i < 500; i++) {
                futures.add(w.append(Row.of(i)));
                ids.add(i);
            }
            w.flush();
            assertThat(zero.leaderCalls.get()).isEqualTo(2);
        }

        // the refused batch came again to server 7 under the same writer id and sequence
        long[] refused = zero.appends.get(0);
        assertThat(refused[0]).isEqualTo(1);
        assertThat(refused[3]).isZero();
        long[] resent = seven.appends.get(0);
        assertThat(resent[0]).isEqualTo(1);
        assertThat(resent[1]).isEqualTo(refused[1]);
        assertThat(resent[2]).isEqualTo(refused[2]);
        // after the refresh every bucket-1 batch went to 7, every bucket-0 batch to 0
        assertThat(zero.appends.subList(1, zero.appends.size()))
                .allSatisfy(a -> assertThat(a[0]).isEqualTo(0));
        assertThat(seven.appends).allSatisfy(a -> assertThat(a[0]).isEqualTo(1));
        assertThat(seven.appends).allSatisfy(a -> assertThat(a[3]).isEqualTo(1));
        // each row landed once at its bucket's server, offsets contiguous per bucket
        Map<Integer, Long> expectedNext = new HashMap<>();
        for (int i = 0; i < futures.size(); i++) {
            WriteResult r = futures.get(i).join();
            int bucket = buckets.bucketOf(Row.of(ids.get(i)));
            assertThat(r.bucket()).isEqualTo(bucket);
            expectedNext.merge(bucket, 1L, Long::sum);
        }
        assertThat(zero.ends).containsEntry(0, expectedNext.get(0));
        assertThat(seven.ends).containsEntry(1, expectedNext.get(1));
        assertThat(zero.ends).doesNotContainKey(1);

        // offsets: each server asked for its own buckets
        try (Connection conn = connect(zero.address)) {
            assertThat(conn.logScanner(PATH).endOffsets())
                    .containsEntry(0, expectedNext.get(0))
                    .containsEntry(1, expectedNext.get(1))
                    .hasSize(2);
        }
        assertThat(zero.listed).containsExactly(List.of(0));
        assertThat(seven.listed).containsExactly(List.of(1));
    }

    @Test
    @DisplayName(
            "a lone server (every bucket its own) keeps everything on the connection's channel,"
                    + " whatever address it registered")
    void loneServerStaysOnTheBootstrapChannel() throws Exception {
        ScriptedServer zero = start(0, List.of(0, 1));
        zero.holders = new Object[][] {{0, "unreachable-advertised:1"}, {0, "unreachable:1"}};
        try (Connection conn = connect(zero.address);
                AppendWriter w = conn.appendWriter(PATH)) {
            for (long i = 0; i < 100; i++) {
                w.append(Row.of(i));
            }
            w.flush();
            assertThat(conn.logScanner(PATH).readAll(1)).isEmpty();
        }
        assertThat(zero.appends).allSatisfy(a -> assertThat(a[3]).isEqualTo(1));
        assertThat(zero.ends.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(100);
        assertThat(zero.leaderCalls.get()).isEqualTo(1);
        // a listing is one request for every bucket, as before routing existed
        try (Connection conn = connect(zero.address)) {
            assertThat(conn.logScanner(PATH).endOffsets().values().stream().mapToLong(l -> l).sum())
                    .isEqualTo(100);
        }
        assertThat(zero.listed).containsExactly(List.of());
    }

    @Test
    @DisplayName(
            "a scan refused with NOT_LEADER_FOR_BUCKET before its first message is opened again at"
                    + " the bucket's server")
    void scannerFollowsTheBucketsServer() throws Exception {
        ScriptedServer zero = start(0, List.of(0));
        ScriptedServer seven = start(7, List.of(1));
        Object[][] current = {{0, zero.address}, {7, seven.address}};
        zero.holders = new Object[][] {{0, zero.address}, {0, zero.address}};
        zero.laterHolders = current;
        seven.holders = current;
        try (Connection conn = connect(zero.address)) {
            LogScanner scanner = conn.logScanner(PATH);
            assertThat(scanner.readAll(0)).isEmpty(); // caches the stale answer
            assertThat(scanner.readAll(1)).isEmpty();
            assertThat(zero.readLogCalls.get()).isEqualTo(2); // bucket 0, refused bucket 1
            assertThat(seven.readLogCalls.get()).isEqualTo(1);
            // cached now: straight to 7
            assertThat(scanner.readAll(1)).isEmpty();
            assertThat(seven.readLogCalls.get()).isEqualTo(2);
            assertThat(zero.readLogCalls.get()).isEqualTo(2);
            assertThat(zero.leaderCalls.get()).isEqualTo(2);
        }
    }

    @Test
    @DisplayName(
            "a lookup refused with NOT_LEADER_FOR_BUCKET is asked again at the bucket's server")
    void lookupFollowsTheBucketsServer() throws Exception {
        ScriptedServer zero = start(0, List.of(0));
        ScriptedServer seven = start(7, List.of(1));
        zero.holders = new Object[][] {{0, zero.address}, {0, zero.address}};
        zero.laterHolders = new Object[][] {{0, zero.address}, {7, seven.address}};
        long inBucket1 = firstIdIn(BucketFunction.of(PK_DESCRIPTOR), 1);
        long inBucket0 = firstIdIn(BucketFunction.of(PK_DESCRIPTOR), 0);
        try (Connection conn = connect(zero.address)) {
            Lookuper lookuper = conn.lookuper(PK_PATH);
            assertThat(lookuper.lookup(Row.of(inBucket1))).isEmpty();
            assertThat(zero.lookupCalls.get()).isEqualTo(1); // refused
            assertThat(seven.lookupCalls.get()).isEqualTo(1);
            assertThat(lookuper.lookupAll(List.of(Row.of(inBucket0), Row.of(inBucket1))))
                    .containsExactly(Optional.empty(), Optional.empty());
            assertThat(zero.lookupCalls.get()).isEqualTo(2);
            assertThat(seven.lookupCalls.get()).isEqualTo(2);
            assertThat(zero.leaderCalls.get()).isEqualTo(2);
        }
    }

    private static long firstIdIn(BucketFunction f, int bucket) {
        for (long i = 0; ; i++) {
            if (f.bucketOf(Row.of(i)) == bucket) {
                return i;
            }
        }
    }
}

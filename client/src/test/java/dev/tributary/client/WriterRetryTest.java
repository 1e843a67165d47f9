package dev.tributary.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.WriteResult;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.AdminServiceGrpc;
import dev.tributary.rpc.proto.DescribeTableRequest;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The writer's batching and retry logic against a scripted write service over loopback gRPC (the
 * store is replaced by a map of bucket offsets, so the service can fail on purpose).
 */
class WriterRetryTest {
    private static final TablePath PATH = TablePath.of("db", "t");
    private static final Schema SCHEMA =
            Schema.newBuilder().column("id", DataTypes.BIGINT()).build();

    private Server server;

    /** Fails the first {@code failures} attempts of every batch, then assigns offsets. */
    private static final class ScriptedWrites extends WriteServiceGrpc.WriteServiceImplBase {
        final int failures;
        final RuntimeException error;
        final Map<Integer, Long> ends = new HashMap<>();
        final Map<String, Integer> attempts = new HashMap<>();
        final List<Long> firstIdsInOrder = new ArrayList<>();
        final AtomicInteger calls = new AtomicInteger();

        /** Per attempt: the batch's first row id, writer id and sequence. */
        final List<long[]> sent = new ArrayList<>();

        ScriptedWrites(int failures, RuntimeException error) {
            this.failures = failures;
            this.error = error;
        }

        @Override
        public synchronized void append(WriteRequest req, StreamObserver<WriteResponse> out) {
            calls.incrementAndGet();
            WriteBatch batch = WriteBatch.fromBytes(req.getBatch().toByteArray());
            long firstId = batch.records(SCHEMA).get(0).row().getLong(0);
            sent.add(new long[] {firstId, batch.writerId(), batch.sequence()});
            String key = req.getBucket() + "/" + firstId;
            int attempt = attempts.merge(key, 1, Integer::sum);
            if (attempt <= failures) {
                out.onError(GrpcErrors.toStatus(error));
                return;
            }
            firstIdsInOrder.add(firstId);
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

    private String start(WriteServiceGrpc.WriteServiceImplBase writes) throws Exception {
        TableInfoPb info =
                TableInfoPb.newBuilder()
                        .setTableId(7)
                        .setPath(ProtoConverters.toPb(PATH))
                        .setSchemaId(1)
                        .setTableDescriptor(
                                ProtoConverters.toPb(
                                        TableDescriptor.builder(SCHEMA).bucketCount(1).build()))
                        .build();
        server =
                NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                        .addService(writes)
                        .addService(
                                new AdminServiceGrpc.AdminServiceImplBase() {
                                    @Override
                                    public void describeTable(
                                            DescribeTableRequest req,
                                            StreamObserver<TableInfoPb> out) {
                                        out.onNext(info);
                                        out.onCompleted();
                                    }
                                })
                        .build()
                        .start();
        return "127.0.0.1:" + server.getPort();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.shutdownNow();
        }
    }

    private static Connection connect(String address) {
        return Connection.builder()
                .address(address)
                .option("client.writer.batch-size", "1kb")
                .option("client.writer.retry-backoff", "1ms")
                .build();
    }

    @Test
    void retriableFailuresAreRetriedInOrderWithoutLosingRows() throws Exception {
        ScriptedWrites writes = new ScriptedWrites(2, new RetriableException("overloaded"));
        String address = start(writes);
        List<CompletableFuture<WriteResult>> futures = new ArrayList<>();
        try (Connection conn = connect(address);
                AppendWriter w = conn.appendWriter(PATH)) {
            for (long i = 0; i < 2000; i++) {
                futures.add(w.append(Row.of(i)));
            }
            w.flush();
        }
        for (int i = 0; i < futures.size(); i++) {
            // one bucket: row i is at offset i, exactly once
            assertThat(futures.get(i).join().offset()).isEqualTo(i);
        }
        assertThat(writes.firstIdsInOrder).isSorted();
        assertThat(writes.calls.get()).isEqualTo(3 * writes.firstIdsInOrder.size());
    }

    @Test
    void nonRetriableFailuresFailTheRowsAndFlush() throws Exception {
        ScriptedWrites writes = new ScriptedWrites(1, new InvalidInputException("bad batch"));
        String address = start(writes);
        try (Connection conn = connect(address)) {
            AppendWriter w = conn.appendWriter(PATH);
            CompletableFuture<WriteResult> f = w.append(Row.of(1L));
            assertThatThrownBy(w::flush)
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("bad batch");
            assertThat(f).isCompletedExceptionally();
            // the failure is reported once; the writer goes on
            CompletableFuture<WriteResult> g = w.append(Row.of(2L));
            assertThatThrownBy(w::flush).isInstanceOf(InvalidInputException.class);
            assertThat(g).isCompletedExceptionally();
            w.close();
        }
        assertThat(writes.calls.get()).isEqualTo(2);
    }

    /** Holds every answer until released. */
    private static final class HeldWrites extends WriteServiceGrpc.WriteServiceImplBase {
        final List<Runnable> held = new ArrayList<>();
        final AtomicInteger received = new AtomicInteger();
        long end;

        @Override
        public synchronized void append(WriteRequest req, StreamObserver<WriteResponse> out) {
            received.incrementAndGet();
            int n = WriteBatch.fromBytes(req.getBatch().toByteArray()).recordCount();
            long base = end;
            end += n;
            held.add(
                    () -> {
                        out.onNext(
                                WriteResponse.newBuilder()
                                        .setBaseOffset(base)
                                        .setEndOffset(base + n)
                                        .build());
                        out.onCompleted();
                    });
        }

        synchronized void releaseAll() {
            held.forEach(Runnable::run);
            held.clear();
        }
    }

    @Test
    void appendBlocksWhileTheBufferIsFullAndResumesWhenAcknowledged() throws Exception {
        HeldWrites writes = new HeldWrites();
        String address = start(writes);
        try (Connection conn =
                Connection.builder()
                        .address(address)
                        .option("client.writer.batch-size", "1kb")
                        .option("client.writer.buffer-memory", "8kb")
                        .build()) {
            AppendWriter w = conn.appendWriter(PATH);
            AtomicInteger appended = new AtomicInteger();
            Thread producer =
                    new Thread(
                            () -> {
                                for (long i = 0; i < 5000; i++) {
                                    w.append(Row.of(i));
                                    appended.incrementAndGet();
                                }
                            });
            producer.start();
            // the producer parks on the byte budget, well before all rows are buffered
            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> producer.getState() == Thread.State.WAITING);
            assertThat(appended.get()).isLessThan(5000);
            // acknowledging releases it; keep acknowledging until it is done
            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(20))
                    .pollInterval(java.time.Duration.ofMillis(5))
                    .until(
                            () -> {
                                writes.releaseAll();
                                return !producer.isAlive();
                            });
            assertThat(appended.get()).isEqualTo(5000);
            CompletableFuture<Void> flushed = CompletableFuture.runAsync(w::close);
            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(10))
                    .pollInterval(java.time.Duration.ofMillis(5))
                    .until(
                            () -> {
                                writes.releaseAll();
                                return flushed.isDone();
                            });
            flushed.join();
            assertThat(writes.end).isEqualTo(5000);
        }
    }

    @Test
    void retriesAreBounded() throws Exception {
        ScriptedWrites writes = new ScriptedWrites(100, new RetriableException("down"));
        String address = start(writes);
        try (Connection conn =
                Connection.builder()
                        .address(address)
                        .option("client.writer.retries", "3")
                        .option("client.writer.retry-backoff", "1ms")
                        .build()) {
            AppendWriter w = conn.appendWriter(PATH);
            w.append(Row.of(1L));
            assertThatThrownBy(w::flush).isInstanceOf(RetriableException.class);
            w.close();
        }
        assertThat(writes.calls.get()).isEqualTo(4);
    }

    @Test
    void t42_retriesResendTheBatchUnderItsWriterIdAndSequence() throws Exception {
        ScriptedWrites writes = new ScriptedWrites(2, new RetriableException("overloaded"));
        String address = start(writes);
        try (Connection conn = connect(address);
                AppendWriter w = conn.appendWriter(PATH)) {
            for (long i = 0; i < 500; i++) {
                w.append(Row.of(i));
            }
            w.flush();
        }
        long writer = writes.sent.get(0)[1];
        assertThat(writer).isNotEqualTo(WriteBatch.NO_WRITER);
        long batches = writes.sent.size() / 3;
        assertThat(batches).isGreaterThan(1);
        for (int i = 0; i < writes.sent.size(); i++) {
            long[] attempt = writes.sent.get(i);
            assertThat(attempt[1]).isEqualTo(writer);
            assertThat(attempt[2]).as("attempt %s", i).isEqualTo(i / 3);
            assertThat(attempt[0]).isEqualTo(writes.sent.get(i / 3 * 3)[0]);
        }
    }

    @Test
    void t42_afterABatchFailsForGoodTheWriterGoesOnUnderANewId() throws Exception {
        ScriptedWrites writes = new ScriptedWrites(1, new InvalidInputException("bad batch"));
        String address = start(writes);
        try (Connection conn = connect(address)) {
            AppendWriter w = conn.appendWriter(PATH);
            w.append(Row.of(1L));
            assertThatThrownBy(w::flush).isInstanceOf(InvalidInputException.class);
            w.append(Row.of(2L));
            assertThatThrownBy(w::flush).isInstanceOf(InvalidInputException.class);
            w.close();
        }
        assertThat(writes.sent).hasSize(2);
        assertThat(writes.sent.get(1)[1])
                .as("a fresh writer id: the failed batch's sequence is burnt")
                .isNotEqualTo(writes.sent.get(0)[1]);
        assertThat(writes.sent.get(0)[2]).isZero();
        assertThat(writes.sent.get(1)[2]).isZero();
    }

    @Test
    void t42_idempotenceCanBeSwitchedOff() throws Exception {
        ScriptedWrites writes = new ScriptedWrites(0, new RetriableException("unused"));
        String address = start(writes);
        try (Connection conn =
                        Connection.builder()
                                .address(address)
                                .option("client.writer.idempotence", "false")
                                .build();
                AppendWriter w = conn.appendWriter(PATH)) {
            w.append(Row.of(1L));
            w.flush();
        }
        assertThat(writes.sent.get(0)[1]).isEqualTo(WriteBatch.NO_WRITER);
        assertThat(writes.sent.get(0)[2]).isEqualTo(WriteBatch.NO_SEQUENCE);
    }
}

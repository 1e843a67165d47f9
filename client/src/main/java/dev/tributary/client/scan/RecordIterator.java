package dev.tributary.client.scan;

import com.google.protobuf.ByteString;
import dev.tributary.client.internal.RpcClient;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatches;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.types.Schema;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.ReadLogRequest;
import dev.tributary.rpc.proto.ReadLogResponse;
import dev.tributary.rpc.proto.ReadSnapshotRequest;
import dev.tributary.rpc.proto.ReadSnapshotResponse;
import io.grpc.Context;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The records of one bucket's offset range, pulled from a server stream one message at a time (the
 * server sends the next message only when this iterator asks for it). Not thread safe.
 */
public final class RecordIterator implements Iterator<LogRecord>, AutoCloseable {
    private final Context.CancellableContext context;
    private final Iterator<ByteString> chunks;
    private final long from;
    private final long to;
    private final IntFunction<Schema> schemas;
    private final ArrayDeque<LogRecord> buffered = new ArrayDeque<>();
    private boolean closed;

    private RecordIterator(
            Context.CancellableContext context,
            Iterator<ByteString> chunks,
            long from,
            long to,
            IntFunction<Schema> schemas) {
        this.context = context;
        this.chunks = chunks;
        this.from = from;
        this.to = to;
        this.schemas = schemas;
    }

    /**
     * Streams {@code [from, to)} of a bucket's log; {@code to == Long.MAX_VALUE} means the end
     * offset when the call starts.
     */
    public static RecordIterator ofLog(
            RpcClient rpc,
            long tableId,
            int bucket,
            long from,
            long to,
            IntFunction<Schema> schemas) {
        ReadLogRequest.Builder req =
                ReadLogRequest.newBuilder()
                        .setTableId(tableId)
                        .setBucket(bucket)
                        .setFromOffset(from);
        if (to != Long.MAX_VALUE) {
            req.setToOffset(to);
        }
        Context.CancellableContext context = Context.current().withCancellation();
        Iterator<ReadLogResponse> responses =
                inContext(context, () -> rpc.readStream().readLog(req.build()));
        return new RecordIterator(
                context, map(responses, ReadLogResponse::getRecords), from, to, schemas);
    }

    /**
     * Streams {@code [from, to)} of a bucket's log as the raw log batch chunks the server sends
     * (checksummed, undecoded), for readers that decode lazily.
     */
    public static LogChunkStream logChunks(
            RpcClient rpc, long tableId, int bucket, long from, long to) {
        ReadLogRequest req =
                ReadLogRequest.newBuilder()
                        .setTableId(tableId)
                        .setBucket(bucket)
                        .setFromOffset(from)
                        .setToOffset(to)
                        .build();
        Context.CancellableContext context = Context.current().withCancellation();
        Iterator<ReadLogResponse> responses =
                inContext(context, () -> rpc.readStream().readLog(req));
        return new LogChunkStream(context, map(responses, ReadLogResponse::getRecords));
    }

    /** Streams a KV snapshot's rows as the raw log batch chunks the server sends. */
    public static LogChunkStream snapshotChunks(
            RpcClient rpc, long tableId, int bucket, long snapshotId) {
        ReadSnapshotRequest req =
                ReadSnapshotRequest.newBuilder()
                        .setTableId(tableId)
                        .setBucket(bucket)
                        .setSnapshotId(snapshotId)
                        .build();
        Context.CancellableContext context = Context.current().withCancellation();
        Iterator<ReadSnapshotResponse> responses =
                inContext(context, () -> rpc.readStream().readSnapshot(req));
        return new LogChunkStream(context, map(responses, ReadSnapshotResponse::getRecords));
    }

    /** Streams every row of a KV snapshot as INSERT records. */
    public static RecordIterator ofSnapshot(
            RpcClient rpc, long tableId, int bucket, long snapshotId, IntFunction<Schema> schemas) {
        ReadSnapshotRequest req =
                ReadSnapshotRequest.newBuilder()
                        .setTableId(tableId)
                        .setBucket(bucket)
                        .setSnapshotId(snapshotId)
                        .build();
        Context.CancellableContext context = Context.current().withCancellation();
        Iterator<ReadSnapshotResponse> responses =
                inContext(context, () -> rpc.readStream().readSnapshot(req));
        return new RecordIterator(
                context,
                map(responses, ReadSnapshotResponse::getRecords),
                0,
                Long.MAX_VALUE,
                schemas);
    }

    private static <T> T inContext(Context.CancellableContext context, Supplier<T> call) {
        Context previous = context.attach();
        try {
            return RpcClient.call(call);
        } finally {
            context.detach(previous);
        }
    }

    private static <T> Iterator<ByteString> map(Iterator<T> in, Function<T, ByteString> f) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return in.hasNext();
            }

            @Override
            public ByteString next() {
                return f.apply(in.next());
            }
        };
    }

    @Override
    public boolean hasNext() {
        while (buffered.isEmpty()) {
            if (closed || !nextMessage()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public LogRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return buffered.poll();
    }

    private boolean nextMessage() {
        try {
            if (!chunks.hasNext()) {
                closed = true;
                return false;
            }
            byte[] bytes = chunks.next().toByteArray();
            for (LogBatch batch : LogBatches.of(bytes)) {
                batch.ensureValid();
                if (batch.nextOffset() <= from || batch.baseOffset() >= to) {
                    continue;
                }
                for (LogRecord rec : batch.records(schemas.apply(batch.schemaId()))) {
                    if (rec.offset() >= from && rec.offset() < to) {
                        buffered.add(rec);
                    }
                }
            }
            return true;
        } catch (RuntimeException e) {
            close();
            throw GrpcErrors.fromThrowable(e);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
        }
        context.cancel(null);
    }
}

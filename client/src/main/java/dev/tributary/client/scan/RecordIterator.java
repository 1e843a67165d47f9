package dev.tributary.client.scan;

import dev.tributary.client.internal.BucketLeaders;
import dev.tributary.client.internal.RpcClient;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
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
    /** A snapshot read that takes the snapshot at whatever offset it is. */
    private static final long ANY_OFFSET = -1;

    private LogChunkStream chunks;
    private final long from;
    private final long to;
    private final IntFunction<Schema> schemas;
    private final ArrayDeque<LogRecord> buffered = new ArrayDeque<>();
    private boolean closed;

    /** Opens the stream again after a failure before its first message, or null; may be null. */
    private final Function<TributaryException, LogChunkStream> reopen;

    private boolean received;

    private RecordIterator(LogChunkStream chunks, long from, long to, IntFunction<Schema> schemas) {
        this(chunks, from, to, schemas, null);
    }

    private RecordIterator(
            LogChunkStream chunks,
            long from,
            long to,
            IntFunction<Schema> schemas,
            Function<TributaryException, LogChunkStream> reopen) {
        this.chunks = chunks;
        this.from = from;
        this.to = to;
        this.schemas = schemas;
        this.reopen = reopen;
    }

    /**
     * Streams {@code [from, to)} of a bucket's log from the server holding it (issue 22 step 3). A
     * stream the server refuses with {@code NOT_LEADER_FOR_BUCKET} before its first message is
     * opened once more, on the holder asked again; a second refusal is the caller's.
     */
    public static RecordIterator ofLog(
            BucketLeaders leaders,
            TableBucket bucket,
            long from,
            long to,
            IntFunction<Schema> schemas) {
        return routed(leaders, bucket, rpc -> logChunks(rpc, bucket, from, to), from, to, schemas);
    }

    /**
     * Streams every row of a KV snapshot as INSERT records from the server holding the bucket,
     * reopened once like {@link #ofLog(BucketLeaders, TableBucket, long, long, IntFunction)}.
     */
    public static RecordIterator ofSnapshot(
            BucketLeaders leaders,
            TableBucket bucket,
            long snapshotId,
            IntFunction<Schema> schemas) {
        return routed(
                leaders,
                bucket,
                rpc -> snapshotChunks(rpc, bucket, snapshotId),
                0,
                Long.MAX_VALUE,
                schemas);
    }

    private static RecordIterator routed(
            BucketLeaders leaders,
            TableBucket bucket,
            Function<RpcClient, LogChunkStream> open,
            long from,
            long to,
            IntFunction<Schema> schemas) {
        BucketLeaders.Key key = BucketLeaders.Key.of(bucket);
        boolean[] reopened = {false};
        return new RecordIterator(
                open.apply(leaders.clientFor(key, bucket.bucket())),
                from,
                to,
                schemas,
                e -> {
                    if (reopened[0] || !leaders.onFailure(key, e)) {
                        return null;
                    }
                    reopened[0] = true;
                    return open.apply(leaders.clientFor(key, bucket.bucket()));
                });
    }

    /**
     * The raw chunks of {@code [from, to)} of a bucket's log from the server holding it. A refusal
     * ({@code NOT_LEADER_FOR_BUCKET}) forgets the holder before it is thrown, so the caller's retry
     * (a reader retries its split) asks for the holder again.
     */
    public static LogChunkStream logChunks(
            BucketLeaders leaders, TableBucket bucket, long from, long to) {
        BucketLeaders.Key key = BucketLeaders.Key.of(bucket);
        return logChunks(leaders.clientFor(key, bucket.bucket()), bucket, from, to)
                .onFailure(e -> leaders.onFailure(key, e));
    }

    /** A KV snapshot's raw chunks from the server holding the bucket, like {@link #logChunks}. */
    public static LogChunkStream snapshotChunks(
            BucketLeaders leaders, TableBucket bucket, long snapshotId) {
        return snapshotChunks(leaders, bucket, snapshotId, ANY_OFFSET);
    }

    /**
     * Like {@link #snapshotChunks(BucketLeaders, TableBucket, long)}, refused ({@link
     * dev.tributary.common.exception.FencedException}) unless the snapshot is consistent at {@code
     * expectedLogOffset}: snapshot ids are each replica's own, so after a leader change the same id
     * on the new leader can name another state.
     */
    public static LogChunkStream snapshotChunks(
            BucketLeaders leaders, TableBucket bucket, long snapshotId, long expectedLogOffset) {
        BucketLeaders.Key key = BucketLeaders.Key.of(bucket);
        return snapshotChunks(
                        leaders.clientFor(key, bucket.bucket()),
                        bucket,
                        snapshotId,
                        expectedLogOffset)
                .onFailure(e -> leaders.onFailure(key, e));
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
        return new RecordIterator(logChunks(rpc, tableId, bucket, from, to), from, to, schemas);
    }

    /** Streams {@code [from, to)} of any bucket's log (a partition's too). */
    public static RecordIterator ofLog(
            RpcClient rpc, TableBucket bucket, long from, long to, IntFunction<Schema> schemas) {
        return new RecordIterator(logChunks(rpc, bucket, from, to), from, to, schemas);
    }

    /** Streams every row of a KV snapshot of any bucket as INSERT records. */
    public static RecordIterator ofSnapshot(
            RpcClient rpc, TableBucket bucket, long snapshotId, IntFunction<Schema> schemas) {
        return new RecordIterator(
                snapshotChunks(rpc, bucket, snapshotId), 0, Long.MAX_VALUE, schemas);
    }

    /** Streams every row of a KV snapshot as INSERT records. */
    public static RecordIterator ofSnapshot(
            RpcClient rpc, long tableId, int bucket, long snapshotId, IntFunction<Schema> schemas) {
        return new RecordIterator(
                snapshotChunks(rpc, tableId, bucket, snapshotId), 0, Long.MAX_VALUE, schemas);
    }

    /**
     * Streams {@code [from, to)} of a bucket's log as the raw log batch chunks the server sends
     * (checksummed, undecoded), for readers that decode lazily; {@code to == Long.MAX_VALUE} means
     * the end offset when the call starts.
     */
    public static LogChunkStream logChunks(
            RpcClient rpc, long tableId, int bucket, long from, long to) {
        return logChunks(rpc, new TableBucket(tableId, bucket), from, to);
    }

    /**
     * Like {@link #logChunks(RpcClient, long, int, long, long)} for any bucket (partitions too).
     */
    public static LogChunkStream logChunks(RpcClient rpc, TableBucket bucket, long from, long to) {
        ReadLogRequest.Builder req =
                ReadLogRequest.newBuilder()
                        .setTableId(bucket.tableId())
                        .setBucket(bucket.bucket())
                        .setFromOffset(from);
        if (bucket.isPartitioned()) {
            req.setPartitionId(bucket.partitionId());
        }
        if (to != Long.MAX_VALUE) {
            req.setToOffset(to);
        }
        Context.CancellableContext context = Context.current().withCancellation();
        Iterator<ReadLogResponse> responses =
                inContext(context, () -> rpc.readStream().readLog(req.build()));
        return new LogChunkStream(context, responses, ReadLogResponse::getRecords);
    }

    /** Streams a KV snapshot's rows as the raw log batch chunks the server sends. */
    public static LogChunkStream snapshotChunks(
            RpcClient rpc, long tableId, int bucket, long snapshotId) {
        return snapshotChunks(rpc, new TableBucket(tableId, bucket), snapshotId);
    }

    /** Like {@link #snapshotChunks(RpcClient, long, int, long)} for any bucket. */
    public static LogChunkStream snapshotChunks(
            RpcClient rpc, TableBucket bucket, long snapshotId) {
        return snapshotChunks(rpc, bucket, snapshotId, ANY_OFFSET);
    }

    private static LogChunkStream snapshotChunks(
            RpcClient rpc, TableBucket bucket, long snapshotId, long expectedLogOffset) {
        ReadSnapshotRequest.Builder b =
                ReadSnapshotRequest.newBuilder()
                        .setTableId(bucket.tableId())
                        .setBucket(bucket.bucket())
                        .setSnapshotId(snapshotId);
        if (bucket.isPartitioned()) {
            b.setPartitionId(bucket.partitionId());
        }
        if (expectedLogOffset != ANY_OFFSET) {
            b.setExpectedLogOffset(expectedLogOffset);
        }
        ReadSnapshotRequest req = b.build();
        Context.CancellableContext context = Context.current().withCancellation();
        Iterator<ReadSnapshotResponse> responses =
                inContext(context, () -> rpc.readStream().readSnapshot(req));
        return new LogChunkStream(context, responses, ReadSnapshotResponse::getRecords);
    }

    private static <T> T inContext(Context.CancellableContext context, Supplier<T> call) {
        Context previous = context.attach();
        try {
            return RpcClient.call(call);
        } finally {
            context.detach(previous);
        }
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
            if (!hasNextChunk()) {
                closed = true;
                return false;
            }
            byte[] chunk = chunks.next();
            received = true;
            for (LogBatch batch : LogBatches.of(chunk)) {
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

    /** Whether the stream has another chunk; reopens it once when the routing was stale. */
    private boolean hasNextChunk() {
        try {
            return chunks.hasNext();
        } catch (TributaryException e) {
            LogChunkStream again = received || reopen == null ? null : reopen.apply(e);
            if (again == null) {
                throw e;
            }
            chunks = again;
            return chunks.hasNext();
        }
    }

    @Override
    public void close() {
        closed = true;
        chunks.close();
    }
}

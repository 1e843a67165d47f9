package dev.tributary.client.internal;

import com.google.protobuf.UnsafeByteOperations;
import dev.tributary.client.ClientOptions;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.write.WriteResult;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.record.WriteKind;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.Row;
import dev.tributary.rpc.proto.WriteRequest;
import dev.tributary.rpc.proto.WriteResponse;
import java.io.InterruptedIOException;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The batching engine behind the append and upsert writers, shared by the writers of one table on
 * one connection (so that their rows fill the same batches): one open batch per bucket, sealed when
 * full, when the linger time passes or on flush; at most one request in flight per bucket so a
 * bucket's batches (and their retries) land in the order they were written; a byte budget that
 * blocks callers while too much is unacknowledged. Each request goes to its bucket's server ({@link
 * BucketLeaders}, issue 22 step 3).
 *
 * <p>A partitioned table's rows are routed by partition first, then by bucket within the partition
 * (T30): each partition a writer has written to has its own bucket queues, created on its first
 * row, and every request names its partition.
 *
 * <p>Idempotence (T42, {@code client.writer.idempotence}, on by default): the core is one writer
 * with a random 64-bit id, and numbers its batches per bucket 0, 1, 2, ... when it sends them; a
 * retry re-sends the same bytes, so the server recognises a batch it already appended. One request
 * in flight per bucket means only a bucket's last batch can come again, which is all the server
 * remembers. When a batch fails for good nobody knows whether it was appended (its rows fail as in
 * doubt), so the core continues under a new writer id with sequences from 0 instead of leaving a
 * gap the server would refuse.
 */
public final class WriterCore {
    private final TableInfo table;
    private final BatchSender sender;
    private final ScheduledExecutorService scheduler;
    private final long batchBytes;
    private final long lingerMillis;
    private final int bufferBytes;
    private final Semaphore budget;
    private final BucketFunction bucketFunction;
    private final BucketQueue[] buckets;
    private final PartitionRouter partitionRouter;
    private final Map<String, PartitionQueues> partitions = new HashMap<>();
    private final boolean upsert;
    private final boolean idempotent;
    private long writerId;
    // writers of one table start on different buckets so that they do not queue behind each other
    private static final java.util.concurrent.atomic.AtomicInteger WRITER_COUNT =
            new java.util.concurrent.atomic.AtomicInteger();
    private static final SecureRandom WRITER_IDS = new SecureRandom();
    private int stickyBucket;
    private boolean closed;
    private int holders;
    private TributaryException firstFailure;

    public WriterCore(
            BucketLeaders leaders,
            TableInfo table,
            boolean upsert,
            Configuration options,
            ScheduledExecutorService scheduler) {
        this.table = table;
        this.upsert = upsert;
        this.scheduler = scheduler;
        this.sender =
                new BatchSender(
                        leaders,
                        upsert,
                        options.get(ClientOptions.WRITER_RETRIES),
                        options.get(ClientOptions.WRITER_RETRY_BACKOFF),
                        options.get(ClientOptions.WRITER_RETRY_BACKOFF_MAX),
                        scheduler);
        this.batchBytes = options.get(ClientOptions.WRITER_BATCH_SIZE).bytes();
        this.lingerMillis = options.get(ClientOptions.WRITER_LINGER).toMillis();
        this.bufferBytes =
                (int)
                        Math.min(
                                Integer.MAX_VALUE,
                                options.get(ClientOptions.WRITER_BUFFER_MEMORY).bytes());
        this.budget = new Semaphore(bufferBytes);
        this.bucketFunction =
                table.descriptor().bucketKeys().isEmpty()
                        ? null
                        : BucketFunction.of(table.descriptor());
        this.buckets = new BucketQueue[table.bucketCount()];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new BucketQueue(null, i);
        }
        this.stickyBucket = Math.floorMod(WRITER_COUNT.getAndIncrement(), buckets.length);
        this.partitionRouter =
                table.descriptor().isPartitioned() ? PartitionRouter.of(table.descriptor()) : null;
        this.idempotent = options.get(ClientOptions.WRITER_IDEMPOTENCE);
        this.writerId = idempotent ? newWriterId() : WriteBatch.NO_WRITER;
    }

    /**
     * A random non-zero id: 64 random bits make two writers of one bucket sharing an id within the
     * state expiration practically impossible, without a round trip to allocate one.
     */
    private static long newWriterId() {
        long id;
        do {
            id = WRITER_IDS.nextLong();
        } while (id == WriteBatch.NO_WRITER);
        return id;
    }

    /** The writer id the next batches are sent under ({@link WriteBatch#NO_WRITER} when off). */
    public synchronized long writerId() {
        return writerId;
    }

    public TableInfo table() {
        return table;
    }

    /**
     * Adds one record; returns once it is buffered. Blocks while the writer's buffer is full.
     *
     * @throws InvalidInputException when the row does not fit the schema (nothing is buffered)
     */
    public CompletableFuture<WriteResult> add(WriteKind kind, Row row) {
        OpenBatch batch;
        CompletableFuture<WriteResult> future;
        int grown;
        BucketQueue bucket;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the writer is closed");
            }
            bucket = queueOf(row);
            batch = bucket.openBatch();
            int before = batch.builder.sizeInBytes();
            batch.builder.add(kind, row);
            grown = batch.builder.sizeInBytes() - before;
            future = new CompletableFuture<>();
            batch.rowFutures.add(future);
            batch.reservedBytes += grown;
            if (batch.builder.sizeInBytes() >= batchBytes) {
                bucket.seal();
            }
        }
        acquire(Math.min(grown, bufferBytes));
        return future;
    }

    /**
     * Sends every buffered row and waits for all of them; throws the first failure since the last
     * flush.
     */
    public void flush() {
        List<CompletableFuture<WriteResponse>> pending = new ArrayList<>();
        synchronized (this) {
            for (BucketQueue b : buckets) {
                b.seal();
                pending.addAll(b.outstanding());
            }
            for (PartitionQueues p : partitions.values()) {
                for (BucketQueue b : p.buckets) {
                    b.seal();
                    pending.addAll(b.outstanding());
                }
            }
        }
        for (CompletableFuture<WriteResponse> f : pending) {
            try {
                f.join();
            } catch (CompletionException e) {
                // recorded in firstFailure
            }
        }
        TributaryException failure;
        synchronized (this) {
            failure = firstFailure;
            firstFailure = null;
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** One more writer uses this core. */
    public synchronized void retain() {
        holders++;
    }

    /** A writer is done: flushes, and closes the core when it was the last one. */
    public void release() {
        try {
            flush();
        } finally {
            synchronized (this) {
                if (--holders <= 0) {
                    closed = true;
                }
            }
        }
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /** The queue of the row's (partition, bucket); checks the partition columns first. */
    private BucketQueue queueOf(Row row) {
        if (partitionRouter == null) {
            return buckets[chooseBucket(row)];
        }
        checkArity(row);
        String name = partitionRouter.partitionOf(row).name();
        PartitionQueues p = partitions.computeIfAbsent(name, PartitionQueues::new);
        if (bucketFunction != null) {
            return p.buckets[bucketFunction.bucketOf(row)];
        }
        // no bucket key: stay on one bucket of the partition until its batch is sealed
        BucketQueue sticky = p.buckets[p.stickyBucket];
        if (sticky.open == null && sticky.sealedSinceSticky) {
            sticky.sealedSinceSticky = false;
            p.stickyBucket = (p.stickyBucket + 1) % p.buckets.length;
        }
        return p.buckets[p.stickyBucket];
    }

    private void checkArity(Row row) {
        if (row.arity() != table.schema().fieldCount()) {
            throw new InvalidInputException(
                    "row has "
                            + row.arity()
                            + " fields but table "
                            + table.path()
                            + " has "
                            + table.schema().fieldCount()
                            + " columns "
                            + table.schema().columnNames());
        }
    }

    private int chooseBucket(Row row) {
        if (bucketFunction != null) {
            if (row.arity() != table.schema().fieldCount()) {
                throw new InvalidInputException(
                        "row has "
                                + row.arity()
                                + " fields but table "
                                + table.path()
                                + " has "
                                + table.schema().fieldCount()
                                + " columns "
                                + table.schema().columnNames());
            }
            return bucketFunction.bucketOf(row);
        }
        // no bucket key: stay on one bucket until its batch is sealed, then move on
        if (buckets[stickyBucket].open == null && buckets[stickyBucket].sealedSinceSticky) {
            buckets[stickyBucket].sealedSinceSticky = false;
            stickyBucket = (stickyBucket + 1) % buckets.length;
        }
        return stickyBucket;
    }

    private void acquire(int bytes) {
        try {
            budget.acquire(bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.tributary.common.exception.RetriableException(
                    "interrupted while waiting for buffer space", new InterruptedIOException());
        }
    }

    private synchronized void onDone(BucketQueue bucket, OpenBatch batch, Throwable error) {
        bucket.inFlight = false;
        if (error != null && idempotent) {
            // the failed batch may or may not be in the log: its sequence is burnt either way
            writerId = newWriterId();
        }
        if (error != null && firstFailure == null) {
            Throwable cause =
                    error instanceof CompletionException && error.getCause() != null
                            ? error.getCause()
                            : error;
            firstFailure =
                    cause instanceof TributaryException te
                            ? te
                            : new dev.tributary.rpc.error.ServerInternalException(
                                    String.valueOf(cause.getMessage()), cause);
        }
        budget.release(Math.min(batch.reservedBytes, bufferBytes));
        bucket.sendNext();
    }

    /** A batch being filled or waiting to be sent. */
    private static final class OpenBatch {
        final WriteBatchBuilder builder;
        final CompletableFuture<WriteResponse> result = new CompletableFuture<>();
        // one future per row, completed in a plain loop: cheaper than a dependent stage per row
        final ArrayList<CompletableFuture<WriteResult>> rowFutures = new ArrayList<>();
        int reservedBytes;

        OpenBatch(WriteBatchBuilder builder) {
            this.builder = builder;
        }

        void completeRows(
                String partition,
                int bucket,
                boolean append,
                WriteResponse response,
                Throwable error) {
            // ascending indexes of the deletes that found no row; usually none
            List<Integer> absent = error == null ? response.getAbsentDeletesList() : List.of();
            int nextAbsent = 0;
            for (int i = 0; i < rowFutures.size(); i++) {
                CompletableFuture<WriteResult> f = rowFutures.get(i);
                if (error != null) {
                    f.completeExceptionally(error);
                } else {
                    boolean keyWasAbsent =
                            nextAbsent < absent.size() && absent.get(nextAbsent) == i;
                    if (keyWasAbsent) {
                        nextAbsent++;
                    }
                    f.complete(
                            new WriteResult(
                                    bucket,
                                    append ? response.getBaseOffset() + i : response.getEndOffset(),
                                    keyWasAbsent,
                                    partition));
                }
            }
        }
    }

    /** The bucket queues of one partition; guarded by the core's lock. */
    private final class PartitionQueues {
        final BucketQueue[] buckets;
        int stickyBucket;

        PartitionQueues(String name) {
            this.buckets = new BucketQueue[table.bucketCount()];
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new BucketQueue(name, i);
            }
            this.stickyBucket = WriterCore.this.stickyBucket;
        }
    }

    /** One bucket's open batch, sealed batches and in-flight flag; guarded by the core's lock. */
    private final class BucketQueue {
        /** The partition's name, {@code null} for an unpartitioned table. */
        final String partition;

        final int bucket;
        final ArrayDeque<OpenBatch> sealed = new ArrayDeque<>();
        OpenBatch open;
        OpenBatch sending;
        boolean inFlight;
        boolean sealedSinceSticky;
        long sequenceWriter = WriteBatch.NO_WRITER;
        long nextSequence;

        BucketQueue(String partition, int bucket) {
            this.partition = partition;
            this.bucket = bucket;
        }

        OpenBatch openBatch() {
            if (open == null) {
                OpenBatch batch =
                        new OpenBatch(
                                WriteBatch.builder(
                                        table.tableId(), bucket, table.schemaId(), table.schema()));
                open = batch;
                if (lingerMillis > 0) {
                    scheduler.schedule(
                            () -> sealIfOpen(batch), lingerMillis, TimeUnit.MILLISECONDS);
                }
            }
            return open;
        }

        void sealIfOpen(OpenBatch batch) {
            synchronized (WriterCore.this) {
                if (open == batch) {
                    seal();
                }
            }
        }

        void seal() {
            if (open == null) {
                return;
            }
            OpenBatch batch = open;
            open = null;
            sealedSinceSticky = true;
            if (batch.builder.recordCount() == 0) {
                batch.completeRows(
                        partition, bucket, !upsert, WriteResponse.getDefaultInstance(), null);
                batch.result.complete(WriteResponse.getDefaultInstance());
                return;
            }
            sealed.add(batch);
            sendNext();
        }

        List<CompletableFuture<WriteResponse>> outstanding() {
            List<CompletableFuture<WriteResponse>> out = new ArrayList<>();
            if (sending != null) {
                out.add(sending.result);
            }
            for (OpenBatch b : sealed) {
                out.add(b.result);
            }
            return out;
        }

        void sendNext() {
            if (inFlight || sealed.isEmpty()) {
                if (!inFlight) {
                    sending = null;
                }
                return;
            }
            OpenBatch batch = sealed.poll();
            inFlight = true;
            sending = batch;
            if (idempotent) {
                if (sequenceWriter != writerId) {
                    sequenceWriter = writerId;
                    nextSequence = 0;
                }
                batch.builder.writer(writerId, nextSequence++);
            }
            WriteBatch wb = batch.builder.build();
            WriteRequest.Builder request =
                    WriteRequest.newBuilder()
                            .setTableId(table.tableId())
                            .setSchemaId(table.schemaId())
                            .setBucket(bucket)
                            .setBatch(UnsafeByteOperations.unsafeWrap(wb.toBytes()));
            if (partition != null) {
                request.setPartition(partition);
            }
            sender.send(request.build())
                    .whenComplete(
                            (response, error) -> {
                                onDone(this, batch, error);
                                batch.completeRows(partition, bucket, !upsert, response, error);
                                if (error != null) {
                                    batch.result.completeExceptionally(error);
                                } else {
                                    batch.result.complete(response);
                                }
                            });
        }
    }
}

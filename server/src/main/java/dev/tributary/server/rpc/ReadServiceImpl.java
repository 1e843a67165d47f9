package dev.tributary.server.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatchBuilder;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.rpc.proto.BucketLeaderPb;
import dev.tributary.rpc.proto.BucketOffsetPb;
import dev.tributary.rpc.proto.GetBucketLeadersRequest;
import dev.tributary.rpc.proto.GetBucketLeadersResponse;
import dev.tributary.rpc.proto.ListOffsetsRequest;
import dev.tributary.rpc.proto.ListOffsetsResponse;
import dev.tributary.rpc.proto.ListSnapshotsRequest;
import dev.tributary.rpc.proto.ListSnapshotsResponse;
import dev.tributary.rpc.proto.LookupRequest;
import dev.tributary.rpc.proto.LookupResponse;
import dev.tributary.rpc.proto.LookupValuePb;
import dev.tributary.rpc.proto.ReadLogRequest;
import dev.tributary.rpc.proto.ReadLogResponse;
import dev.tributary.rpc.proto.ReadServiceGrpc;
import dev.tributary.rpc.proto.ReadSnapshotRequest;
import dev.tributary.rpc.proto.ReadSnapshotResponse;
import dev.tributary.rpc.proto.SnapshotInfoPb;
import dev.tributary.server.partition.PartitionService;
import dev.tributary.server.status.LocalBucketEnds;
import dev.tributary.server.store.LocalBuckets;
import dev.tributary.storage.BucketStore;
import dev.tributary.storage.CloseableIterator;
import dev.tributary.storage.LogReadResult;
import dev.tributary.storage.kv.KvSnapshotInfo;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The read path: bounded, flow-controlled log and snapshot streams, lookups and listings. */
public final class ReadServiceImpl extends ReadServiceGrpc.ReadServiceImplBase {
    private final BucketStore store;
    private final LocalBuckets buckets;
    private final int defaultChunkBytes;
    private final PartitionService partitions;
    private final LocalBucketEnds ends;

    public ReadServiceImpl(
            BucketStore store,
            LocalBuckets buckets,
            int defaultChunkBytes,
            PartitionService partitions) {
        this.store = store;
        this.buckets = buckets;
        this.defaultChunkBytes = defaultChunkBytes;
        this.partitions = partitions;
        this.ends = new LocalBucketEnds(store);
    }

    @Override
    public void readLog(ReadLogRequest req, StreamObserver<ReadLogResponse> out) {
        TableBucket bucket;
        long to;
        try {
            TableInfo table = buckets.table(req.getTableId());
            bucket =
                    bucketOf(
                            table,
                            ServerConverters.partitionOf(
                                    req.hasPartitionId(), req.getPartitionId()),
                            req.getBucket());
            long end = store.endOffset(bucket);
            to = req.hasToOffset() ? req.getToOffset() : end;
            if (req.getFromOffset() < 0 || to < req.getFromOffset()) {
                throw new InvalidInputException(
                        "invalid offset range [" + req.getFromOffset() + ", " + to + ")");
            }
            if (to > end && to <= store.replicaLog(bucket).writtenEndOffset()) {
                // held here but not acknowledged yet: a new leader whose high watermark has not
                // caught up with the old leader's, which the reader planned by (T51, T52)
                throw new RetriableException(
                        "offset "
                                + to
                                + " of bucket "
                                + bucket
                                + " is not acknowledged by its in-sync replicas yet (high"
                                + " watermark "
                                + end
                                + "); retry shortly");
            }
            if (to > end) {
                throw new InvalidInputException(
                        "offset "
                                + to
                                + " is beyond the end offset "
                                + end
                                + " of bucket "
                                + bucket);
            }
        } catch (Throwable t) {
            Calls.fail(out, t);
            return;
        }
        int chunk = chunkBytes(req.getMaxBytesPerMessage());
        long[] next = {req.getFromOffset()};
        long until = to;
        StreamPump.start(
                out,
                () -> {
                    if (next[0] >= until) {
                        return null;
                    }
                    LogReadResult r = store.read(bucket, next[0], chunk);
                    if (r.isEmpty() || r.nextOffset() <= next[0]) {
                        return null;
                    }
                    next[0] = r.nextOffset();
                    return ReadLogResponse.newBuilder()
                            .setRecords(UnsafeByteOperations.unsafeWrap(r.records()))
                            .setNextOffset(r.nextOffset())
                            .setEndOffset(r.highWatermark())
                            .build();
                },
                () -> {});
    }

    @Override
    public void readSnapshot(ReadSnapshotRequest req, StreamObserver<ReadSnapshotResponse> out) {
        TableInfo table;
        TableBucket bucket;
        CloseableIterator<byte[]> rows;
        long logOffset;
        try {
            table = buckets.table(req.getTableId());
            requirePrimaryKey(table);
            bucket =
                    bucketOf(
                            table,
                            ServerConverters.partitionOf(
                                    req.hasPartitionId(), req.getPartitionId()),
                            req.getBucket());
            logOffset =
                    store.listSnapshots(bucket).stream()
                            .filter(s -> s.snapshotId() == req.getSnapshotId())
                            .findFirst()
                            .map(KvSnapshotInfo::logOffset)
                            .orElseThrow(
                                    () ->
                                            new NotFoundException(
                                                    "snapshot "
                                                            + req.getSnapshotId()
                                                            + " of bucket "
                                                            + bucket
                                                            + " does not exist"));
            if (req.hasExpectedLogOffset() && req.getExpectedLogOffset() != logOffset) {
                throw new FencedException(
                        "snapshot "
                                + req.getSnapshotId()
                                + " of bucket "
                                + bucket
                                + " is at log offset "
                                + logOffset
                                + " here, not "
                                + req.getExpectedLogOffset()
                                + " as planned: snapshot ids are each replica's own and the"
                                + " bucket's leader changed since; plan the read again");
            }
            // as stored: no decoding into rows and encoding back (T54)
            rows = store.readSnapshotEncoded(bucket, req.getSnapshotId());
        } catch (Throwable t) {
            Calls.fail(out, t);
            return;
        }
        int chunk = chunkBytes(req.getMaxBytesPerMessage());
        int schemaId = table.schemaId();
        StreamPump.start(
                out,
                () -> {
                    if (!rows.hasNext()) {
                        return null;
                    }
                    LogBatchBuilder b = new LogBatchBuilder(schemaId, chunk);
                    while (rows.hasNext() && b.sizeInBytes() < chunk) {
                        byte[] row = rows.next();
                        b.addEncoded(ChangeType.INSERT, 0L, row, 0, row.length);
                    }
                    return ReadSnapshotResponse.newBuilder()
                            .setRecords(UnsafeByteOperations.unsafeWrap(b.build()))
                            .setLogOffset(logOffset)
                            .build();
                },
                rows::close);
    }

    @Override
    public void lookup(LookupRequest req, StreamObserver<LookupResponse> out) {
        Calls.unary(
                out,
                () -> {
                    TableInfo table = buckets.table(req.getTableId());
                    requirePrimaryKey(table);
                    long partitionId = TableBucket.NO_PARTITION;
                    if (table.descriptor().isPartitioned() || req.hasPartition()) {
                        partitionId =
                                partitions
                                        .existing(
                                                table,
                                                req.hasPartition() ? req.getPartition() : null)
                                        .partitionId();
                    }
                    TableBucket bucket = bucketOf(table, partitionId, req.getBucket());
                    Schema schema = table.schema();
                    List<DataType> keyTypes = new ArrayList<>();
                    for (int p : schema.primaryKeyIndexes()) {
                        keyTypes.add(schema.typeAt(p));
                    }
                    RowCodec keyCodec = new RowCodec(keyTypes);
                    RowCodec rowCodec = RowCodec.of(schema);
                    LookupResponse.Builder resp =
                            LookupResponse.newBuilder().setSchemaId(table.schemaId());
                    for (ByteString k : req.getKeysList()) {
                        Row key = decodeKey(keyCodec, k, keyTypes.size());
                        Optional<Row> row = store.lookup(bucket, key);
                        resp.addValues(
                                row.map(
                                                r ->
                                                        LookupValuePb.newBuilder()
                                                                .setFound(true)
                                                                .setRow(
                                                                        UnsafeByteOperations
                                                                                .unsafeWrap(
                                                                                        rowCodec
                                                                                                .encode(
                                                                                                        r))))
                                        .orElseGet(() -> LookupValuePb.newBuilder().setFound(false))
                                        .build());
                    }
                    return resp.build();
                });
    }

    @Override
    public void listOffsets(ListOffsetsRequest req, StreamObserver<ListOffsetsResponse> out) {
        Calls.unary(
                out,
                () -> {
                    TableInfo table = buckets.table(req.getTableId());
                    ListOffsetsResponse.Builder b = ListOffsetsResponse.newBuilder();
                    List<Long> listed =
                            partitionsToList(table, req.hasPartitionId(), req.getPartitionId());
                    List<Integer> listedBuckets = bucketsToList(table, req.getBucketsList());
                    // bad input is refused before any bucket is read
                    if (req.getAppendTimesFromCount() > table.descriptor().bucketCount()) {
                        throw new InvalidInputException(
                                "at most one append time per bucket ("
                                        + table.descriptor().bucketCount()
                                        + "), got "
                                        + req.getAppendTimesFromCount());
                    }
                    for (BucketOffsetPb from : req.getAppendTimesFromList()) {
                        long pid =
                                from.hasPartitionId()
                                        ? from.getPartitionId()
                                        : TableBucket.NO_PARTITION;
                        if (!listed.contains(pid) || !listedBuckets.contains(from.getBucket())) {
                            throw new InvalidInputException(
                                    "an append time was asked for bucket "
                                            + from.getBucket()
                                            + " of partition "
                                            + pid
                                            + ", which the request does not list");
                        }
                    }
                    for (long pid : listed) {
                        for (int i : listedBuckets) {
                            TableBucket tb = bucketOf(table, pid, i);
                            b.addEndOffsets(offsetPb(tb, store.endOffset(tb)));
                            b.addStartOffsets(offsetPb(tb, store.startOffset(tb)));
                        }
                    }
                    for (BucketOffsetPb from : req.getAppendTimesFromList()) {
                        long pid =
                                from.hasPartitionId()
                                        ? from.getPartitionId()
                                        : TableBucket.NO_PARTITION;
                        TableBucket tb = bucketOf(table, pid, from.getBucket());
                        ends.end(tb, from.getOffset())
                                .firstUntieredMillis()
                                .ifPresent(ms -> b.addAppendTimes(offsetPb(tb, ms)));
                    }
                    return b.build();
                });
    }

    @Override
    public void listSnapshots(ListSnapshotsRequest req, StreamObserver<ListSnapshotsResponse> out) {
        Calls.unary(
                out,
                () -> {
                    TableInfo table = buckets.table(req.getTableId());
                    ListSnapshotsResponse.Builder b = ListSnapshotsResponse.newBuilder();
                    if (!table.descriptor().hasPrimaryKey()) {
                        return b.build();
                    }
                    for (long pid :
                            partitionsToList(table, req.hasPartitionId(), req.getPartitionId())) {
                        for (int i : bucketsToList(table, req.getBucketsList())) {
                            store.latestSnapshot(bucketOf(table, pid, i))
                                    .ifPresent(
                                            s -> {
                                                SnapshotInfoPb.Builder info =
                                                        SnapshotInfoPb.newBuilder()
                                                                .setBucket(s.bucket().bucket())
                                                                .setSnapshotId(s.snapshotId())
                                                                .setLogOffset(s.logOffset())
                                                                .setCreatedAtMillis(
                                                                        s.createdAtMillis());
                                                if (s.bucket().isPartitioned()) {
                                                    info.setPartitionId(s.bucket().partitionId());
                                                }
                                                b.addSnapshots(info);
                                            });
                        }
                    }
                    return b.build();
                });
    }

    /**
     * Which server holds each bucket, from this server's applied metadata: every server answers, a
     * client asks the one it is connected to. At most one entry per bucket of the table; with
     * {@code with_replicas} also leaderless buckets, and each bucket's replicas and in-sync set.
     */
    @Override
    public void getBucketLeaders(
            GetBucketLeadersRequest req, StreamObserver<GetBucketLeadersResponse> out) {
        Calls.unary(
                out,
                () -> {
                    LocalBuckets.Leaders leaders =
                            buckets.leaders(
                                    req.getTableId(),
                                    req.hasPartitionId()
                                            ? req.getPartitionId()
                                            : TableBucket.NO_PARTITION,
                                    req.hasPartition() ? req.getPartition() : null,
                                    req.getWithReplicas());
                    GetBucketLeadersResponse.Builder b =
                            GetBucketLeadersResponse.newBuilder()
                                    .setServerId(buckets.serverId())
                                    .setBucketCount(leaders.bucketCount());
                    if (leaders.partitionId() != TableBucket.NO_PARTITION) {
                        b.setPartitionId(leaders.partitionId());
                    }
                    for (LocalBuckets.Leader l : leaders.leaders()) {
                        BucketLeaderPb.Builder lb =
                                BucketLeaderPb.newBuilder()
                                        .setBucket(l.bucket())
                                        .setServerId(l.serverId())
                                        .setRpcAddress(l.rpcAddress().orElse(""));
                        if (req.getWithReplicas()) {
                            lb.addAllReplicas(l.replicas().replicas())
                                    .addAllInSyncReplicas(l.replicas().isr())
                                    .addAllMoveTarget(l.replicas().target())
                                    .setLeaderEpoch(l.replicas().leaderEpoch());
                        }
                        b.addLeaders(lb);
                    }
                    return b.build();
                });
    }

    private int chunkBytes(int requested) {
        return requested > 0 ? Math.min(requested, 32 << 20) : defaultChunkBytes;
    }

    private static BucketOffsetPb offsetPb(TableBucket tb, long offset) {
        BucketOffsetPb.Builder b =
                BucketOffsetPb.newBuilder().setBucket(tb.bucket()).setOffset(offset);
        if (tb.isPartitioned()) {
            b.setPartitionId(tb.partitionId());
        }
        return b.build();
    }

    /** The partitions a listing covers: one, every open one, or none for unpartitioned tables. */
    private List<Long> partitionsToList(TableInfo table, boolean has, long partitionId) {
        if (!table.descriptor().isPartitioned()) {
            if (has) {
                throw new InvalidInputException(
                        "table " + table.path() + " is not partitioned; name no partition");
            }
            return List.of(TableBucket.NO_PARTITION);
        }
        return has ? List.of(partitionId) : store.partitionIds(table.tableId());
    }

    /** The bucket a request names, checked to exist and to be held by this server (T49). */
    private TableBucket bucketOf(TableInfo table, long partitionId, int bucket) {
        if (table.descriptor().isPartitioned() != (partitionId != TableBucket.NO_PARTITION)) {
            throw new InvalidInputException(
                    table.descriptor().isPartitioned()
                            ? "table "
                                    + table.path()
                                    + " is partitioned by "
                                    + table.descriptor().partitionKeys()
                                    + ": name the bucket's partition"
                            : "table " + table.path() + " is not partitioned; name no partition");
        }
        buckets.requireHeld(table, partitionId, checkBucket(table, bucket));
        return TableBucket.of(
                table.tableId(), dev.tributary.common.id.PartitionBucket.of(partitionId, bucket));
    }

    /**
     * The buckets a listing covers: the requested ones (a client asks each server for those it
     * holds), or every bucket. Each at most once, so the answer stays bounded by the table.
     */
    private static List<Integer> bucketsToList(TableInfo table, List<Integer> requested) {
        int count = table.descriptor().bucketCount();
        if (requested.isEmpty()) {
            List<Integer> all = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                all.add(i);
            }
            return all;
        }
        if (requested.size() > count) {
            throw new InvalidInputException(
                    "asked for " + requested.size() + " buckets of a table with " + count);
        }
        Set<Integer> seen = new HashSet<>();
        for (int b : requested) {
            checkBucket(table, b);
            if (!seen.add(b)) {
                throw new InvalidInputException("bucket " + b + " is named twice");
            }
        }
        return requested;
    }

    private static int checkBucket(TableInfo table, int bucket) {
        if (bucket < 0 || bucket >= table.descriptor().bucketCount()) {
            throw new InvalidInputException(
                    "bucket "
                            + bucket
                            + " does not exist: table "
                            + table.path()
                            + " has buckets 0.."
                            + (table.descriptor().bucketCount() - 1));
        }
        return bucket;
    }

    private static void requirePrimaryKey(TableInfo table) {
        if (!table.descriptor().hasPrimaryKey()) {
            throw new InvalidInputException(
                    "table " + table.path() + " has no primary key: it has no KV state to read");
        }
    }

    private static Row decodeKey(RowCodec codec, ByteString bytes, int arity) {
        Row key;
        try {
            key = codec.decode(bytes.toByteArray());
        } catch (RuntimeException e) {
            throw new InvalidInputException("malformed lookup key: " + e.getMessage(), e);
        }
        if (key.arity() != arity) {
            throw new InvalidInputException(
                    "a lookup key needs " + arity + " fields, got " + key.arity());
        }
        for (int i = 0; i < arity; i++) {
            if (key.isNullAt(i)) {
                throw new InvalidInputException("a lookup key cannot contain NULL");
            }
        }
        return key;
    }
}

package dev.tributary.client.scan;

import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.internal.BucketLeaders;
import dev.tributary.client.internal.RpcClient;
import dev.tributary.client.internal.TableMetadataCache;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.types.Schema;
import dev.tributary.rpc.proto.BucketOffsetPb;
import dev.tributary.rpc.proto.ListOffsetsRequest;
import dev.tributary.rpc.proto.ListOffsetsResponse;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a table's buckets by offset range. Each {@link #scan} streams the records of {@code [from,
 * to)} of one bucket from the server holding it with flow control, decoding rows under the table's
 * newest schema (rows written before a column was added read NULL in it). For a primary-key table
 * the records are its changelog.
 *
 * <pre>{@code
 * LogScanner scanner = connection.logScanner(path);
 * long end = scanner.endOffsets().get(0);
 * try (RecordIterator it = scanner.scan(0, 0, end)) {
 *     while (it.hasNext()) { LogRecord r = it.next(); ... }
 * }
 * }</pre>
 */
public final class LogScanner {
    private final BucketLeaders leaders;
    private final RpcClient rpc;
    private final TableMetadataCache cache;
    private final TableInfo table;

    /**
     * @param leaders each bucket's server: scans go there; offset listings, which cover every
     *     bucket, go to the bootstrap channel
     */
    public LogScanner(BucketLeaders leaders, TableMetadataCache cache, TableInfo table) {
        this.leaders = leaders;
        this.rpc = leaders.bootstrap();
        this.cache = cache;
        this.table = table;
    }

    public TableInfo table() {
        return table;
    }

    /**
     * Each bucket's end offset (the offset the next record will get), for an unpartitioned table.
     *
     * @throws InvalidInputException for a partitioned table: use {@link #endOffsets(long)} or
     *     {@link #partitionEndOffsets()}
     */
    public Map<Integer, Long> endOffsets() {
        requireUnpartitioned("end");
        return toMap(listOffsets(null), true);
    }

    /**
     * Each bucket's start offset: the first record still in the store (retention deletes older
     * ones; for a lake table only records already tiered), for an unpartitioned table.
     *
     * @throws InvalidInputException for a partitioned table
     */
    public Map<Integer, Long> startOffsets() {
        requireUnpartitioned("start");
        return toMap(listOffsets(null), false);
    }

    private void requireUnpartitioned(String which) {
        if (table.descriptor().isPartitioned()) {
            throw new InvalidInputException(
                    "table "
                            + table.path()
                            + " is partitioned: ask for one partition's "
                            + which
                            + " offsets");
        }
    }

    private static Map<Integer, Long> toMap(List<ListOffsetsResponse> responses, boolean ends) {
        Map<Integer, Long> out = new TreeMap<>();
        for (ListOffsetsResponse r : responses) {
            for (BucketOffsetPb b : ends ? r.getEndOffsetsList() : r.getStartOffsetsList()) {
                out.put(b.getBucket(), b.getOffset());
            }
        }
        return out;
    }

    /** Each bucket's end offset in one partition of a partitioned table. */
    public Map<Integer, Long> endOffsets(long partitionId) {
        Map<Integer, Long> out = new TreeMap<>();
        listEnds(partitionId).forEach((pb, o) -> out.put(pb.bucket(), o));
        return out;
    }

    /** The end offset of every bucket of every partition of a partitioned table. */
    public Map<PartitionBucket, Long> partitionEndOffsets() {
        return listEnds(null);
    }

    /**
     * Each bucket's start offset in one partition of a partitioned table: the first record still in
     * the store (retention deletes only tiered records of a lake table).
     *
     * @throws dev.tributary.common.exception.NotFoundException when the partition does not exist
     *     (any more)
     */
    public Map<Integer, Long> startOffsets(long partitionId) {
        Map<Integer, Long> out = new TreeMap<>();
        list(partitionId, false).forEach((pb, o) -> out.put(pb.bucket(), o));
        return out;
    }

    /** The start offset of every bucket of every partition of a partitioned table. */
    public Map<PartitionBucket, Long> partitionStartOffsets() {
        return list(null, false);
    }

    private Map<PartitionBucket, Long> listEnds(Long partitionId) {
        return list(partitionId, true);
    }

    private Map<PartitionBucket, Long> list(Long partitionId, boolean ends) {
        Map<PartitionBucket, Long> out = new TreeMap<>();
        for (ListOffsetsResponse r : listOffsets(partitionId)) {
            for (BucketOffsetPb b : ends ? r.getEndOffsetsList() : r.getStartOffsetsList()) {
                out.put(
                        new PartitionBucket(
                                b.hasPartitionId() ? b.getPartitionId() : TableBucket.NO_PARTITION,
                                b.getBucket()),
                        b.getOffset());
            }
        }
        return out;
    }

    /**
     * The offsets of an unpartitioned table's buckets or of one partition's, asked of each server
     * for the buckets it holds; every partition's ({@code partitionId} null) from the bootstrap
     * server alone.
     */
    private List<ListOffsetsResponse> listOffsets(Long partitionId) {
        ListOffsetsRequest.Builder req =
                ListOffsetsRequest.newBuilder().setTableId(table.tableId());
        if (partitionId != null) {
            req.setPartitionId(partitionId);
        }
        if (partitionId == null && table.descriptor().isPartitioned()) {
            return List.of(RpcClient.call(() -> rpc.read().listOffsets(req.build())));
        }
        BucketLeaders.Key key =
                BucketLeaders.Key.partition(
                        table.tableId(),
                        partitionId == null ? TableBucket.NO_PARTITION : partitionId);
        return leaders.fanOut(
                key,
                (c, buckets) ->
                        c.read()
                                .listOffsets(
                                        req.clone().clearBuckets().addAllBuckets(buckets).build()));
    }

    /** Streams {@code [fromOffset, toOffset)} of one bucket of one partition. */
    public RecordIterator scan(long partitionId, int bucket, long fromOffset, long toOffset) {
        if (partitionId == TableBucket.NO_PARTITION) {
            return scan(bucket, fromOffset, toOffset);
        }
        checkRange(bucket, fromOffset, toOffset);
        return RecordIterator.ofLog(
                leaders,
                new TableBucket(table.tableId(), partitionId, bucket),
                fromOffset,
                toOffset,
                this::schema);
    }

    /** Every record of a bucket of a partition up to its current end. */
    public java.util.List<LogRecord> readAll(long partitionId, int bucket) {
        java.util.List<LogRecord> out = new java.util.ArrayList<>();
        try (RecordIterator it = scan(partitionId, bucket, 0, Long.MAX_VALUE)) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private void checkRange(int bucket, long fromOffset, long toOffset) {
        if (bucket < 0 || bucket >= table.bucketCount()) {
            throw new InvalidInputException(
                    "bucket "
                            + bucket
                            + " does not exist: table "
                            + table.path()
                            + " has buckets 0.."
                            + (table.bucketCount() - 1));
        }
        if (fromOffset < 0 || toOffset < fromOffset) {
            throw new InvalidInputException(
                    "invalid offset range [" + fromOffset + ", " + toOffset + ")");
        }
    }

    /**
     * Streams the records of {@code [fromOffset, toOffset)} of one bucket. Close the iterator when
     * stopping early.
     *
     * @param toOffset exclusive; {@link Long#MAX_VALUE} for "up to the end offset when the scan
     *     starts"
     */
    public RecordIterator scan(int bucket, long fromOffset, long toOffset) {
        if (bucket < 0 || bucket >= table.bucketCount()) {
            throw new InvalidInputException(
                    "bucket "
                            + bucket
                            + " does not exist: table "
                            + table.path()
                            + " has buckets 0.."
                            + (table.bucketCount() - 1));
        }
        if (fromOffset < 0 || toOffset < fromOffset) {
            throw new InvalidInputException(
                    "invalid offset range [" + fromOffset + ", " + toOffset + ")");
        }
        return RecordIterator.ofLog(
                leaders,
                new TableBucket(table.tableId(), bucket),
                fromOffset,
                toOffset,
                this::schema);
    }

    private Schema schema(int schemaId) {
        return cache.schemaFor(table.path(), schemaId);
    }

    /** Convenience for tests and tools: every record of a bucket up to its current end. */
    public java.util.List<LogRecord> readAll(int bucket) {
        java.util.List<LogRecord> out = new java.util.ArrayList<>();
        try (RecordIterator it = scan(bucket, 0, Long.MAX_VALUE)) {
            it.forEachRemaining(out::add);
        }
        return out;
    }
}

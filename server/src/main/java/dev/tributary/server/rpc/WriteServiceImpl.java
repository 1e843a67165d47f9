package dev.tributary.server.rpc;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.record.WriteRecord;
import dev.tributary.common.types.Schema;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.rpc.proto.WriteRequest;
import dev.tributary.rpc.proto.WriteResponse;
import dev.tributary.rpc.proto.WriteServiceGrpc;
import dev.tributary.server.metrics.ServerMetrics;
import dev.tributary.server.partition.PartitionService;
import dev.tributary.server.store.LocalBuckets;
import dev.tributary.storage.BucketStore;
import io.grpc.stub.StreamObserver;

/**
 * The write path: checks that the request names the table its batch was built for, then hands the
 * batch to the store unchanged. The store validates every record before writing any, so a bad batch
 * leaves no trace. The answer is sent when the store reports the batch durable. A batch its writer
 * sent before (a retry, T42) is answered with the first attempt's offsets, marked duplicate.
 */
public final class WriteServiceImpl extends WriteServiceGrpc.WriteServiceImplBase {
    private final BucketStore store;
    private final LocalBuckets buckets;
    private final ServerMetrics metrics;
    private final PartitionService partitions;

    public WriteServiceImpl(
            BucketStore store,
            LocalBuckets buckets,
            ServerMetrics metrics,
            PartitionService partitions) {
        this.store = store;
        this.buckets = buckets;
        this.metrics = metrics;
        this.partitions = partitions;
    }

    @Override
    public void append(WriteRequest req, StreamObserver<WriteResponse> out) {
        write(req, out, false);
    }

    @Override
    public void put(WriteRequest req, StreamObserver<WriteResponse> out) {
        write(req, out, true);
    }

    private void write(WriteRequest req, StreamObserver<WriteResponse> out, boolean upsert) {
        Calls.async(
                out,
                () -> {
                    TableInfo table = buckets.table(req.getTableId());
                    if (table.descriptor().hasPrimaryKey() != upsert) {
                        throw new InvalidInputException(
                                upsert
                                        ? "table "
                                                + table.path()
                                                + " is a log table: append to it instead of"
                                                + " upserting"
                                        : "table "
                                                + table.path()
                                                + " has a primary key: upsert or delete instead of"
                                                + " appending");
                    }
                    WriteBatch batch = WriteBatch.fromBytes(req.getBatch().toByteArray());
                    // checked against the request before any re-encoding
                    if (batch.tableId() != req.getTableId()
                            || batch.bucket() != req.getBucket()
                            || batch.schemaId() != req.getSchemaId()) {
                        throw new InvalidInputException(
                                "malformed write: the batch header (table "
                                        + batch.tableId()
                                        + ", bucket "
                                        + batch.bucket()
                                        + ", schema "
                                        + batch.schemaId()
                                        + ") does not match the request (table "
                                        + req.getTableId()
                                        + ", bucket "
                                        + req.getBucket()
                                        + ", schema "
                                        + req.getSchemaId()
                                        + ")");
                    }
                    // a partitioned table's batch names its partition (T30); a missing one is
                    // created now if the table allows it, else the batch fails here, unwritten
                    long partitionId = TableBucket.NO_PARTITION;
                    if (table.descriptor().isPartitioned() || req.hasPartition()) {
                        partitionId =
                                partitions
                                        .resolveForWrite(
                                                table,
                                                req.hasPartition() ? req.getPartition() : null)
                                        .partitionId();
                    }
                    buckets.requireHeld(table, partitionId, batch.bucket());
                    if (batch.schemaId() != table.schemaId()) {
                        batch = upgradeSchema(table, batch);
                    }
                    int bytes = batch.sizeInBytes();
                    int rows = batch.recordCount();
                    WriteBatch toAppend = batch;
                    return store.append(partitionId, toAppend)
                            .thenApply(
                                    r -> {
                                        metrics.recordWrite(table, rows, bytes, r.duplicate());
                                        WriteResponse.Builder resp =
                                                WriteResponse.newBuilder()
                                                        .setBaseOffset(r.baseOffset())
                                                        .setEndOffset(r.endOffset())
                                                        .setDuplicate(r.duplicate());
                                        for (int i : r.absentDeletes()) {
                                            resp.addAbsentDeletes(i);
                                        }
                                        return resp.build();
                                    });
                });
    }

    /**
     * Re-encodes a batch written under an older schema of the table under its current schema, so
     * that a writer created before an ALTER ADD COLUMN keeps working: columns only ever get added
     * at the end, nullable, so each old row becomes the new row with NULLs appended. A schema id
     * the table never had is refused.
     */
    static WriteBatch upgradeSchema(TableInfo table, WriteBatch batch) {
        Schema old = table.schemas().get(batch.schemaId());
        if (old == null || batch.schemaId() > table.schemaId()) {
            throw new InvalidInputException(
                    "table "
                            + table.path()
                            + " has no schema id "
                            + batch.schemaId()
                            + " (current: "
                            + table.schemaId()
                            + "); describe the table again and rebuild the batch");
        }
        Schema current = table.schema();
        WriteBatchBuilder b =
                WriteBatch.builder(batch.tableId(), batch.bucket(), table.schemaId(), current);
        if (batch.writerId() != WriteBatch.NO_WRITER) {
            // re-encoded, still the same batch of the same writer
            b.writer(batch.writerId(), batch.sequence());
        }
        for (WriteRecord r : batch.records(old)) {
            b.add(r.kind(), r.row().padTo(current.fieldCount()));
        }
        return b.build();
    }
}

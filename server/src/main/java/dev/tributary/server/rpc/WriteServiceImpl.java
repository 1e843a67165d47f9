package dev.tributary.server.rpc;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.rpc.proto.WriteRequest;
import dev.tributary.rpc.proto.WriteResponse;
import dev.tributary.rpc.proto.WriteServiceGrpc;
import dev.tributary.server.metrics.ServerMetrics;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.storage.BucketStore;
import io.grpc.stub.StreamObserver;

/**
 * The write path: checks that the request names the table its batch was built for, then hands the
 * batch to the store unchanged. The store validates every record before writing any, so a bad batch
 * leaves no trace. The answer is sent when the store reports the batch durable.
 */
public final class WriteServiceImpl extends WriteServiceGrpc.WriteServiceImplBase {
    private final BucketStore store;
    private final TableCatalog catalog;
    private final ServerMetrics metrics;

    public WriteServiceImpl(BucketStore store, TableCatalog catalog, ServerMetrics metrics) {
        this.store = store;
        this.catalog = catalog;
        this.metrics = metrics;
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
                    TableInfo table = catalog.get(req.getTableId());
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
                    int bytes = batch.sizeInBytes();
                    int rows = batch.recordCount();
                    return store.append(batch)
                            .thenApply(
                                    r -> {
                                        metrics.recordWrite(table, rows, bytes);
                                        return WriteResponse.newBuilder()
                                                .setBaseOffset(r.baseOffset())
                                                .setEndOffset(r.endOffset())
                                                .build();
                                    });
                });
    }
}

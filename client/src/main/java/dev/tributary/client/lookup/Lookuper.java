package dev.tributary.client.lookup;

import com.google.protobuf.ByteString;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.internal.BucketLeaders;
import dev.tributary.client.internal.TableMetadataCache;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.Schema;
import dev.tributary.rpc.proto.LookupRequest;
import dev.tributary.rpc.proto.LookupResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Point lookups by primary key in a primary-key table; answers come from the table's current KV
 * state, at the server holding each key's bucket. Thread safe.
 */
public final class Lookuper {
    private final BucketLeaders leaders;
    private final TableMetadataCache cache;
    private final TableInfo table;
    private final int[] keyPositions;
    private final RowCodec keyCodec;
    // rows come back under the table's current schema, which an ALTER may have extended
    private volatile RowCodec rowCodec;
    private volatile int rowSchemaId;
    private final BucketFunction bucketFunction;
    private final PartitionRouter partitionRouter;

    /**
     * @param leaders each bucket's server: a bucket's keys are looked up there
     * @param cache table descriptions (coordinator calls), for a schema newer than {@code table}'s
     */
    public Lookuper(BucketLeaders leaders, TableMetadataCache cache, TableInfo table) {
        if (!table.hasPrimaryKey()) {
            throw new InvalidInputException(
                    "table " + table.path() + " has no primary key: lookups need one");
        }
        this.leaders = leaders;
        this.cache = cache;
        this.table = table;
        Schema schema = table.schema();
        this.keyPositions = schema.primaryKeyIndexes();
        List<dev.tributary.common.types.DataType> keyTypes = new ArrayList<>();
        for (int p : keyPositions) {
            keyTypes.add(schema.typeAt(p));
        }
        this.keyCodec = new RowCodec(keyTypes);
        this.rowCodec = RowCodec.of(schema);
        this.rowSchemaId = table.schemaId();
        this.bucketFunction = BucketFunction.of(table.descriptor());
        this.partitionRouter =
                table.descriptor().isPartitioned() ? PartitionRouter.of(table.descriptor()) : null;
    }

    private void refreshSchema(int schemaId) {
        TableInfo now = cache.refresh(table.path());
        rowCodec = RowCodec.of(now.schema());
        rowSchemaId = Math.max(schemaId, now.schemaId());
    }

    /**
     * The current row with this primary key.
     *
     * @param key the primary-key values, in primary-key order
     */
    public Optional<Row> lookup(Row key) {
        return lookupAll(List.of(key)).get(0);
    }

    /**
     * Looks up many keys with one request per (partition, bucket); results are in the order of the
     * keys. A key of a partitioned table names its partition in its partition columns (they are
     * part of the primary key); a partition that does not exist fails with {@link
     * dev.tributary.common.exception.PartitionNotFoundException}.
     */
    public List<Optional<Row>> lookupAll(List<Row> keys) {
        Map<Map.Entry<String, Integer>, List<Integer>> byBucket = new java.util.LinkedHashMap<>();
        List<byte[]> encoded = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            Row key = keys.get(i);
            if (key.arity() != keyPositions.length) {
                throw new InvalidInputException(
                        "a key of table "
                                + table.path()
                                + " has "
                                + keyPositions.length
                                + " fields "
                                + table.schema().primaryKey()
                                + ", got "
                                + key.arity());
            }
            Object[] full = new Object[table.schema().fieldCount()];
            for (int k = 0; k < keyPositions.length; k++) {
                if (key.isNullAt(k)) {
                    throw new InvalidInputException(
                            "primary key column '"
                                    + table.schema().primaryKey().get(k)
                                    + "' cannot be NULL");
                }
                full[keyPositions[k]] = key.getField(k);
            }
            encoded.add(keyCodec.encode(key));
            Row row = Row.wrap(full);
            String partition =
                    partitionRouter == null ? "" : partitionRouter.partitionOf(row).name();
            byBucket.computeIfAbsent(
                            Map.entry(partition, bucketFunction.bucketOf(row)),
                            b -> new ArrayList<>())
                    .add(i);
        }
        List<Optional<Row>> out = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            out.add(Optional.empty());
        }
        for (Map.Entry<Map.Entry<String, Integer>, List<Integer>> e : byBucket.entrySet()) {
            LookupRequest.Builder req =
                    LookupRequest.newBuilder()
                            .setTableId(table.tableId())
                            .setBucket(e.getKey().getValue());
            if (partitionRouter != null) {
                req.setPartition(e.getKey().getKey());
            }
            for (int i : e.getValue()) {
                req.addKeys(ByteString.copyFrom(encoded.get(i)));
            }
            BucketLeaders.Key route =
                    BucketLeaders.Key.partitionNamed(
                            table.tableId(), partitionRouter == null ? null : e.getKey().getKey());
            LookupResponse resp = lookup(route, req.build());
            if (resp.getSchemaId() > rowSchemaId) {
                refreshSchema(resp.getSchemaId());
            }
            for (int j = 0; j < e.getValue().size(); j++) {
                var v = resp.getValues(j);
                if (v.getFound()) {
                    out.set(
                            e.getValue().get(j),
                            Optional.of(rowCodec.decode(v.getRow().toByteArray())));
                }
            }
        }
        return out;
    }

    /**
     * One bucket's lookup at its server; asked once more, on the holder fetched again, when that
     * server no longer holds it (a lookup changes nothing, so the retry is safe).
     */
    private LookupResponse lookup(BucketLeaders.Key route, LookupRequest req) {
        return leaders.callHolder(route, req.getBucket(), c -> c.read().lookup(req));
    }
}

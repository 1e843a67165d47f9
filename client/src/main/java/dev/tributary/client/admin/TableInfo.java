package dev.tributary.client.admin;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.TableInfoPb;

/**
 * A table as the server describes it.
 *
 * @param tableId the server-assigned id; a re-created table gets a new one
 * @param path {@code db.table}
 * @param schemaId id of the current schema (grows with each added column)
 * @param descriptor current schema, buckets, properties and comment
 * @param createdAtMillis creation time, epoch milliseconds
 */
public record TableInfo(
        long tableId,
        TablePath path,
        int schemaId,
        TableDescriptor descriptor,
        long createdAtMillis) {

    public Schema schema() {
        return descriptor.schema();
    }

    public boolean hasPrimaryKey() {
        return descriptor.hasPrimaryKey();
    }

    public int bucketCount() {
        return descriptor.bucketCount();
    }

    /** Decodes the wire form. */
    public static TableInfo fromPb(TableInfoPb pb) {
        return new TableInfo(
                pb.getTableId(),
                ProtoConverters.fromPb(pb.getPath()),
                pb.getSchemaId(),
                ProtoConverters.fromPb(pb.getTableDescriptor()),
                pb.getCreatedAtMillis());
    }
}

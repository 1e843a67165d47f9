package dev.tributary.rpc.convert;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypeParser;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.rpc.proto.ColumnPb;
import dev.tributary.rpc.proto.SchemaPb;
import dev.tributary.rpc.proto.TableDescriptorPb;
import dev.tributary.rpc.proto.TablePathPb;
import java.util.ArrayList;
import java.util.List;

/**
 * Conversions between the common domain types and their wire messages. Decoding validates like the
 * domain constructors do, so a malformed message fails with {@link InvalidInputException}.
 */
public final class ProtoConverters {
    private ProtoConverters() {}

    public static TablePathPb toPb(TablePath path) {
        return TablePathPb.newBuilder().setDatabase(path.database()).setTable(path.table()).build();
    }

    public static TablePath fromPb(TablePathPb pb) {
        return TablePath.of(pb.getDatabase(), pb.getTable());
    }

    public static ColumnPb toPb(Column column) {
        ColumnPb.Builder b =
                ColumnPb.newBuilder()
                        .setName(column.name())
                        .setType(column.type().asSummaryString());
        if (column.comment() != null) {
            b.setComment(column.comment());
        }
        return b.build();
    }

    public static Column fromPb(ColumnPb pb) {
        if (pb.getType().isEmpty()) {
            throw new InvalidInputException("column '" + pb.getName() + "' has no type");
        }
        return new Column(
                pb.getName(),
                DataTypeParser.parse(pb.getType()),
                pb.hasComment() ? pb.getComment() : null);
    }

    public static SchemaPb toPb(Schema schema) {
        SchemaPb.Builder b = SchemaPb.newBuilder();
        for (Column c : schema.columns()) {
            b.addColumns(toPb(c));
        }
        return b.addAllPrimaryKey(schema.primaryKey()).build();
    }

    public static Schema fromPb(SchemaPb pb) {
        List<Column> columns = new ArrayList<>(pb.getColumnsCount());
        for (ColumnPb c : pb.getColumnsList()) {
            columns.add(fromPb(c));
        }
        return Schema.of(columns, pb.getPrimaryKeyList());
    }

    public static TableDescriptorPb toPb(TableDescriptor d) {
        TableDescriptorPb.Builder b =
                TableDescriptorPb.newBuilder()
                        .setSchema(toPb(d.schema()))
                        .addAllPartitionKeys(d.partitionKeys())
                        .setBucketCount(d.bucketCount())
                        .addAllBucketKeys(d.bucketKeys())
                        .putAllProperties(d.properties());
        d.comment().ifPresent(b::setComment);
        return b.build();
    }

    public static TableDescriptor fromPb(TableDescriptorPb pb) {
        if (!pb.hasSchema()) {
            throw new InvalidInputException("a table needs a schema");
        }
        TableDescriptor.Builder b =
                TableDescriptor.builder(fromPb(pb.getSchema()))
                        .partitionKeys(pb.getPartitionKeysList())
                        .bucketCount(pb.getBucketCount())
                        .bucketKeys(pb.getBucketKeysList())
                        .properties(pb.getPropertiesMap());
        if (pb.hasComment()) {
            b.comment(pb.getComment());
        }
        return b.build();
    }
}

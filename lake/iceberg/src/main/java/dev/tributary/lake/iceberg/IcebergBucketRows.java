package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructProjection;

/**
 * The data files of one Tributary bucket of an Iceberg PK table and the keys and positions of their
 * live rows (T48): files are planned with a filter on the {@code __bucket} column (file statistics)
 * and the bucket's identity partition, and with a lake-aligned bucket function (T36) a file whose
 * {@code bucket[N]} partition value is another bucket is skipped too. A file's rows are read whole
 * (the key columns and {@code _pos}, so positions are file-absolute) with the table's deletes
 * applied by Iceberg's own delete filter.
 */
final class IcebergBucketRows {
    private final Table table;
    private final Schema keySchema;
    private final int bucket;
    private final boolean bucketAligned;
    private final Expression filter;

    /**
     * Receives a live row: its key (Iceberg internal values; reused, copy to keep) and position.
     */
    @FunctionalInterface
    interface RowVisitor {
        void visit(StructLike key, long position);
    }

    IcebergBucketRows(
            Table table,
            Schema keySchema,
            int bucket,
            boolean bucketAligned,
            Expression partitionFilter) {
        this.table = table;
        this.keySchema = keySchema;
        this.bucket = bucket;
        this.bucketAligned = bucketAligned;
        this.filter =
                Expressions.and(
                        partitionFilter, Expressions.equal(LakeSystemColumns.BUCKET, bucket));
    }

    /**
     * The rows of {@code bucket} of {@code partition} (null when unpartitioned) of the Tributary
     * table {@code t} in its lake table.
     */
    static IcebergBucketRows of(
            Table table,
            TableDescriptor t,
            int bucket,
            dev.tributary.common.id.PartitionSpec partition) {
        PartitionSpec spec = table.spec();
        // store bucket b is partition value b only with the Iceberg bucket function on the
        // spec's bucket[N] of the bucket key (T36)
        boolean aligned =
                BucketFunctionType.of(t) == BucketFunctionType.ICEBERG
                        && spec.fields().stream()
                                .anyMatch(f -> f.transform().toString().startsWith("bucket["));
        Expression partitionFilter = Expressions.alwaysTrue();
        if (partition != null) {
            Object[] values = PartitionRouter.of(t).values(partition);
            for (int i = 0; i < values.length; i++) {
                Object v = values[i] instanceof java.time.LocalDate d ? d.toString() : values[i];
                partitionFilter =
                        Expressions.and(
                                partitionFilter, Expressions.equal(partition.keys().get(i), v));
            }
        }
        Schema keySchema = table.schema().select(t.schema().primaryKey());
        return new IcebergBucketRows(table, keySchema, bucket, aligned, partitionFilter);
    }

    Table table() {
        return table;
    }

    Schema keySchema() {
        return keySchema;
    }

    /** The bucket's live data files at {@code snapshotId}, each with its deletes. */
    List<FileScanTask> files(long snapshotId) {
        Map<Integer, PartitionSpec> specs = table.specs();
        Map<Integer, Evaluator> partitions = new HashMap<>();
        InclusiveMetricsEvaluator bucketColumn =
                new InclusiveMetricsEvaluator(table.schema(), filter);
        List<FileScanTask> out = new ArrayList<>();
        for (FileScanTask task : IcebergSnapshotFiles.of(table, snapshotId)) {
            DataFile f = task.file();
            Evaluator partition =
                    partitions.computeIfAbsent(
                            f.specId(),
                            id -> {
                                PartitionSpec spec = specs.get(id);
                                return new Evaluator(
                                        spec.partitionType(),
                                        Projections.inclusive(spec).project(filter));
                            });
            if (partition.eval(f.partition())
                    && bucketColumn.eval(f)
                    && (!bucketAligned || IcebergBuckets.bucketOf(f, specs) == bucket)) {
                out.add(task);
            }
        }
        return out;
    }

    /**
     * Visits every live row of the task's file, in position order.
     *
     * @return the file's positions the table had already deleted, null when none
     */
    PositionDeleteIndex forEachLiveRow(FileScanTask task, RowVisitor visitor) {
        String location = task.file().location();
        checkParquet(task);
        List<Types.NestedField> columns = new ArrayList<>(keySchema.columns());
        columns.add(MetadataColumns.ROW_POSITION);
        Schema requested = new Schema(columns);
        // lake rows hold java.time values; keys are compared as Iceberg's internal values
        InternalRecordWrapper internal = new InternalRecordWrapper(requested.asStruct());
        StructProjection key = StructProjection.create(requested, keySchema);
        int posIndex = keySchema.columns().size();
        GenericDeleteFilter deletes =
                new GenericDeleteFilter(table.io(), task, table.schema(), requested);
        Schema read = deletes.requiredSchema();
        try (CloseableIterable<Record> records =
                deletes.filter(
                        Parquet.read(table.io().newInputFile(location))
                                .project(read)
                                .createReaderFunc(
                                        fileSchema ->
                                                GenericParquetReaders.buildReader(
                                                        read, fileSchema, Map.of()))
                                .build())) {
            for (Record r : records) {
                visitor.visit(key.wrap(internal.wrap(r)), (Long) r.get(posIndex));
            }
        } catch (IOException | UncheckedIOException e) {
            throw failed(e);
        }
        return deletes.deletedRowPositions();
    }

    /** The file's positions already deleted in the table; null when it has none. */
    PositionDeleteIndex existingDeletes(FileScanTask task) {
        List<Types.NestedField> columns = new ArrayList<>(keySchema.columns());
        columns.add(MetadataColumns.ROW_POSITION);
        return new GenericDeleteFilter(table.io(), task, table.schema(), new Schema(columns))
                .deletedRowPositions();
    }

    private void checkParquet(FileScanTask task) {
        if (task.file().format() != FileFormat.PARQUET) {
            throw new StorageException(
                    "data file "
                            + task.file().location()
                            + " of Iceberg table '"
                            + table.name()
                            + "' is "
                            + task.file().format()
                            + "; Tributary finds the rows of updated keys only in Parquet files:"
                            + " rewrite the file as Parquet, or set table.datalake.pk-deletes to"
                            + " equality");
        }
    }

    private StorageException failed(Exception e) {
        return new StorageException(
                "reading the live rows of bucket "
                        + bucket
                        + " of Iceberg table '"
                        + table.name()
                        + "' failed: "
                        + e.getMessage(),
                e);
    }
}

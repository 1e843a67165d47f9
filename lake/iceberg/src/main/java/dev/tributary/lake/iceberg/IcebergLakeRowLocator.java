package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.StorageException;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.StructLikeSet;
import org.apache.iceberg.util.StructLikeUtil;
import org.apache.iceberg.util.StructProjection;

/**
 * Locates keys by reading the bucket's live rows from the lake at the table's current snapshot: the
 * key columns and the {@code _file}/{@code _pos} metadata columns of every data file that can hold
 * the bucket, with the table's existing deletes applied by Iceberg's own delete filter. Files are
 * planned with a filter on the {@code __bucket} column (file statistics) and the split's identity
 * partition; with a lake-aligned bucket function (T36) a file whose {@code bucket[N]} partition
 * value is another bucket is skipped as well. Files are read whole, so positions are file-absolute.
 */
final class IcebergLakeRowLocator implements LiveRowLocator {
    private final Table table;
    private final Schema keySchema;
    private final int bucket;
    private final boolean bucketAligned;
    private final Expression filter;

    /**
     * @param keySchema the key columns, as selected from the table's schema
     * @param bucket the split's bucket
     * @param bucketAligned whether store bucket b is the {@code bucket[N]} partition value b
     * @param partitionFilter the split's identity partition ({@code alwaysTrue} when unpartitioned)
     */
    IcebergLakeRowLocator(
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

    @Override
    public LiveRows locate(StructLikeSet keys) {
        table.refresh();
        Snapshot base = table.currentSnapshot();
        if (base == null) {
            return new LiveRows(null, List.of(), keys.size());
        }
        // the key columns and _pos; _file is the task's file (files are read one by one, whole)
        List<Types.NestedField> columns = new ArrayList<>(keySchema.columns());
        columns.add(MetadataColumns.ROW_POSITION);
        Schema requested = new Schema(columns);
        // lake rows hold java.time values; keys are compared as Iceberg's internal values
        InternalRecordWrapper internal = new InternalRecordWrapper(requested.asStruct());
        StructProjection key = StructProjection.create(requested, keySchema);
        int posIndex = keySchema.columns().size();
        StructLikeSet found = StructLikeSet.create(keySchema.asStruct());
        Map<Integer, PartitionSpec> specs = table.specs();
        List<FileRows> out = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks =
                table.newScan().useSnapshot(base.snapshotId()).filter(filter).planFiles()) {
            for (FileScanTask task : tasks) {
                if (bucketAligned && IcebergBuckets.bucketOf(task.file(), specs) != bucket) {
                    continue;
                }
                FileRows rows = scan(task, requested, internal, key, posIndex, keys, found);
                if (rows != null) {
                    out.add(rows);
                }
            }
        } catch (IOException e) {
            throw new StorageException(
                    "reading the live rows of bucket "
                            + bucket
                            + " of Iceberg table '"
                            + table.name()
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
        return new LiveRows(base.snapshotId(), out, keys.size() - found.size());
    }

    /** The positions of {@code keys}' rows in the task's file; null when it holds none. */
    private FileRows scan(
            FileScanTask task,
            Schema requested,
            InternalRecordWrapper internal,
            StructProjection key,
            int posIndex,
            StructLikeSet keys,
            StructLikeSet found)
            throws IOException {
        String location = task.file().location();
        if (task.file().format() != FileFormat.PARQUET) {
            throw new StorageException(
                    "data file "
                            + location
                            + " of Iceberg table '"
                            + table.name()
                            + "' is "
                            + task.file().format()
                            + "; Tributary finds the rows of updated keys only in Parquet files:"
                            + " rewrite the file as Parquet, or set table.datalake.pk-deletes to"
                            + " equality");
        }
        GenericDeleteFilter deletes =
                new GenericDeleteFilter(table.io(), task, table.schema(), requested);
        Schema read = deletes.requiredSchema();
        long[] positions = new long[8];
        int n = 0;
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
                key.wrap(internal.wrap(r));
                if (keys.contains(key)) {
                    if (n == positions.length) {
                        positions = Arrays.copyOf(positions, n * 2);
                    }
                    positions[n++] = (Long) r.get(posIndex);
                    found.add(StructLikeUtil.copy(key));
                }
            }
        }
        if (n == 0) {
            return null;
        }
        long[] sorted = Arrays.copyOf(positions, n);
        Arrays.sort(sorted);
        return new FileRows(task.file(), sorted, deletes.deletedRowPositions());
    }
}

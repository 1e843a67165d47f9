package dev.tributary.lake.api.write;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.util.Objects;

/**
 * Everything a {@link LakeWriter} needs to know about its split. The identity fields (table id,
 * epoch, round id, bucket) are copied into the {@link LakeWriteResult} so the coordinator can drop
 * results of stale attempts (T20).
 *
 * @param tablePath the Tributary table (= lake database.table)
 * @param tableId the Tributary table id (differs between a dropped table and a re-created one)
 * @param table the current Tributary descriptor; rows may be narrower (older schema)
 * @param bucket the Tributary bucket of the split (within its partition)
 * @param epoch the table's tiering epoch of this round
 * @param roundId the round id
 * @param partitionId the split's partition id, {@link TableBucket#NO_PARTITION} for an
 *     unpartitioned table
 * @param partition the split's partition (T32): every row the writer gets holds these values in the
 *     partition columns, and the lake table is partitioned by those columns; {@code null} for an
 *     unpartitioned table
 */
public record LakeWriterContext(
        TablePath tablePath,
        long tableId,
        TableDescriptor table,
        int bucket,
        long epoch,
        long roundId,
        long partitionId,
        PartitionSpec partition) {
    public LakeWriterContext {
        Objects.requireNonNull(tablePath, "tablePath");
        Objects.requireNonNull(table, "table");
        if (table.isPartitioned() != (partition != null)
                || (partition == null) != (partitionId == TableBucket.NO_PARTITION)) {
            throw new IllegalArgumentException(
                    "a split of "
                            + tablePath
                            + " needs a partition exactly when the table is partitioned (by "
                            + table.partitionKeys()
                            + "): got "
                            + (partition == null
                                    ? "none"
                                    : partition + " (id " + partitionId + ")"));
        }
        if (bucket < 0 || bucket >= table.bucketCount()) {
            throw new IllegalArgumentException(
                    "bucket "
                            + bucket
                            + " outside [0, "
                            + table.bucketCount()
                            + ") of "
                            + tablePath);
        }
    }

    /** The context of a split of an unpartitioned table. */
    public LakeWriterContext(
            TablePath tablePath,
            long tableId,
            TableDescriptor table,
            int bucket,
            long epoch,
            long roundId) {
        this(tablePath, tableId, table, bucket, epoch, roundId, TableBucket.NO_PARTITION, null);
    }

    public boolean isPartitioned() {
        return partition != null;
    }

    /** Rows may be narrower than the table (older schema), never wider. */
    public void checkArity(int fields) {
        int columns = table.schema().fieldCount();
        if (fields > columns) {
            throw new InvalidInputException(
                    "row has "
                            + fields
                            + " fields but table '"
                            + tablePath
                            + "' has "
                            + columns
                            + " columns");
        }
    }

    /** The error for a value that the format's converter for {@code column} cannot take. */
    public InvalidInputException valueError(int column, Object value, RuntimeException cause) {
        return new InvalidInputException(
                "column "
                        + table.schema().columns().get(column).name()
                        + " of table '"
                        + tablePath
                        + "' got a "
                        + value.getClass().getSimpleName()
                        + " value",
                cause);
    }
}

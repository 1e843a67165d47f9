package dev.tributary.lake.api.write;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.index.LakeRowLocator;
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
 * @param source what the split reads: a range of the changelog, or a whole KV snapshot, whose
 *     records a writer may take as every key of the bucket exactly once, each an insert into a lake
 *     bucket that holds none of them (T7, T54)
 * @param rowLocator where the store's lake row index says the bucket's keys have their live lake
 *     rows (T48), for a writer of a primary-key split that retracts by position; null when there is
 *     none (the writer then reads the lake, or retracts by key)
 */
public record LakeWriterContext(
        TablePath tablePath,
        long tableId,
        TableDescriptor table,
        int bucket,
        long epoch,
        long roundId,
        long partitionId,
        PartitionSpec partition,
        SplitSource source,
        LakeRowLocator rowLocator) {

    /** What a split reads, and so what its records promise the writer. */
    public enum SplitSource {
        /**
         * A range of the changelog: any change type, a key may come many times, in log order;
         * earlier rounds may have written the keys.
         */
        LOG,
        /**
         * A whole KV snapshot of a bucket that no round has written yet (its first round, T7): only
         * inserts, each key exactly once, so a writer needs no de-duplication, merge or deletes
         * (T54).
         */
        KV_SNAPSHOT
    }

    public LakeWriterContext {
        Objects.requireNonNull(tablePath, "tablePath");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(source, "source");
        if (source == SplitSource.KV_SNAPSHOT && !table.hasPrimaryKey()) {
            throw new IllegalArgumentException(
                    "a KV snapshot split needs a primary-key table, " + tablePath + " has none");
        }
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

    /** The context of a split without a lake row index. */
    public LakeWriterContext(
            TablePath tablePath,
            long tableId,
            TableDescriptor table,
            int bucket,
            long epoch,
            long roundId,
            long partitionId,
            PartitionSpec partition,
            SplitSource source) {
        this(
                tablePath,
                tableId,
                table,
                bucket,
                epoch,
                roundId,
                partitionId,
                partition,
                source,
                null);
    }

    /** The context of a log split. */
    public LakeWriterContext(
            TablePath tablePath,
            long tableId,
            TableDescriptor table,
            int bucket,
            long epoch,
            long roundId,
            long partitionId,
            PartitionSpec partition) {
        this(
                tablePath,
                tableId,
                table,
                bucket,
                epoch,
                roundId,
                partitionId,
                partition,
                SplitSource.LOG);
    }

    /** The context of a log split of an unpartitioned table. */
    public LakeWriterContext(
            TablePath tablePath,
            long tableId,
            TableDescriptor table,
            int bucket,
            long epoch,
            long roundId) {
        this(tablePath, tableId, table, bucket, epoch, roundId, TableBucket.NO_PARTITION, null);
    }

    /** Whether the split is a whole KV snapshot: inserts only, each key once (T54). */
    public boolean isKvSnapshot() {
        return source == SplitSource.KV_SNAPSHOT;
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

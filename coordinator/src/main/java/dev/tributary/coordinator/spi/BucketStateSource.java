package dev.tributary.coordinator.spi;

import dev.tributary.common.id.TablePath;
import java.util.List;
import java.util.Set;

/**
 * The coordinator's view of the bucket store, implemented by the server over {@code storage/}. The
 * coordinator calls it on its event-loop thread when it builds a round plan, so it must be cheap
 * (in-memory reads, no disk or network I/O) and must not block.
 */
public interface BucketStateSource {

    /**
     * The current state of every bucket of an unpartitioned table.
     *
     * @param tableId the table id
     * @param path the table's path (for messages)
     * @param bucketCount the table's bucket count; the result has one entry per bucket {@code
     *     0..bucketCount-1}, in bucket order. A bucket the store has not created yet is reported
     *     with end offset 0.
     */
    List<BucketState> bucketStates(long tableId, TablePath path, int bucketCount);

    /**
     * The current state of every bucket of one partition of a partitioned table (T32), as {@link
     * #bucketStates} gives them for a table. A partition the store has not opened is reported with
     * end offsets 0.
     */
    default List<BucketState> partitionBucketStates(
            long tableId, long partitionId, TablePath path, int bucketCount) {
        throw new UnsupportedOperationException(
                getClass().getSimpleName() + " knows no partitioned tables");
    }

    /**
     * Ids of the partitions of a table that had a write become durable (or that were opened with
     * recovered data) since the last call; the source then forgets them. A round plans only such
     * partitions and those the coordinator still knows to be behind, so planning costs what the
     * active partitions cost, not what all partitions cost. The coordinator calls it before it
     * reads the end offsets of a plan, so a write is either seen by the plan or reported by the
     * next call.
     */
    default Set<Long> drainChangedPartitions(long tableId) {
        throw new UnsupportedOperationException(
                getClass().getSimpleName() + " knows no partitioned tables");
    }
}

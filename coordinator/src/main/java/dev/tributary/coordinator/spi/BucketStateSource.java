package dev.tributary.coordinator.spi;

import dev.tributary.common.id.TablePath;
import java.util.List;

/**
 * The coordinator's view of the bucket store, implemented by the server over {@code storage/}. The
 * coordinator calls it on its event-loop thread when it builds a round plan, so it must be cheap
 * (in-memory reads, no disk or network I/O) and must not block.
 */
public interface BucketStateSource {

    /**
     * The current state of every bucket of a table.
     *
     * @param tableId the table id
     * @param path the table's path (for messages)
     * @param bucketCount the table's bucket count; the result has one entry per bucket {@code
     *     0..bucketCount-1}, in bucket order. A bucket the store has not created yet is reported
     *     with end offset 0.
     */
    List<BucketState> bucketStates(long tableId, TablePath path, int bucketCount);
}

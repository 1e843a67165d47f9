package dev.tributary.coordinator.cluster;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.spi.BucketState;
import dev.tributary.coordinator.spi.KvSnapshotRef;

/**
 * One bucket's state as its server reports it in a heartbeat (T49).
 *
 * @param tableId the table
 * @param partitionId the partition, or {@link TableBucket#NO_PARTITION}
 * @param bucket the bucket number
 * @param endOffset the bucket's log end offset (exclusive)
 * @param newestKvSnapshot the newest completed KV snapshot of a primary-key bucket, or {@code null}
 * @throws InvalidInputException for a negative id or offset or a bucket out of range, as a report
 *     comes from the network
 */
public record ReportedBucket(
        long tableId,
        long partitionId,
        int bucket,
        long endOffset,
        KvSnapshotRef newestKvSnapshot) {

    public ReportedBucket {
        if (tableId < 0
                || partitionId < TableBucket.NO_PARTITION
                || bucket < 0
                || bucket >= TableDescriptor.MAX_BUCKETS
                || endOffset < 0
                || (newestKvSnapshot != null && newestKvSnapshot.snapshotId() < 0)) {
            throw new InvalidInputException(
                    "malformed bucket report: table "
                            + tableId
                            + ", partition "
                            + partitionId
                            + ", bucket "
                            + bucket
                            + ", end offset "
                            + endOffset
                            + ", snapshot "
                            + newestKvSnapshot);
        }
    }

    /** Which bucket this is. */
    public Key key() {
        return new Key(tableId, partitionId, bucket);
    }

    /** The state as the coordinator's planner takes it. */
    public BucketState toBucketState() {
        return new BucketState(bucket, endOffset, newestKvSnapshot);
    }

    /** A bucket of a table or of one partition of a partitioned table. */
    public record Key(long tableId, long partitionId, int bucket) {}
}

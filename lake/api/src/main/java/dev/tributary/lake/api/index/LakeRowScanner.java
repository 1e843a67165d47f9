package dev.tributary.lake.api.index;

import dev.tributary.common.id.PartitionSpec;
import java.util.Collection;
import java.util.List;

/**
 * Reads where the live rows of one lake table's buckets are, for the store's lake row index (T48):
 * the index follows the lake by reading only the data files that are new since the snapshot it
 * describes, or all of a bucket's files to rebuild. A format that keeps such an index itself
 * (Paimon's deletion vectors, maintained by its own lookup) has none. One per table; not thread
 * safe.
 */
public interface LakeRowScanner extends AutoCloseable {

    /**
     * A bucket's live data files at a snapshot.
     *
     * @param files every live data file that can hold rows of the bucket, full paths
     * @param descendsFromSince whether the {@code sinceSnapshotId} given is the snapshot itself or
     *     one of its ancestors, so that an index of that snapshot stays right after adding the rows
     *     of the files new since then; false also when it no longer exists or was -1
     */
    record BucketFiles(List<String> files, boolean descendsFromSince) {
        public BucketFiles {
            files = List.copyOf(files);
        }
    }

    /** Receives live rows. */
    @FunctionalInterface
    interface RowSink {
        /**
         * @param key the row's key, the {@code RowCodec} bytes of the table's key columns
         * @param location where the row is
         */
        void accept(byte[] key, LakeRowLocation location);
    }

    /**
     * The live data files of a bucket at {@code snapshotId}.
     *
     * @param partition the bucket's partition, null for an unpartitioned table
     * @param sinceSnapshotId the snapshot an index describes, -1 for none
     */
    BucketFiles bucketFiles(
            long snapshotId, PartitionSpec partition, int bucket, long sinceSnapshotId);

    /**
     * Streams every live row of the bucket in {@code files} (a subset of {@link #bucketFiles}), the
     * deletes of {@code snapshotId} applied; a key twice (a row and its re-insert in a later file)
     * is possible only across calls that the caller orders.
     */
    void scan(
            long snapshotId,
            PartitionSpec partition,
            int bucket,
            Collection<String> files,
            RowSink sink);

    @Override
    void close();
}

package dev.tributary.lake.api.index;

import java.util.List;
import java.util.Optional;

/**
 * Where the live lake rows of a split's keys are, as the store's lake row index says (T48). Given
 * to a {@link dev.tributary.lake.api.write.LakeWriter} of a primary-key split through its {@link
 * dev.tributary.lake.api.write.LakeWriterContext}, so the writer retracts a key's old row by
 * position without reading the lake for it. The index follows the lake's committed snapshots only,
 * so it never names a row of a round that did not commit.
 *
 * <p>Implementations may call a remote server; they must be safe to call from the writer's thread
 * and throw {@link dev.tributary.common.exception.RetriableException} when it cannot be reached.
 */
@FunctionalInterface
public interface LakeRowLocator {

    /**
     * Locates the live rows of {@code keys} in lake snapshot {@code snapshotId} of the split's
     * bucket.
     *
     * @param snapshotId the lake snapshot the writer retracts from (its table's current snapshot)
     * @param keys the keys, each the {@code RowCodec} bytes of the table's key columns (the store's
     *     key encoding)
     * @return per key, in order, its live row or null for none; empty when the index cannot answer
     *     (the lake format keeps no such index, or the table is not known): the writer then finds
     *     the rows itself
     */
    Optional<LakeRowLocation[]> locate(long snapshotId, List<byte[]> keys);
}

package dev.tributary.client.admin;

import dev.tributary.rpc.proto.PkDeletesStatusPb;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How a primary-key lake table retracts the old rows of updated and deleted keys (T48, {@code
 * table.datalake.pk-deletes}) and, for Iceberg position deletes, how much of the table the server's
 * lake row index describes. Buckets it does not describe (never built, being rebuilt, cut by a
 * crash) find their old rows by reading the lake: slower, never wrong. The index follows the
 * snapshot each round starts from, so it is one round behind the lake.
 *
 * @param mode {@code position} or {@code equality}
 * @param rowLocator for position deletes, who finds a key's live lake row: {@link #STORE_INDEX} or
 *     {@link #PAIMON}; empty for equality deletes
 * @param buckets the table's buckets, over its partitions for a partitioned table
 * @param indexedBuckets of them, those the store index describes
 * @param indexedSnapshotId the lake snapshot most indexed buckets' index describes (a bucket no
 *     round changed since stays at an older one); empty when none
 * @param bucketsAtSnapshot how many buckets' index describes {@code indexedSnapshotId}
 * @param indexOpen whether the server opened its index since it started (a round's first lookup
 *     opens it); when not, {@code indexedBuckets} is 0 without having been read
 */
public record PkDeletes(
        String mode,
        Optional<String> rowLocator,
        int buckets,
        int indexedBuckets,
        OptionalLong indexedSnapshotId,
        int bucketsAtSnapshot,
        boolean indexOpen) {

    /** Iceberg position deletes: the server's lake row index, else a read of the lake. */
    public static final String STORE_INDEX = "store-index";

    /** Paimon keeps its own deletion vectors; the server keeps no index. */
    public static final String PAIMON = "paimon";

    /** Whether rows are retracted by position (deletion vectors) rather than by key. */
    public boolean byPosition() {
        return "position".equals(mode);
    }

    static PkDeletes fromPb(PkDeletesStatusPb pb) {
        return new PkDeletes(
                pb.getMode(),
                pb.getRowLocator().isEmpty() ? Optional.empty() : Optional.of(pb.getRowLocator()),
                pb.getBuckets(),
                pb.getIndexedBuckets(),
                pb.getIndexedSnapshotId() < 0
                        ? OptionalLong.empty()
                        : OptionalLong.of(pb.getIndexedSnapshotId()),
                pb.getBucketsAtSnapshot(),
                pb.getIndexOpen());
    }
}

package dev.tributary.server.status;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.BucketStore;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * How a primary-key lake table retracts the old rows of updated and deleted keys (T48), as status
 * shows it: by position or by key ({@code table.datalake.pk-deletes}) and, for Iceberg position
 * deletes, how many of its buckets the server's lake row index describes and at which lake
 * snapshot. A round finds the old rows of the other buckets by reading the lake, so a table whose
 * index is missing or being rebuilt tiers more slowly, not wrongly.
 *
 * <p>The index describes the snapshot a round started from (a round's own rows enter it when the
 * next round reads the snapshot that committed them), so it is one round behind the lake.
 *
 * @param mode {@code position} or {@code equality}
 * @param rowLocator for position deletes, who knows where a key's live lake row is: {@link
 *     #STORE_INDEX} or {@link #PAIMON}; {@code null} for equality deletes
 * @param buckets the table's buckets, over its partitions for a partitioned table
 * @param indexedBuckets of them, those the store index describes
 * @param indexedSnapshotId the lake snapshot most indexed buckets' index describes (a bucket no
 *     round changed since stays at an older one; Iceberg snapshot ids are random, not ordered);
 *     {@code null} when none
 * @param bucketsAtSnapshot how many buckets' index describes {@code indexedSnapshotId}
 * @param indexOpen whether the server opened its index since it started (it opens at a round's
 *     first lookup); when not, {@code indexedBuckets} is 0 without having been read
 */
public record PkDeletesView(
        String mode,
        String rowLocator,
        int buckets,
        int indexedBuckets,
        Long indexedSnapshotId,
        int bucketsAtSnapshot,
        boolean indexOpen) {

    /** Iceberg position deletes: the server's lake row index, else a read of the lake. */
    public static final String STORE_INDEX = "store-index";

    /** Paimon keeps its own deletion vectors and finds rows itself; the store keeps no index. */
    public static final String PAIMON = "paimon";

    /**
     * The view of a lake table, {@code null} for a table without a primary key.
     *
     * @param serverLakeFormat the server's {@code datalake.format}, used when the table does not
     *     name its own
     * @param buckets every bucket of the table (of each of its partitions)
     * @param store read for the index's state only if the index is open: one point read per bucket
     */
    static PkDeletesView of(
            TableDescriptor table,
            String serverLakeFormat,
            List<TableBucket> buckets,
            BucketStore store) {
        if (!table.hasPrimaryKey()) {
            return null;
        }
        TableOptions.PkDeleteMode mode =
                Configuration.fromMap(table.properties()).get(TableOptions.DATALAKE_PK_DELETES);
        String name = mode.name().toLowerCase(Locale.ROOT);
        if (mode != TableOptions.PkDeleteMode.POSITION) {
            return new PkDeletesView(name, null, buckets.size(), 0, null, 0, false);
        }
        String format =
                table.properties()
                        .getOrDefault(TableOptions.DATALAKE_FORMAT.key(), serverLakeFormat);
        if (!"iceberg".equalsIgnoreCase(format)) {
            return new PkDeletesView(name, PAIMON, buckets.size(), 0, null, 0, false);
        }
        Map<Long, Integer> bySnapshot =
                store.readLakeRowIndexIfOpen(
                                index -> {
                                    Map<Long, Integer> counts = new HashMap<>();
                                    for (TableBucket b : buckets) {
                                        OptionalLong s = index.indexedSnapshotId(b);
                                        if (s.isPresent()) {
                                            counts.merge(s.getAsLong(), 1, Integer::sum);
                                        }
                                    }
                                    return counts;
                                })
                        .orElse(null);
        if (bySnapshot == null) {
            return new PkDeletesView(name, STORE_INDEX, buckets.size(), 0, null, 0, false);
        }
        Map.Entry<Long, Integer> most = null;
        int indexed = 0;
        for (Map.Entry<Long, Integer> e : bySnapshot.entrySet()) {
            indexed += e.getValue();
            if (most == null || e.getValue() > most.getValue()) {
                most = e;
            }
        }
        return new PkDeletesView(
                name,
                STORE_INDEX,
                buckets.size(),
                indexed,
                most == null ? null : most.getKey(),
                most == null ? 0 : most.getValue(),
                true);
    }
}

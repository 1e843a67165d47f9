package dev.tributary.union;

import dev.tributary.client.admin.TableInfo;
import dev.tributary.lake.api.commit.LakeSnapshot;
import java.util.List;
import java.util.Optional;

/**
 * What a union read of a table will read: the lake snapshot taken first, and per bucket where the
 * lake ends and the store begins.
 *
 * @param table the table as described when planned (its schema decodes every row read)
 * @param snapshot the lake's latest tiering snapshot of this table when planned; empty when the
 *     table is not lake-enabled, was never tiered, or the reader has no lake
 * @param buckets one start state per bucket, in bucket order (partitioned tables: per partition in
 *     partition id order, then per bucket)
 */
public record UnionPlan(
        TableInfo table, Optional<LakeSnapshot> snapshot, List<BucketReadState> buckets) {
    public UnionPlan {
        buckets = List.copyOf(buckets);
    }

    /**
     * Records of the plan's range that the lake serves (the tiered offsets of the planned buckets),
     * summed.
     */
    public long lakeRecords() {
        return buckets.stream()
                .filter(b -> b.snapshotId() >= 0)
                .mapToLong(BucketReadState::storeFrom)
                .sum();
    }

    /** Records of the plan's range that the store serves ({@code storeTo - storeFrom}), summed. */
    public long storeRecords() {
        return buckets.stream().mapToLong(b -> b.storeTo() - b.storeFrom()).sum();
    }
}

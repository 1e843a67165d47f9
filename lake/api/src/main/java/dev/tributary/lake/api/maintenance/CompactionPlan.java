package dev.tributary.lake.api.maintenance;

import java.util.List;

/**
 * The buckets a maintenance round should compact, and the statistics the plan was made from.
 *
 * @param stats the table as the plan saw it
 * @param buckets lake buckets to compact, most files first, at most the policy's budget; empty when
 *     nothing needs compaction
 */
public record CompactionPlan(LakeTableStats stats, List<Integer> buckets) {
    public CompactionPlan {
        buckets = List.copyOf(buckets);
    }

    public boolean isEmpty() {
        return buckets.isEmpty();
    }
}

package dev.tributary.lake.api.maintenance;

import dev.tributary.common.id.LakeBucket;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The lake buckets a maintenance round should compact, and the statistics the plan was made from.
 * The unit is a bucket of one partition ({@link LakeBucket}): a table with many partitions over the
 * limit in one bucket gets a plan of at most the policy's budget of them, the rest in later rounds,
 * so one grant stays as short as the budget says.
 *
 * @param stats the table as the plan saw it
 * @param units (partition, bucket) units to compact, most files first, at most the policy's budget;
 *     empty when nothing needs compaction
 */
public record CompactionPlan(LakeTableStats stats, List<LakeBucket> units) {
    public CompactionPlan {
        units = List.copyOf(units);
    }

    /** Nothing to compact, as of {@code stats}. */
    public static CompactionPlan none(LakeTableStats stats) {
        return new CompactionPlan(stats, List.of());
    }

    /**
     * The units holding more than {@link CompactionPolicy#maxFiles()} files, most files first (ties
     * by partition, then bucket), at most {@link CompactionPolicy#maxBuckets()} of them.
     *
     * @param files live files per unit, as the format counts them against {@code max-files}
     */
    public static CompactionPlan select(
            LakeTableStats stats, Map<LakeBucket, Integer> files, CompactionPolicy policy) {
        List<LakeBucket> over = new ArrayList<>();
        files.forEach(
                (unit, n) -> {
                    if (n > policy.maxFiles()) {
                        over.add(unit);
                    }
                });
        over.sort(
                Comparator.comparing((LakeBucket u) -> -files.get(u))
                        .thenComparing(Comparator.naturalOrder()));
        return new CompactionPlan(
                stats, over.subList(0, Math.min(over.size(), policy.maxBuckets())));
    }

    public boolean isEmpty() {
        return units.isEmpty();
    }

    /** The distinct lake buckets of the units, in the units' order. */
    public List<Integer> buckets() {
        return units.stream().map(LakeBucket::bucket).distinct().toList();
    }
}

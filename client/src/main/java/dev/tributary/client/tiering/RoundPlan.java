package dev.tributary.client.tiering;

import dev.tributary.common.id.TablePath;
import java.time.Duration;
import java.util.List;

/**
 * One round of one table as granted by the coordinator: the attempt's epoch, the round id, the
 * table's freshness (which also caps the round's duration, T13) and what to read per bucket. One
 * consistent view taken by the coordinator in one step.
 *
 * @param freshness the round's ceiling, counted by the job from when it got the plan
 * @param primaryKey whether the table is a PK table (its changelog ranges are never cut)
 */
public record RoundPlan(
        long tableId,
        TablePath tablePath,
        long epoch,
        long roundId,
        Duration freshness,
        boolean primaryKey,
        List<BucketPlan> buckets) {
    /** A log table's round. */
    public RoundPlan(
            long tableId,
            TablePath tablePath,
            long epoch,
            long roundId,
            Duration freshness,
            List<BucketPlan> buckets) {
        this(tableId, tablePath, epoch, roundId, freshness, false, buckets);
    }

    public RoundPlan {
        buckets = List.copyOf(buckets);
        if (freshness.isNegative() || freshness.isZero()) {
            throw new IllegalArgumentException("freshness must be positive: " + freshness);
        }
    }

    public Attempt attempt() {
        return new Attempt(tableId, epoch);
    }
}

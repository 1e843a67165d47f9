package dev.tributary.coordinator.tiering;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One table round handed to a job: everything it needs, from one consistent view. Every write
 * result of the round carries {@code (tableId, epoch, roundId)} (T20).
 *
 * @param tableId the table id
 * @param path the table path
 * @param descriptor the table's descriptor at plan time
 * @param schemaId the current schema id (rows of older schema ids are read under this schema)
 * @param epoch the attempt's tiering epoch; heartbeats, reports and the commit must name it
 * @param roundId the round's id (grows per table)
 * @param buckets the work per (partition, bucket) with new data; never empty (a table with nothing
 *     new is not handed out, T27)
 * @param plannedAtMillis wall time the cutoffs were taken
 * @param freshness the round ceiling: force-finish once this much time passed since {@code
 *     plannedAtMillis} (T13)
 * @param partitionNames the name of every partition {@code buckets} names (T32); empty for an
 *     unpartitioned table
 */
public record RoundPlan(
        long tableId,
        TablePath path,
        TableDescriptor descriptor,
        int schemaId,
        long epoch,
        long roundId,
        List<BucketWork> buckets,
        long plannedAtMillis,
        Duration freshness,
        Map<Long, String> partitionNames) {

    public RoundPlan {
        buckets = List.copyOf(buckets);
        partitionNames = Map.copyOf(partitionNames);
    }

    /** A round of an unpartitioned table. */
    public RoundPlan(
            long tableId,
            TablePath path,
            TableDescriptor descriptor,
            int schemaId,
            long epoch,
            long roundId,
            List<BucketWork> buckets,
            long plannedAtMillis,
            Duration freshness) {
        this(
                tableId,
                path,
                descriptor,
                schemaId,
                epoch,
                roundId,
                buckets,
                plannedAtMillis,
                freshness,
                Map.of());
    }
}

package dev.tributary.tiering.api;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One table round handed to a job: everything it needs, from one consistent view taken by the
 * coordinator in one step. Every write result of the round carries {@code (tableId, epoch,
 * roundId)} (T20).
 *
 * @param tableId the table id
 * @param path the table path
 * @param descriptor the table's descriptor at plan time
 * @param schemaId the current schema id (rows of older schema ids are read under this schema)
 * @param epoch the attempt's tiering epoch; heartbeats, reports and the commit must name it
 * @param roundId the round's id (grows per table)
 * @param buckets the work per (partition, bucket) with new data; never empty when the coordinator
 *     hands it out (a table with nothing new is not handed out, T27)
 * @param freshness the round's ceiling (T13): the table's freshness when the round was planned. The
 *     job force-finishes the round once this much time passed since it received the plan, on its
 *     own clock; the coordinator counts the table's current freshness (it follows an ALTER) from
 *     its hand-out and names the round for force-finish in a heartbeat answer when that passes
 *     first. A duration, never a point in time: no deadline crosses from one clock to another
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
        List<BucketPlan> buckets,
        Duration freshness,
        Map<Long, String> partitionNames) {

    public RoundPlan {
        buckets = List.copyOf(buckets);
        partitionNames = Map.copyOf(partitionNames);
        if (freshness.isNegative() || freshness.isZero()) {
            throw new IllegalArgumentException("freshness must be positive: " + freshness);
        }
    }

    /** A round of an unpartitioned table. */
    public RoundPlan(
            long tableId,
            TablePath path,
            TableDescriptor descriptor,
            int schemaId,
            long epoch,
            long roundId,
            List<BucketPlan> buckets,
            Duration freshness) {
        this(tableId, path, descriptor, schemaId, epoch, roundId, buckets, freshness, Map.of());
    }

    /** The attempt heartbeats, reports and the commit of this round name. */
    public Attempt attempt() {
        return new Attempt(tableId, epoch);
    }

    /** Whether the table is a primary-key table (its changelog ranges are never cut). */
    public boolean primaryKey() {
        return descriptor.hasPrimaryKey();
    }

    /**
     * The name of a partition the buckets name ({@code dt=2026-12-01}), {@code null} for {@link
     * TableBucket#NO_PARTITION}.
     */
    public String partitionName(long partitionId) {
        return partitionId == TableBucket.NO_PARTITION ? null : partitionNames.get(partitionId);
    }
}

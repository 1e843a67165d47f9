package dev.tributary.tiering.testutil;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.RoundPlan;
import java.time.Duration;
import java.util.List;

/** Round plans as the coordinator hands them out, for unit tests of the job's scheduling. */
public final class Plans {
    private Plans() {}

    /** A round of an unpartitioned log table ({@link TestSchemas#LOG}). */
    public static RoundPlan round(
            long tableId,
            TablePath path,
            long epoch,
            long roundId,
            Duration freshness,
            List<BucketPlan> buckets) {
        return round(tableId, path, epoch, roundId, freshness, false, buckets);
    }

    /** A round of an unpartitioned log or primary-key table ({@link TestSchemas}). */
    public static RoundPlan round(
            long tableId,
            TablePath path,
            long epoch,
            long roundId,
            Duration freshness,
            boolean primaryKey,
            List<BucketPlan> buckets) {
        TableDescriptor descriptor =
                TableDescriptor.builder(primaryKey ? TestSchemas.PK : TestSchemas.LOG).build();
        return new RoundPlan(tableId, path, descriptor, 1, epoch, roundId, buckets, freshness);
    }
}

package dev.tributary.server.lake;

import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.spi.LakeMaintenanceStep;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.ExpiryPolicy;
import dev.tributary.lake.api.maintenance.ExpiryResult;
import dev.tributary.lake.api.maintenance.LakeCompactionResult;
import dev.tributary.lake.api.maintenance.LakeCompactionResultSerializer;
import dev.tributary.lake.api.maintenance.LakeMaintainer;
import dev.tributary.lake.api.maintenance.LakeTableStats;
import dev.tributary.lake.api.maintenance.MaintenanceCommitResult;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The coordinator's maintenance step over the server's one {@link LakeStorage}: decodes compaction
 * results (the lake SPI's versioned serializer) and hands every call to a maintainer of the table,
 * created per call (cheap) and never shared between threads. A lake table that is gone has nothing
 * to maintain.
 */
public final class LakeMaintenanceStepImpl implements LakeMaintenanceStep {
    private final LakeStorage lake;
    private final ObjectStoreCosts costs;

    public LakeMaintenanceStepImpl(LakeStorage lake) {
        this(lake, new ObjectStoreCosts(ObjectStoreRequests.global()));
    }

    /**
     * A step that also charges each maintenance pass's object-store cost (T47): a pass starts with
     * {@link #expireSnapshots}, ends with {@link #planCompaction} or {@link #stats}, and a
     * compaction commit adds to it.
     */
    public LakeMaintenanceStepImpl(LakeStorage lake, ObjectStoreCosts costs) {
        this.lake = lake;
        this.costs = costs;
    }

    @Override
    public LakeTableStats stats(TablePath path) {
        if (!lake.catalog().tableExists(path)) {
            return LakeTableStats.EMPTY;
        }
        return withMaintainer(path, false, true, LakeMaintainer::stats);
    }

    @Override
    public CompactionPlan planCompaction(TablePath path, CompactionPolicy policy) {
        if (!lake.catalog().tableExists(path)) {
            return CompactionPlan.none(LakeTableStats.EMPTY);
        }
        return withMaintainer(path, false, true, m -> m.planCompaction(policy));
    }

    @Override
    public ExpiryResult expireSnapshots(TablePath path, ExpiryPolicy policy) {
        if (!lake.catalog().tableExists(path)) {
            return ExpiryResult.nothing(0);
        }
        return withMaintainer(path, true, false, m -> m.expireSnapshots(policy));
    }

    @Override
    public MaintenanceCommitResult commitCompaction(
            TablePath path, long tableId, long maintenanceId, List<byte[]> results) {
        return withMaintainer(
                path,
                false,
                true,
                m -> m.commitCompaction(tableId, maintenanceId, decode(results)));
    }

    @Override
    public void abortCompaction(TablePath path, List<byte[]> results) {
        if (!lake.catalog().tableExists(path)) {
            return;
        }
        try (LakeMaintainer m = lake.createMaintainer(path)) {
            m.abortCompaction(decode(results));
        }
    }

    /** Runs {@code call} on a fresh maintainer of the table, charging its cost to the pass. */
    private <T> T withMaintainer(
            TablePath path,
            boolean startsPass,
            boolean endsPass,
            Function<LakeMaintainer, T> call) {
        return costs.maintenance(
                path,
                startsPass,
                endsPass,
                () -> {
                    try (LakeMaintainer m = lake.createMaintainer(path)) {
                        return call.apply(m);
                    }
                });
    }

    private static List<LakeCompactionResult> decode(List<byte[]> results) {
        List<LakeCompactionResult> out = new ArrayList<>(results.size());
        for (byte[] r : results) {
            out.add(LakeCompactionResultSerializer.INSTANCE.deserialize(r));
        }
        return out;
    }
}

package dev.tributary.coordinator.spi;

import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.ExpiryPolicy;
import dev.tributary.lake.api.maintenance.ExpiryResult;
import dev.tributary.lake.api.maintenance.LakeTableStats;
import dev.tributary.lake.api.maintenance.MaintenanceCommitResult;
import java.util.List;

/**
 * The lake side of maintenance (T38, T39), implemented by the server over its one {@code
 * LakeStorage}. Every method runs on the coordinator's maintenance I/O threads, never on its event
 * loop nor on the tiering commit threads; the coordinator runs at most one of them at a time per
 * table, but any of them may run while a tiering commit of the same table does: the lake formats'
 * own optimistic commits keep both safe, and a compaction is the one that gives way. Compaction
 * results travel as the bytes of the lake SPI's versioned {@code LakeCompactionResultSerializer}.
 */
public interface LakeMaintenanceStep {

    /** The table's snapshots and live files per bucket; empty statistics if there is no table. */
    LakeTableStats stats(TablePath path) throws Exception;

    /** The buckets to compact under {@code policy}, with the statistics the plan saw. */
    CompactionPlan planCompaction(TablePath path, CompactionPolicy policy) throws Exception;

    /** Expires snapshots; the newest tiering snapshot of the policy's table always stays. */
    ExpiryResult expireSnapshots(TablePath path, ExpiryPolicy policy) throws Exception;

    /**
     * Commits one grant's compaction results as one snapshot.
     *
     * @return committed, nothing to commit, or a conflict (nothing committed; the caller deletes
     *     the results' files with {@link #abortCompaction})
     * @throws Exception when the commit failed or its outcome is unknown
     */
    MaintenanceCommitResult commitCompaction(
            TablePath path, long tableId, long maintenanceId, List<byte[]> results)
            throws Exception;

    /** Deletes the files of compaction results that will never be committed. */
    void abortCompaction(TablePath path, List<byte[]> results) throws Exception;
}

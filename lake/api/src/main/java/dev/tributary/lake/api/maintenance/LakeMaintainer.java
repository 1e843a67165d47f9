package dev.tributary.lake.api.maintenance;

import java.util.List;

/**
 * Maintenance of one lake table on the server's side: statistics, compaction plans and commits,
 * snapshot expiry (T38, T39). Metadata work only; the data is rewritten by {@link LakeCompactor}s
 * in the tiering job. Not thread safe: one thread at a time; the coordinator runs these on its
 * maintenance I/O threads, never on the tiering commit threads.
 *
 * <p>None of these may slow, fail or fence a tiering commit of the same table, which may run at the
 * same moment: a compaction commit replaces files, tiering commits only add them, and each format's
 * optimistic commit makes the compaction the one that gives way ({@link
 * MaintenanceCommitResult.Outcome#CONFLICT}).
 */
public interface LakeMaintainer extends AutoCloseable {

    /** The table's snapshots and live files per bucket, from its latest snapshot. */
    LakeTableStats stats();

    /**
     * The (partition, bucket) units that hold more than {@link CompactionPolicy#maxFiles()} live
     * files (counted per unit, never summed over partitions), most files first, at most {@link
     * CompactionPolicy#maxBuckets()} of them ({@link CompactionPlan#select}).
     */
    CompactionPlan planCompaction(CompactionPolicy policy);

    /**
     * Commits compaction results of one grant as ONE snapshot carrying {@link
     * MaintenanceSnapshotProperties}. Never retried by the caller after an unknown outcome: a
     * compaction that did not land is planned again.
     *
     * @param results results of grant {@code maintenanceId} of table {@code tableId}
     * @return {@link MaintenanceCommitResult.Outcome#CONFLICT} when the lake refused because the
     *     table changed underneath (nothing committed; {@link #abortCompaction} may delete the
     *     files)
     * @throws dev.tributary.common.exception.InvalidInputException when a result belongs to another
     *     table, format or grant
     * @throws dev.tributary.common.exception.StorageException on other failures (outcome unknown:
     *     do not abort)
     */
    MaintenanceCommitResult commitCompaction(
            long tableId, long maintenanceId, List<LakeCompactionResult> results);

    /**
     * Deletes the files compaction results wrote, except any the latest snapshot references. Call
     * it only for results that were refused or never committed.
     */
    void abortCompaction(List<LakeCompactionResult> results);

    /**
     * Expires snapshots by {@code policy} and deletes the files no retained snapshot references.
     * The table's newest tiering snapshot and every later snapshot are kept whatever the policy
     * says.
     */
    ExpiryResult expireSnapshots(ExpiryPolicy policy);

    @Override
    void close();
}

package dev.tributary.server.status;

import dev.tributary.coordinator.status.MaintenanceRun;
import dev.tributary.coordinator.status.TableMaintenanceStatus;
import java.util.Map;
import java.util.TreeMap;

/**
 * A table's lake maintenance as the CLI, HTTP JSON, the console and metrics show it (T38, T39).
 *
 * @param state IDLE, CHECKING, QUEUED, COMPACTING or COMMITTING
 * @param autoCompaction the table's {@code table.datalake.auto-compaction}
 * @param maxFiles the table's {@code table.datalake.compaction.max-files}
 * @param queuePosition position in the compaction queue, -1 unless queued
 * @param jobId the job compacting it, or {@code null}
 * @param statsAtMillis when the lake's statistics below were read, -1 before the first pass
 * @param dataFilesPerBucket per lake bucket, the most live data files one partition holds in it (an
 *     unpartitioned table has one partition)
 * @param liveDataFiles live data files in all (partition, bucket)s
 * @param maxFilesPerBucket the most live data files any (partition, bucket) has
 * @param deleteFiles live delete files (Iceberg)
 * @param liveDataBytes bytes of the live data files
 * @param snapshotsRetained lake snapshots the table keeps
 * @param nextPassAtMillis when the next maintenance pass is due, -1 if none is scheduled
 * @param lastCompaction the last compaction that ended, or {@code null}
 * @param bytesReclaimed bytes of the files snapshot expiry deleted
 */
public record MaintenanceView(
        String state,
        boolean autoCompaction,
        int maxFiles,
        int queuePosition,
        String jobId,
        long statsAtMillis,
        Map<Integer, Integer> dataFilesPerBucket,
        int liveDataFiles,
        int maxFilesPerBucket,
        int deleteFiles,
        long liveDataBytes,
        int snapshotsRetained,
        long nextPassAtMillis,
        CompactionView lastCompaction,
        long compactions,
        long compactionsYielded,
        long compactionFailures,
        long bytesRewritten,
        long lastExpiryAtMillis,
        long snapshotsExpired,
        long filesDeleted,
        long bytesReclaimed,
        String lastError) {

    /**
     * One compaction as it ended.
     *
     * @param outcome COMMITTED, NOTHING_TO_COMMIT, YIELDED (gave way to tiering) or FAILED
     */
    public record CompactionView(
            long maintenanceId,
            String jobId,
            String outcome,
            long grantedAtMillis,
            long endedAtMillis,
            int buckets,
            int filesRemoved,
            int filesAdded,
            long bytesRewritten,
            long bytesWritten,
            long lakeSnapshotId,
            String message) {
        static CompactionView of(MaintenanceRun r) {
            return r == null
                    ? null
                    : new CompactionView(
                            r.maintenanceId(),
                            r.jobId(),
                            r.outcome().name(),
                            r.grantedAtMillis(),
                            r.endedAtMillis(),
                            r.buckets(),
                            r.filesRemoved(),
                            r.filesAdded(),
                            r.bytesRewritten(),
                            r.bytesWritten(),
                            r.snapshotId(),
                            r.message());
        }
    }

    /** The view of the coordinator's status, or {@code null} for none. */
    static MaintenanceView of(TableMaintenanceStatus m) {
        if (m == null) {
            return null;
        }
        var s = m.stats();
        return new MaintenanceView(
                m.state().name(),
                m.autoCompaction(),
                m.maxFiles(),
                m.queuePosition(),
                m.jobId(),
                m.statsAtMillis(),
                new TreeMap<>(s.dataFilesPerBucket()),
                s.dataFiles(),
                s.maxDataFilesPerBucket(),
                s.deleteFiles(),
                s.dataBytes(),
                s.snapshots(),
                m.nextPassMillis(),
                CompactionView.of(m.lastCompaction()),
                m.compactions(),
                m.compactionsYielded(),
                m.compactionFailures(),
                m.bytesRewritten(),
                m.lastExpiryMillis(),
                m.snapshotsExpired(),
                m.filesDeleted(),
                m.bytesReclaimed(),
                m.lastError());
    }

    /** Whether the lake's statistics were read at least once. */
    public boolean statsKnown() {
        return statsAtMillis >= 0;
    }
}

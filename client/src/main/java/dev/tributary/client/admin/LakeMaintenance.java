package dev.tributary.client.admin;

import dev.tributary.rpc.proto.CompactionRunPb;
import dev.tributary.rpc.proto.TableMaintenancePb;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * A lake table's maintenance (T38, T39): how its files and snapshots stand as the last maintenance
 * pass read them, what compaction and snapshot expiry did. Counters are since the server started.
 *
 * @param state IDLE, CHECKING, QUEUED, COMPACTING or COMMITTING
 * @param autoCompaction the table's {@code table.datalake.auto-compaction}
 * @param maxFiles the table's {@code table.datalake.compaction.max-files}
 * @param queuePosition position in the compaction queue, -1 unless queued
 * @param jobId the job compacting the table now
 * @param statsAtMillis when the figures below were read; empty before the first pass
 * @param dataFilesPerBucket per lake bucket, the most live data files one partition holds in it (an
 *     unpartitioned table has one partition)
 * @param maxFilesPerBucket the most live data files a (partition, bucket) has
 * @param deleteFiles live delete files (Iceberg)
 * @param liveDataBytes bytes of the live data files
 * @param snapshotsRetained snapshots the lake table keeps
 * @param nextPassAtMillis when the next maintenance pass is due (0: none scheduled)
 * @param lastCompaction the last compaction that ended
 * @param compactions compactions committed
 * @param compactionsYielded compactions that gave way to tiering
 * @param compactionFailures compactions that failed, timed out or lost their job
 * @param bytesRewritten bytes of the files compactions replaced
 * @param lastExpiryAtMillis when snapshots were last expired (0: never)
 * @param snapshotsExpired snapshots expired
 * @param filesDeleted files snapshot expiry deleted
 * @param bytesReclaimed their bytes
 * @param lastError the last maintenance failure
 * @param liveDataFiles live data files over every (partition, bucket)
 */
public record LakeMaintenance(
        String state,
        boolean autoCompaction,
        int maxFiles,
        int queuePosition,
        Optional<String> jobId,
        OptionalLong statsAtMillis,
        Map<Integer, Integer> dataFilesPerBucket,
        int maxFilesPerBucket,
        int deleteFiles,
        long liveDataBytes,
        int snapshotsRetained,
        long nextPassAtMillis,
        Optional<Compaction> lastCompaction,
        long compactions,
        long compactionsYielded,
        long compactionFailures,
        long bytesRewritten,
        long lastExpiryAtMillis,
        long snapshotsExpired,
        long filesDeleted,
        long bytesReclaimed,
        Optional<String> lastError,
        int liveDataFiles) {

    public LakeMaintenance {
        dataFilesPerBucket = Map.copyOf(dataFilesPerBucket);
    }

    /**
     * One compaction as it ended.
     *
     * @param outcome COMMITTED, NOTHING_TO_COMMIT, YIELDED (gave way to tiering) or FAILED
     * @param filesRemoved files it replaced
     * @param filesAdded files it wrote
     * @param lakeSnapshotId its lake snapshot, -1 unless committed
     * @param message why it did not commit
     */
    public record Compaction(
            long maintenanceId,
            Optional<String> jobId,
            String outcome,
            long grantedAtMillis,
            long endedAtMillis,
            int buckets,
            int filesRemoved,
            int filesAdded,
            long bytesRewritten,
            long bytesWritten,
            long lakeSnapshotId,
            Optional<String> message) {

        static Compaction fromPb(CompactionRunPb pb) {
            return new Compaction(
                    pb.getMaintenanceId(),
                    pb.hasJobId() ? Optional.of(pb.getJobId()) : Optional.empty(),
                    pb.getOutcome(),
                    pb.getGrantedAtMillis(),
                    pb.getEndedAtMillis(),
                    pb.getBuckets(),
                    pb.getFilesRemoved(),
                    pb.getFilesAdded(),
                    pb.getBytesRewritten(),
                    pb.getBytesWritten(),
                    pb.getLakeSnapshotId(),
                    pb.hasMessage() ? Optional.of(pb.getMessage()) : Optional.empty());
        }
    }

    static LakeMaintenance fromPb(TableMaintenancePb pb) {
        return new LakeMaintenance(
                pb.getState(),
                pb.getAutoCompaction(),
                pb.getMaxFiles(),
                pb.getQueuePosition(),
                pb.hasJobId() ? Optional.of(pb.getJobId()) : Optional.empty(),
                pb.getStatsAtMillis() > 0
                        ? OptionalLong.of(pb.getStatsAtMillis())
                        : OptionalLong.empty(),
                new TreeMap<>(pb.getDataFilesPerBucketMap()),
                pb.getMaxFilesPerBucket(),
                pb.getDeleteFiles(),
                pb.getLiveDataBytes(),
                pb.getSnapshotsRetained(),
                pb.getNextPassAtMillis(),
                pb.hasLastCompaction()
                        ? Optional.of(Compaction.fromPb(pb.getLastCompaction()))
                        : Optional.empty(),
                pb.getCompactions(),
                pb.getCompactionsYielded(),
                pb.getCompactionFailures(),
                pb.getBytesRewritten(),
                pb.getLastExpiryAtMillis(),
                pb.getSnapshotsExpired(),
                pb.getFilesDeleted(),
                pb.getBytesReclaimed(),
                pb.hasLastError() ? Optional.of(pb.getLastError()) : Optional.empty(),
                pb.hasLiveDataFiles()
                        ? pb.getLiveDataFiles()
                        : pb.getDataFilesPerBucketMap().values().stream()
                                .mapToInt(Integer::intValue)
                                .sum());
    }
}

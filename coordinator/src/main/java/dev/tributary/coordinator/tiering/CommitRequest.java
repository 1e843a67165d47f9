package dev.tributary.coordinator.tiering;

import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A job's request to commit a round (T19). Succeeds only if {@code (tableId, epoch, roundId)} is
 * the table's current attempt; then the coordinator runs the lake commit and records the result.
 *
 * @param jobId the committing job
 * @param tableId the table id
 * @param epoch the round's epoch
 * @param roundId the round's id
 * @param bucketEndOffsets per bucket that made progress, the new exclusive end offset: for a LOG
 *     bucket within {@code (startOffset, endOffset]} of its {@link BucketWork} (less than the
 *     cutoff only if force-finished); for a SNAPSHOT bucket exactly the snapshot's log offset.
 *     Buckets left out keep their tiered offset.
 * @param committable the lake plugin's serialized committable, opaque to the coordinator
 * @param stats what the round wrote
 * @param forceFinished the round was cut by its ceiling (T13): the rest is queued at once
 */
public record CommitRequest(
        String jobId,
        long tableId,
        long epoch,
        long roundId,
        SortedMap<Integer, Long> bucketEndOffsets,
        byte[] committable,
        RoundStats stats,
        boolean forceFinished) {

    public CommitRequest {
        bucketEndOffsets = new TreeMap<>(Objects.requireNonNull(bucketEndOffsets));
        Objects.requireNonNull(committable, "committable");
        stats = stats == null ? RoundStats.EMPTY : stats;
    }

    public static CommitRequest of(
            String jobId,
            long tableId,
            long epoch,
            long roundId,
            Map<Integer, Long> bucketEndOffsets,
            byte[] committable,
            RoundStats stats,
            boolean forceFinished) {
        return new CommitRequest(
                jobId,
                tableId,
                epoch,
                roundId,
                new TreeMap<>(bucketEndOffsets),
                committable,
                stats,
                forceFinished);
    }
}

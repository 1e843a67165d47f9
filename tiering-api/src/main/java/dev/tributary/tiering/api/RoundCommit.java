package dev.tributary.tiering.api;

import dev.tributary.common.id.PartitionBucket;
import java.util.ArrayList;
import java.util.List;
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
 * @param bucketEndOffsets per (partition, bucket) that made progress, the new exclusive end offset
 *     (its tiered offset): for a LOG bucket within {@code (startOffset, endOffset]} of its {@link
 *     BucketPlan} (less than the cutoff only if force-finished); for a SNAPSHOT bucket exactly the
 *     snapshot's log offset. Buckets left out keep their tiered offset.
 * @param writeResults the lake write results to commit as one snapshot, each serialized by the lake
 *     SPI's versioned {@code LakeWriteResultSerializer}; opaque to the coordinator. May be empty:
 *     the round then only records offsets that moved (T27)
 * @param discardedResults results this attempt wrote that must not be committed (a range after a
 *     gap left by force-finish); their files are deleted (T23)
 * @param stats what the job read
 * @param forceFinished the round was cut by its ceiling (T13): the rest is queued at once
 */
public record RoundCommit(
        String jobId,
        long tableId,
        long epoch,
        long roundId,
        SortedMap<PartitionBucket, Long> bucketEndOffsets,
        List<byte[]> writeResults,
        List<byte[]> discardedResults,
        RoundStats stats,
        boolean forceFinished) {

    public RoundCommit {
        bucketEndOffsets = new TreeMap<>(Objects.requireNonNull(bucketEndOffsets));
        writeResults = List.copyOf(writeResults);
        discardedResults = List.copyOf(discardedResults);
        stats = stats == null ? RoundStats.EMPTY : stats;
    }

    /** A commit of a round of an unpartitioned table, end offsets by bucket. */
    public static RoundCommit of(
            String jobId,
            long tableId,
            long epoch,
            long roundId,
            Map<Integer, Long> bucketEndOffsets,
            List<byte[]> writeResults,
            RoundStats stats,
            boolean forceFinished) {
        return new RoundCommit(
                jobId,
                tableId,
                epoch,
                roundId,
                keyed(bucketEndOffsets),
                writeResults,
                List.of(),
                stats,
                forceFinished);
    }

    /** Unpartitioned buckets' offsets keyed as {@link PartitionBucket}s. */
    public static SortedMap<PartitionBucket, Long> keyed(Map<Integer, Long> bucketEndOffsets) {
        SortedMap<PartitionBucket, Long> out = new TreeMap<>();
        bucketEndOffsets.forEach((b, o) -> out.put(PartitionBucket.of(b), o));
        return out;
    }

    /** The attempt the commit is fenced on. */
    public Attempt attempt() {
        return new Attempt(tableId, epoch);
    }

    /** True when the round has nothing to tell the lake: no files and no offsets moved. */
    public boolean isEmpty() {
        return writeResults.isEmpty() && bucketEndOffsets.isEmpty();
    }

    /** The same request with its offsets replaced by validated ones. */
    public RoundCommit withOffsets(SortedMap<PartitionBucket, Long> offsets) {
        return new RoundCommit(
                jobId,
                tableId,
                epoch,
                roundId,
                offsets,
                writeResults,
                discardedResults,
                stats,
                forceFinished);
    }

    /** Every result of the request, committable or not: what an abort must delete. */
    public List<byte[]> allResults() {
        if (discardedResults.isEmpty()) {
            return writeResults;
        }
        List<byte[]> all = new ArrayList<>(writeResults);
        all.addAll(discardedResults);
        return all;
    }
}

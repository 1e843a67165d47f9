package dev.tributary.coordinator.store;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.status.RoundSummary;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;

/**
 * The durable tiering progress of one table: where each (partition, bucket)'s lake copy ends, when
 * the last round committed and which lake snapshot holds it. Written atomically after each lake
 * commit, so the coordinator resumes exactly there after a restart (T12, T21, T32).
 *
 * @param tableId the table
 * @param offsets per (partition, bucket), the exclusive end offset already in the lake; a bucket
 *     absent here was never tiered. Partitions removed from the table (T33) are removed here too
 * @param lastTieredTimeMillis wall time of the last commit, -1 if none
 * @param enabledSinceMillis wall time tiering was (last) switched on; the first round waits one
 *     freshness interval from here (T11)
 * @param lakeSnapshotId the last committed lake snapshot, -1 if none
 * @param epoch epoch of the round that produced {@code lakeSnapshotId}, 0 if none
 * @param roundId id of that round, 0 if none
 * @param continueImmediately the last round was force-finished, so the rest is due at once
 * @param lastRound summary of the last round, or {@code null}
 */
public record TieringRecord(
        long tableId,
        TieredOffsets offsets,
        long lastTieredTimeMillis,
        long enabledSinceMillis,
        long lakeSnapshotId,
        long epoch,
        long roundId,
        boolean continueImmediately,
        RoundSummary lastRound) {

    public TieringRecord {
        Objects.requireNonNull(offsets, "offsets");
    }

    /** A record of an unpartitioned table, with its tiered offsets per bucket. */
    public TieringRecord(
            long tableId,
            SortedMap<Integer, Long> tieredOffsets,
            long lastTieredTimeMillis,
            long enabledSinceMillis,
            long lakeSnapshotId,
            long epoch,
            long roundId,
            boolean continueImmediately,
            RoundSummary lastRound) {
        this(
                tableId,
                TieredOffsets.ofBuckets(tieredOffsets),
                lastTieredTimeMillis,
                enabledSinceMillis,
                lakeSnapshotId,
                epoch,
                roundId,
                continueImmediately,
                lastRound);
    }

    /** A table that was never tiered, enabled at {@code enabledSinceMillis}. */
    public static TieringRecord initial(long tableId, long enabledSinceMillis) {
        return new TieringRecord(
                tableId, TieredOffsets.EMPTY, -1, enabledSinceMillis, -1, 0, 0, false, null);
    }

    /** The tiered offsets of an unpartitioned table's buckets. */
    public SortedMap<Integer, Long> tieredOffsets() {
        return offsets.partition(TableBucket.NO_PARTITION);
    }

    /** The tiered offset of a bucket of an unpartitioned table, or -1 if it was never tiered. */
    public long tieredOffset(int bucket) {
        return offsets.get(PartitionBucket.of(bucket));
    }

    /** The tiered offset of a (partition, bucket), or -1 if it was never tiered. */
    public long tieredOffset(PartitionBucket bucket) {
        return offsets.get(bucket);
    }

    /** The time the freshness interval is measured from (T11, T12). */
    public long freshnessBaseMillis() {
        return Math.max(lastTieredTimeMillis, enabledSinceMillis);
    }

    public TieringRecord withEnabledSince(long millis) {
        return new TieringRecord(
                tableId,
                offsets,
                lastTieredTimeMillis,
                millis,
                lakeSnapshotId,
                epoch,
                roundId,
                continueImmediately,
                lastRound);
    }

    /** The record without a partition's offsets (the partition was removed, T33). */
    public TieringRecord withoutPartition(long partitionId) {
        TieredOffsets next = offsets.withoutPartition(partitionId);
        if (next == offsets) {
            return this;
        }
        return new TieringRecord(
                tableId,
                next,
                lastTieredTimeMillis,
                enabledSinceMillis,
                lakeSnapshotId,
                epoch,
                roundId,
                continueImmediately,
                lastRound);
    }

    /** The record after a committed round of an unpartitioned table. */
    public TieringRecord afterCommit(
            Map<Integer, Long> newOffsets,
            long committedAtMillis,
            long snapshotId,
            long roundEpoch,
            long round,
            boolean forceFinished,
            RoundSummary summary) {
        Map<PartitionBucket, Long> keyed = new java.util.HashMap<>();
        newOffsets.forEach((b, o) -> keyed.put(PartitionBucket.of(b), o));
        return afterRound(
                keyed, committedAtMillis, snapshotId, roundEpoch, round, forceFinished, summary);
    }

    /** The record after a committed round: {@code newOffsets} replace those buckets' offsets. */
    public TieringRecord afterRound(
            Map<PartitionBucket, Long> newOffsets,
            long committedAtMillis,
            long snapshotId,
            long roundEpoch,
            long round,
            boolean forceFinished,
            RoundSummary summary) {
        return new TieringRecord(
                tableId,
                offsets.merge(newOffsets),
                committedAtMillis,
                enabledSinceMillis,
                snapshotId,
                roundEpoch,
                round,
                forceFinished,
                summary);
    }
}

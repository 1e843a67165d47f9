package dev.tributary.tiering.split;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import java.util.Objects;

/**
 * One unit of reader work in a round: a log offset range of a bucket, or a whole KV snapshot of a
 * bucket. Every split carries its attempt's (table id, epoch, round id) so that every result it
 * produces can be matched to its round and stale results dropped (T20).
 *
 * <p>For a log split, {@code startOffset}/{@code endOffset} bound the range {@code [start, end)};
 * for a snapshot split both are the snapshot's log offset.
 */
public final class TieringSplit implements org.apache.flink.api.connector.source.SourceSplit {
    private final long tableId;
    private final TablePath tablePath;
    private final long epoch;
    private final long roundId;
    private final int bucket;
    private final long startOffset;
    private final long endOffset;
    private final long snapshotId;

    public TieringSplit(
            long tableId,
            TablePath tablePath,
            long epoch,
            long roundId,
            int bucket,
            long startOffset,
            long endOffset,
            long snapshotId) {
        this.tableId = tableId;
        this.tablePath = Objects.requireNonNull(tablePath);
        this.epoch = epoch;
        this.roundId = roundId;
        this.bucket = bucket;
        this.startOffset = startOffset;
        this.endOffset = endOffset;
        this.snapshotId = snapshotId;
    }

    public static TieringSplit log(
            long tableId,
            TablePath path,
            long epoch,
            long roundId,
            int bucket,
            long from,
            long to) {
        if (to <= from) {
            throw new IllegalArgumentException("empty log split [" + from + ", " + to + ")");
        }
        return new TieringSplit(tableId, path, epoch, roundId, bucket, from, to, -1L);
    }

    public static TieringSplit snapshot(
            long tableId,
            TablePath path,
            long epoch,
            long roundId,
            int bucket,
            long snapshotId,
            long snapshotLogOffset) {
        return new TieringSplit(
                tableId,
                path,
                epoch,
                roundId,
                bucket,
                snapshotLogOffset,
                snapshotLogOffset,
                snapshotId);
    }

    @Override
    public String splitId() {
        return tableId
                + "-e"
                + epoch
                + "-r"
                + roundId
                + "-b"
                + bucket
                + (isSnapshot() ? "-s" + snapshotId : "-o" + startOffset);
    }

    public long tableId() {
        return tableId;
    }

    public TablePath tablePath() {
        return tablePath;
    }

    public long epoch() {
        return epoch;
    }

    public long roundId() {
        return roundId;
    }

    public int bucket() {
        return bucket;
    }

    public TableBucket tableBucket() {
        return new TableBucket(tableId, bucket);
    }

    public long startOffset() {
        return startOffset;
    }

    public long endOffset() {
        return endOffset;
    }

    public long snapshotId() {
        return snapshotId;
    }

    public boolean isSnapshot() {
        return snapshotId >= 0;
    }

    /** Whether this split belongs to the given attempt and round. */
    public boolean belongsTo(long otherTableId, long otherEpoch, long otherRoundId) {
        return tableId == otherTableId && epoch == otherEpoch && roundId == otherRoundId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TieringSplit s
                && s.tableId == tableId
                && s.epoch == epoch
                && s.roundId == roundId
                && s.bucket == bucket
                && s.startOffset == startOffset
                && s.endOffset == endOffset
                && s.snapshotId == snapshotId
                && s.tablePath.equals(tablePath);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tableId, epoch, roundId, bucket, startOffset, endOffset, snapshotId);
    }

    @Override
    public String toString() {
        return tablePath
                + "["
                + splitId()
                + (isSnapshot() ? "" : " [" + startOffset + ", " + endOffset + ")")
                + "]";
    }
}

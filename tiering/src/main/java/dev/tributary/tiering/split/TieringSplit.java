package dev.tributary.tiering.split;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import java.util.Objects;

/**
 * One unit of reader work in a round: a log offset range of a bucket, or a whole KV snapshot of a
 * bucket. Every split carries its attempt's (table id, epoch, round id) so that every result it
 * produces can be matched to its round and stale results dropped (T20).
 *
 * <p>For a log split, {@code startOffset}/{@code endOffset} bound the range {@code [start, end)};
 * for a snapshot split both are the snapshot's log offset. A split of a partitioned table (T32)
 * names its partition's id and name; its id carries {@code -p<partition id>}.
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
    private final long partitionId;
    private final String partitionName;

    /** A split of a bucket of an unpartitioned table. */
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
        this.partitionId = TableBucket.NO_PARTITION;
        this.partitionName = null;
    }

    private TieringSplit(TieringSplit s, long partitionId, String partitionName) {
        this.tableId = s.tableId;
        this.tablePath = s.tablePath;
        this.epoch = s.epoch;
        this.roundId = s.roundId;
        this.bucket = s.bucket;
        this.startOffset = s.startOffset;
        this.endOffset = s.endOffset;
        this.snapshotId = s.snapshotId;
        if ((partitionId == TableBucket.NO_PARTITION) != (partitionName == null)) {
            throw new IllegalArgumentException(
                    "a partition needs an id and a name: " + partitionId + " / " + partitionName);
        }
        this.partitionId = partitionId;
        this.partitionName = partitionName;
    }

    /** This split, of a bucket of the given partition. */
    public TieringSplit inPartition(long id, String name) {
        return id == partitionId && java.util.Objects.equals(name, partitionName)
                ? this
                : new TieringSplit(this, id, name);
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
                + (partitionId == TableBucket.NO_PARTITION ? "" : "-p" + partitionId)
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
        return new TableBucket(tableId, partitionId, bucket);
    }

    /** The bucket within its table. */
    public PartitionBucket partitionBucket() {
        return new PartitionBucket(partitionId, bucket);
    }

    /** The partition id, {@link TableBucket#NO_PARTITION} for an unpartitioned table. */
    public long partitionId() {
        return partitionId;
    }

    /** The partition's name ({@code dt=2026-12-01}), {@code null} for an unpartitioned table. */
    public String partitionName() {
        return partitionName;
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
                && s.partitionId == partitionId
                && java.util.Objects.equals(s.partitionName, partitionName)
                && s.tablePath.equals(tablePath);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                tableId, epoch, roundId, partitionId, bucket, startOffset, endOffset, snapshotId);
    }

    @Override
    public String toString() {
        return tablePath
                + (partitionName == null ? "" : "/" + partitionName)
                + "["
                + splitId()
                + (isSnapshot() ? "" : " [" + startOffset + ", " + endOffset + ")")
                + "]";
    }
}

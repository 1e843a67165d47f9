package dev.tributary.union;

import dev.tributary.common.id.TableBucket;
import java.util.Objects;

/**
 * Where the union read of one bucket (of one partition, for a partitioned table) stands: everything
 * needed to continue it exactly, in another process too (it is what a Flink split checkpoints).
 * Immutable; {@link BucketUnionReader#state()} returns the current one.
 *
 * <p>The seam of the bucket is {@code storeFrom}: lake snapshot {@code snapshotId} holds every
 * record of the bucket below it and none from it; the store's log serves {@code [storeFrom,
 * storeTo)} and, when {@code follow}, everything after. {@code lakeMinOffset} &gt; 0 only after the
 * read moved to a newer snapshot because retention deleted store records it still needed (log
 * tables): the lake then serves {@code [lakeMinOffset, storeFrom)}.
 *
 * @param partitionId the bucket's partition, {@link TableBucket#NO_PARTITION} for an unpartitioned
 *     table
 * @param partition the partition's name ({@code dt=2026-12-01}): it selects the lake partition;
 *     null for an unpartitioned table
 * @param bucket the bucket
 * @param snapshotId the lake snapshot read, -1 when the lake has nothing of this bucket
 * @param lakeMinOffset lake rows below this offset were already read (0: none)
 * @param storeFrom the seam: the snapshot's tiered offset of the bucket (0 if never tiered)
 * @param storeTo the bucket's end offset when the read was planned: a batch read stops there
 * @param follow after {@code storeTo}, keep reading the log's tail (streaming)
 * @param phase what the read is doing
 * @param skip rows of the current LAKE or TAIL phase already emitted (a resumed read skips them)
 * @param position the next store offset to read in phase STORE
 */
public record BucketReadState(
        long partitionId,
        String partition,
        int bucket,
        long snapshotId,
        long lakeMinOffset,
        long storeFrom,
        long storeTo,
        boolean follow,
        Phase phase,
        long skip,
        long position) {

    /** The phases of a bucket's union read, in order. */
    public enum Phase {
        /** Emitting the lake snapshot's rows (for a PK table: those the tail does not change). */
        LAKE,
        /** PK tables: emitting the current rows of keys changed in {@code [storeFrom, storeTo)}. */
        TAIL,
        /**
         * Reading the store's log from {@code position}: log tables from the seam, PK tables from
         * {@code storeTo} (following only).
         */
        STORE,
        /** A batch read reached {@code storeTo}. */
        DONE
    }

    public BucketReadState {
        Objects.requireNonNull(phase, "phase");
        if ((partitionId == TableBucket.NO_PARTITION) != (partition == null)) {
            throw new IllegalArgumentException(
                    "a partitioned bucket has a partition id and a name, an unpartitioned one"
                            + " neither: "
                            + partitionId
                            + " / "
                            + partition);
        }
        if (storeFrom < 0 || lakeMinOffset < 0 || skip < 0 || position < 0) {
            throw new IllegalArgumentException(
                    "negative offset or count in "
                            + phase
                            + " of bucket "
                            + (partition == null ? "" : partition + "/")
                            + bucket);
        }
    }

    /** The start of the read of a bucket of an unpartitioned table. */
    public static BucketReadState start(
            int bucket, long snapshotId, long storeFrom, long storeTo, boolean follow) {
        return start(
                TableBucket.NO_PARTITION, null, bucket, snapshotId, storeFrom, storeTo, follow);
    }

    /** The start of a bucket's read; a partitioned table's buckets name their partition. */
    public static BucketReadState start(
            long partitionId,
            String partition,
            int bucket,
            long snapshotId,
            long storeFrom,
            long storeTo,
            boolean follow) {
        return new BucketReadState(
                partitionId,
                partition,
                bucket,
                snapshotId,
                0,
                storeFrom,
                storeTo,
                follow,
                Phase.LAKE,
                0,
                storeFrom);
    }

    /** True for a bucket of a partitioned table. */
    public boolean isPartitioned() {
        return partitionId != TableBucket.NO_PARTITION;
    }

    /** {@code 3} or {@code dt=2026-12-01/3}: how logs and errors name the bucket. */
    public String describe() {
        return partition == null ? Integer.toString(bucket) : partition + "/" + bucket;
    }

    BucketReadState withPhase(Phase p, long skipped, long pos) {
        return new BucketReadState(
                partitionId,
                partition,
                bucket,
                snapshotId,
                lakeMinOffset,
                storeFrom,
                storeTo,
                follow,
                p,
                skipped,
                pos);
    }

    BucketReadState withSkip(long skipped) {
        return withPhase(phase, skipped, position);
    }
}

package dev.tributary.flink.source;

import dev.tributary.union.BucketReadState;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One bucket's union read (of one partition, for a partitioned table), at the point its reader
 * reached: a split checkpoints its state, partition included.
 */
public record UnionSplit(BucketReadState state) implements SourceSplit {
    @Override
    public String splitId() {
        return state.isPartitioned()
                ? "partition-" + state.partitionId() + "-bucket-" + state.bucket()
                : "bucket-" + state.bucket();
    }

    /**
     * The source reader that reads this split among {@code parallelism}: the bucket modulo the
     * parallelism, spread by partition for a partitioned table. Stable, so a split handed back
     * after a failure goes to the same reader.
     */
    int owner(int parallelism) {
        long key =
                state.isPartitioned() ? 31 * state.partitionId() + state.bucket() : state.bucket();
        return (int) Math.floorMod(key, (long) parallelism);
    }
}

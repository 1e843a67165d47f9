package dev.tributary.flink.source;

import dev.tributary.union.BucketReadState;
import org.apache.flink.api.connector.source.SourceSplit;

/** One bucket's union read, at the point its reader reached: a split checkpoints its state. */
public record UnionSplit(BucketReadState state) implements SourceSplit {
    @Override
    public String splitId() {
        return "bucket-" + state.bucket();
    }
}

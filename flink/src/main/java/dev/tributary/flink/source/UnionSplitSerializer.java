package dev.tributary.flink.source;

import dev.tributary.union.BucketReadStateSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** {@link UnionSplit} bytes: the versioned bytes of its {@code BucketReadState}. */
public final class UnionSplitSerializer implements SimpleVersionedSerializer<UnionSplit> {
    public static final UnionSplitSerializer INSTANCE = new UnionSplitSerializer();

    @Override
    public int getVersion() {
        return BucketReadStateSerializer.VERSION;
    }

    @Override
    public byte[] serialize(UnionSplit split) {
        return BucketReadStateSerializer.INSTANCE.serialize(split.state());
    }

    @Override
    public UnionSplit deserialize(int version, byte[] serialized) {
        return new UnionSplit(BucketReadStateSerializer.INSTANCE.deserialize(version, serialized));
    }
}

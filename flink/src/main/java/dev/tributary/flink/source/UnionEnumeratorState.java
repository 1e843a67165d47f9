package dev.tributary.flink.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The enumerator's checkpoint: whether the table was planned (the lake snapshot and end offsets are
 * taken once per query) and the splits not yet assigned.
 */
public record UnionEnumeratorState(boolean planned, List<UnionSplit> unassigned) {
    public UnionEnumeratorState {
        unassigned = List.copyOf(unassigned);
    }

    /** Version 1: planned flag, count, then each split's state bytes with their length. */
    public static final class Serializer
            implements SimpleVersionedSerializer<UnionEnumeratorState> {
        public static final Serializer INSTANCE = new Serializer();

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(UnionEnumeratorState s) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeBoolean(s.planned());
                out.writeInt(UnionSplitSerializer.INSTANCE.getVersion());
                out.writeInt(s.unassigned().size());
                for (UnionSplit split : s.unassigned()) {
                    byte[] b = UnionSplitSerializer.INSTANCE.serialize(split);
                    out.writeInt(b.length);
                    out.write(b);
                }
            }
            return bytes.toByteArray();
        }

        @Override
        public UnionEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
            if (version != 1) {
                throw new IOException("unknown union enumerator state version " + version);
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
                boolean planned = in.readBoolean();
                int splitVersion = in.readInt();
                int n = in.readInt();
                List<UnionSplit> splits = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    byte[] b = new byte[in.readInt()];
                    in.readFully(b);
                    splits.add(UnionSplitSerializer.INSTANCE.deserialize(splitVersion, b));
                }
                return new UnionEnumeratorState(planned, splits);
            }
        }
    }
}

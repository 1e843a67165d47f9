package dev.tributary.flink.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The enumerator's checkpoint: whether the table was planned (the lake snapshot and end offsets are
 * taken once per query), whether it is partitioned and which partitions were planned (a streaming
 * read plans only partitions it has not seen), and the splits not yet assigned.
 */
public record UnionEnumeratorState(
        boolean planned,
        boolean partitioned,
        Set<Long> knownPartitions,
        List<UnionSplit> unassigned) {
    public UnionEnumeratorState {
        knownPartitions = Set.copyOf(knownPartitions);
        unassigned = List.copyOf(unassigned);
    }

    /** The state of an unpartitioned table's read. */
    public UnionEnumeratorState(boolean planned, List<UnionSplit> unassigned) {
        this(planned, false, Set.of(), unassigned);
    }

    /**
     * Version 2: planned flag, split serializer version, split count, then each split's state bytes
     * with their length; then the partitioned flag, the known partitions' count and ids. Version 1
     * is the same without the partition part.
     */
    public static final class Serializer
            implements SimpleVersionedSerializer<UnionEnumeratorState> {
        public static final Serializer INSTANCE = new Serializer();

        @Override
        public int getVersion() {
            return 2;
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
                out.writeBoolean(s.partitioned());
                out.writeInt(s.knownPartitions().size());
                for (long id : new TreeSet<>(s.knownPartitions())) {
                    out.writeLong(id);
                }
            }
            return bytes.toByteArray();
        }

        @Override
        public UnionEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
            if (version != 1 && version != 2) {
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
                if (version == 1) {
                    return new UnionEnumeratorState(planned, splits);
                }
                boolean partitioned = in.readBoolean();
                int known = in.readInt();
                Set<Long> ids = new TreeSet<>();
                for (int i = 0; i < known; i++) {
                    ids.add(in.readLong());
                }
                return new UnionEnumeratorState(planned, partitioned, ids, splits);
            }
        }
    }
}

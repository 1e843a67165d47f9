package dev.tributary.tiering.source;

import dev.tributary.common.id.TablePath;
import dev.tributary.tiering.split.TieringSplit;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** Versioned binary form of {@link TieringSplit} for Flink's split transport. */
public final class TieringSplitSerializer implements SimpleVersionedSerializer<TieringSplit> {
    public static final TieringSplitSerializer INSTANCE = new TieringSplitSerializer();

    /** Version 2 adds the partition (T32); version 1 splits are read as unpartitioned. */
    private static final int VERSION = 2;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(TieringSplit s) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(96);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(s.tableId());
            out.writeUTF(s.tablePath().database());
            out.writeUTF(s.tablePath().table());
            out.writeLong(s.epoch());
            out.writeLong(s.roundId());
            out.writeInt(s.bucket());
            out.writeLong(s.startOffset());
            out.writeLong(s.endOffset());
            out.writeLong(s.snapshotId());
            out.writeLong(s.partitionId());
            out.writeUTF(s.partitionName() == null ? "" : s.partitionName());
        }
        return bytes.toByteArray();
    }

    @Override
    public TieringSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "tiering split version "
                            + version
                            + " is not supported (this build reads "
                            + VERSION
                            + ")");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            long tableId = in.readLong();
            TablePath path = TablePath.of(in.readUTF(), in.readUTF());
            TieringSplit split =
                    new TieringSplit(
                            tableId,
                            path,
                            in.readLong(),
                            in.readLong(),
                            in.readInt(),
                            in.readLong(),
                            in.readLong(),
                            in.readLong());
            if (version >= 2) {
                long partitionId = in.readLong();
                String name = in.readUTF();
                if (partitionId != dev.tributary.common.id.TableBucket.NO_PARTITION) {
                    split = split.inPartition(partitionId, name);
                }
            }
            return split;
        }
    }
}

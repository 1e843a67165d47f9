package dev.tributary.lake.api.maintenance;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Versioned binary form of {@link LakeCompactionResult}, for shipping results from the tiering job
 * to the coordinator. Layout: a 1-byte magic (distinct from a write result's), a varint version,
 * then the fields of that version; the format payload is opaque. Stateless and thread safe.
 */
public final class LakeCompactionResultSerializer {
    /** The version {@link #serialize} writes. */
    public static final int CURRENT_VERSION = 1;

    private static final byte MAGIC = (byte) 0x7C;

    public static final LakeCompactionResultSerializer INSTANCE =
            new LakeCompactionResultSerializer();

    public byte[] serialize(LakeCompactionResult r) {
        BinaryWriter w = new BinaryWriter(128 + r.payload().length);
        w.writeByte(MAGIC);
        w.writeVarInt(CURRENT_VERSION);
        w.writeString(r.format());
        w.writeString(r.tablePath().database());
        w.writeString(r.tablePath().table());
        w.writeSignedVarLong(r.tableId());
        w.writeSignedVarLong(r.maintenanceId());
        w.writeSignedVarLong(r.bucket());
        w.writeVarInt(r.filesBefore());
        w.writeVarLong(r.bytesBefore());
        w.writeVarInt(r.filesAfter());
        w.writeVarLong(r.bytesAfter());
        w.writeVarInt(r.newFiles().size());
        for (String f : r.newFiles()) {
            w.writeString(f);
        }
        w.writeLengthPrefixed(r.payload());
        return w.toByteArray();
    }

    public LakeCompactionResult deserialize(byte[] bytes) {
        BinaryReader in = new BinaryReader(bytes);
        if (bytes.length == 0 || in.readByte() != MAGIC) {
            throw new CorruptDataException(
                    "not a serialized lake compaction result (bad magic byte)");
        }
        int version = in.readVarInt();
        if (version != 1) {
            throw new CorruptDataException(
                    "lake compaction result version "
                            + version
                            + " is not supported (this build reads up to "
                            + CURRENT_VERSION
                            + "); run the tiering job and the server at the same version");
        }
        String format = in.readString();
        TablePath path = TablePath.of(in.readString(), in.readString());
        long tableId = in.readSignedVarLong();
        long maintenanceId = in.readSignedVarLong();
        int bucket = Math.toIntExact(in.readSignedVarLong());
        int filesBefore = in.readVarInt();
        long bytesBefore = in.readVarLong();
        int filesAfter = in.readVarInt();
        long bytesAfter = in.readVarLong();
        int n = in.readCount(1);
        List<String> files = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            files.add(in.readString());
        }
        byte[] payload = in.readLengthPrefixed();
        if (in.remaining() != 0) {
            throw new CorruptDataException(
                    in.remaining() + " trailing bytes after a lake compaction result");
        }
        return new LakeCompactionResult(
                format,
                path,
                tableId,
                maintenanceId,
                bucket,
                filesBefore,
                bytesBefore,
                filesAfter,
                bytesAfter,
                files,
                payload);
    }
}

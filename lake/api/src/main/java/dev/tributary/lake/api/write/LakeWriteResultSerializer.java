package dev.tributary.lake.api.write;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Versioned binary form of {@link LakeWriteResult}, for shipping results from the tiering job to
 * the coordinator. Layout: a 1-byte magic, a varint version, then the fields of that version. The
 * format payload is carried as opaque bytes (each format versions its own payload). Readers accept
 * every version up to {@link #CURRENT_VERSION}; a newer or unknown one fails with {@link
 * CorruptDataException} rather than being misread. Stateless and thread safe.
 */
public final class LakeWriteResultSerializer {
    /** The version {@link #serialize} writes. */
    public static final int CURRENT_VERSION = 1;

    private static final byte MAGIC = (byte) 0x7B;

    public static final LakeWriteResultSerializer INSTANCE = new LakeWriteResultSerializer();

    public byte[] serialize(LakeWriteResult r) {
        BinaryWriter w = new BinaryWriter(128 + r.payload().length);
        w.writeByte(MAGIC);
        w.writeVarInt(CURRENT_VERSION);
        w.writeString(r.format());
        w.writeString(r.tablePath().database());
        w.writeString(r.tablePath().table());
        w.writeSignedVarLong(r.tableId());
        w.writeSignedVarLong(r.epoch());
        w.writeSignedVarLong(r.roundId());
        w.writeVarInt(r.bucket());
        w.writeVarLong(r.rowCount());
        w.writeVarInt(r.files().size());
        for (String f : r.files()) {
            w.writeString(f);
        }
        w.writeVarLong(r.fileBytes());
        w.writeLong(r.minTimestampMillis().orElse(0));
        w.writeLong(r.maxTimestampMillis().orElse(0));
        w.writeLengthPrefixed(r.payload());
        return w.toByteArray();
    }

    public LakeWriteResult deserialize(byte[] bytes) {
        BinaryReader in = new BinaryReader(bytes);
        if (bytes.length == 0 || in.readByte() != MAGIC) {
            throw new CorruptDataException("not a serialized lake write result (bad magic byte)");
        }
        int version = in.readVarInt();
        if (version != 1) {
            throw new CorruptDataException(
                    "lake write result version "
                            + version
                            + " is not supported (this build reads up to "
                            + CURRENT_VERSION
                            + "); run the tiering job and the server at the same version");
        }
        String format = in.readString();
        TablePath path = TablePath.of(in.readString(), in.readString());
        long tableId = in.readSignedVarLong();
        long epoch = in.readSignedVarLong();
        long roundId = in.readSignedVarLong();
        int bucket = in.readVarInt();
        long rows = in.readVarLong();
        int fileCount = in.readCount(1);
        List<String> files = new ArrayList<>(fileCount);
        for (int i = 0; i < fileCount; i++) {
            files.add(in.readString());
        }
        long fileBytes = in.readVarLong();
        long min = in.readLong();
        long max = in.readLong();
        byte[] payload = in.readLengthPrefixed();
        if (in.remaining() != 0) {
            throw new CorruptDataException(
                    in.remaining() + " trailing bytes after a lake write result");
        }
        return new LakeWriteResult(
                format, path, tableId, epoch, roundId, bucket, rows, files, fileBytes, min, max,
                payload);
    }
}

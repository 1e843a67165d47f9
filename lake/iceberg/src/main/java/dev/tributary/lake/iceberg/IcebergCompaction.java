package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;

/**
 * The Iceberg payload of a compaction result: the snapshot the bucket was read at, the files it
 * replaces and the files it wrote, in Java serialization (as {@link IcebergWriteFiles}). Layout:
 * varint payload version (1), then the serialized bytes length-prefixed.
 *
 * @param baseSnapshotId the snapshot the bucket was read at: the rewrite is validated from it
 * @param baseSequenceNumber its sequence number: the new files get it as their data sequence
 *     number, so equality deletes committed after it still apply to them
 * @param replaced data files whose rows the new files hold (deletes applied)
 * @param removedDeletes delete files that apply to no remaining data file once {@code replaced} are
 *     gone
 * @param added the new data files
 */
record IcebergCompaction(
        long baseSnapshotId,
        long baseSequenceNumber,
        List<DataFile> replaced,
        List<DeleteFile> removedDeletes,
        List<DataFile> added)
        implements Serializable {
    private static final long serialVersionUID = 1L;
    static final int PAYLOAD_VERSION = 1;

    IcebergCompaction {
        replaced = List.copyOf(replaced);
        removedDeletes = List.copyOf(removedDeletes);
        added = List.copyOf(added);
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        BinaryWriter w = new BinaryWriter(bytes.size() + 8);
        w.writeVarInt(PAYLOAD_VERSION);
        w.writeLengthPrefixed(bytes.toByteArray());
        return w.toByteArray();
    }

    static IcebergCompaction decode(byte[] payload) {
        BinaryReader in = new BinaryReader(payload);
        int version = in.readVarInt();
        if (version != PAYLOAD_VERSION) {
            throw new CorruptDataException(
                    "Iceberg compaction payload version "
                            + version
                            + " is not supported (expected "
                            + PAYLOAD_VERSION
                            + ")");
        }
        byte[] body = in.readLengthPrefixed();
        try (ObjectInputStream oin = new ObjectInputStream(new ByteArrayInputStream(body))) {
            return (IcebergCompaction) oin.readObject();
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw new CorruptDataException(
                    "cannot read Iceberg compaction payload: " + e.getMessage(), e);
        }
    }
}

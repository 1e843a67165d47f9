package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import org.apache.iceberg.io.WriteResult;

/**
 * The Iceberg payload of a write result: Iceberg's {@link WriteResult} (data files, delete files
 * and the data files position deletes refer to), in Java serialization, which Iceberg supports for
 * these classes and which its own engine integrations use to ship them between tasks. Layout:
 * varint payload version (1), then the serialized bytes length-prefixed.
 */
final class IcebergWriteFiles {
    static final int PAYLOAD_VERSION = 1;

    private IcebergWriteFiles() {}

    static byte[] encode(WriteResult files) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(files);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        BinaryWriter w = new BinaryWriter(bytes.size() + 8);
        w.writeVarInt(PAYLOAD_VERSION);
        w.writeLengthPrefixed(bytes.toByteArray());
        return w.toByteArray();
    }

    static WriteResult decode(byte[] payload) {
        BinaryReader in = new BinaryReader(payload);
        int version = in.readVarInt();
        if (version != PAYLOAD_VERSION) {
            throw new CorruptDataException(
                    "Iceberg write-result payload version "
                            + version
                            + " is not supported (expected "
                            + PAYLOAD_VERSION
                            + ")");
        }
        byte[] body = in.readLengthPrefixed();
        try (ObjectInputStream oin = new ObjectInputStream(new ByteArrayInputStream(body))) {
            return (WriteResult) oin.readObject();
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw new CorruptDataException(
                    "cannot read Iceberg write result: " + e.getMessage(), e);
        }
    }
}

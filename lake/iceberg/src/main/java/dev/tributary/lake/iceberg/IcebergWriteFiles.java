package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.io.WriteResult;

/**
 * The Iceberg payload of a write result: Iceberg's {@link WriteResult} (data files, delete files,
 * the data files position deletes refer to and the delete files deletion vectors replace) and the
 * snapshot the writer found the lake rows of retracted keys in (T48). Layout: varint payload
 * version (3), then the data files, the delete files, the referenced data file paths and the
 * rewritten delete files, each list as {@link IcebergContentFiles} writes it, then a byte (1 when a
 * base snapshot follows) and the base snapshot id (8 bytes). Version 1 was Java serialization,
 * version 2 had no base snapshot; both are refused unread.
 */
final class IcebergWriteFiles {
    static final int PAYLOAD_VERSION = 3;
    private static final String WHAT = "Iceberg write-result";

    private IcebergWriteFiles() {}

    /**
     * @param specs the table's partition specs by id ({@code Table#specs()})
     */
    static byte[] encode(WriteResult files, Map<Integer, PartitionSpec> specs) {
        return encode(files, null, specs);
    }

    /**
     * @param lakeBaseSnapshotId the snapshot the writer read the lake rows of retracted keys at;
     *     null when it read none
     * @param specs the table's partition specs by id ({@code Table#specs()})
     */
    static byte[] encode(
            WriteResult files, Long lakeBaseSnapshotId, Map<Integer, PartitionSpec> specs) {
        BinaryWriter w = new BinaryWriter(1024);
        w.writeVarInt(PAYLOAD_VERSION);
        IcebergContentFiles.write(w, List.of(files.dataFiles()), specs);
        IcebergContentFiles.write(w, List.of(files.deleteFiles()), specs);
        IcebergContentFiles.writeStrings(w, List.of(files.referencedDataFiles()));
        IcebergContentFiles.write(w, List.of(files.rewrittenDeleteFiles()), specs);
        w.writeByte(lakeBaseSnapshotId == null ? 0 : 1);
        if (lakeBaseSnapshotId != null) {
            w.writeLong(lakeBaseSnapshotId);
        }
        return w.toByteArray();
    }

    /**
     * @param specs the table's partition specs by id: a file must name one of them
     * @throws CorruptDataException if the payload is not one this server writes, names an unknown
     *     spec, or is malformed
     */
    static WriteResult decode(byte[] payload, Map<Integer, PartitionSpec> specs) {
        return decodePayload(payload, specs).files();
    }

    /**
     * A decoded payload.
     *
     * @param lakeBaseSnapshotId the snapshot the writer read the lake rows of retracted keys at,
     *     null when it read none: the deletes of those rows are validated from it
     */
    record Payload(WriteResult files, Long lakeBaseSnapshotId) {}

    /**
     * @param specs the table's partition specs by id: a file must name one of them
     * @throws CorruptDataException as {@link #decode}
     */
    static Payload decodePayload(byte[] payload, Map<Integer, PartitionSpec> specs) {
        BinaryReader in = new BinaryReader(payload);
        IcebergContentFiles.checkVersion(in.readVarInt(), PAYLOAD_VERSION, WHAT);
        WriteResult.Builder files = WriteResult.builder();
        files.addDataFiles(IcebergContentFiles.readDataFiles(in, specs, WHAT));
        files.addDeleteFiles(IcebergContentFiles.readDeleteFiles(in, specs, WHAT));
        files.addReferencedDataFiles(
                IcebergContentFiles.readStrings(in).toArray(new CharSequence[0]));
        files.addRewrittenDeleteFiles(IcebergContentFiles.readDeleteFiles(in, specs, WHAT));
        int hasBase = in.readByte();
        if (hasBase != 0 && hasBase != 1) {
            throw new CorruptDataException(WHAT + " payload has base snapshot flag " + hasBase);
        }
        Long base = hasBase == 1 ? in.readLong() : null;
        IcebergContentFiles.checkFullyRead(in, WHAT);
        return new Payload(files.build(), base);
    }
}

package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;

/**
 * The Iceberg payload of a compaction result: the snapshot the bucket was read at, the files it
 * replaces and the files it wrote. Layout: varint payload version (2), the base snapshot id and
 * sequence number (8 bytes each), then the replaced data files, the removed delete files and the
 * added data files, each list as {@link IcebergContentFiles} writes it. Version 1 was Java
 * serialization and is refused unread.
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
        List<DataFile> added) {
    static final int PAYLOAD_VERSION = 2;
    private static final String WHAT = "Iceberg compaction";

    IcebergCompaction {
        replaced = List.copyOf(replaced);
        removedDeletes = List.copyOf(removedDeletes);
        added = List.copyOf(added);
    }

    /**
     * @param specs the table's partition specs by id ({@code Table#specs()})
     */
    byte[] encode(Map<Integer, PartitionSpec> specs) {
        BinaryWriter w = new BinaryWriter(1024);
        w.writeVarInt(PAYLOAD_VERSION);
        w.writeLong(baseSnapshotId);
        w.writeLong(baseSequenceNumber);
        IcebergContentFiles.write(w, replaced, specs);
        IcebergContentFiles.write(w, removedDeletes, specs);
        IcebergContentFiles.write(w, added, specs);
        return w.toByteArray();
    }

    /**
     * @param specs the table's partition specs by id: a file must name one of them
     * @throws CorruptDataException if the payload is not one this server writes, names an unknown
     *     spec, or is malformed
     */
    static IcebergCompaction decode(byte[] payload, Map<Integer, PartitionSpec> specs) {
        BinaryReader in = new BinaryReader(payload);
        IcebergContentFiles.checkVersion(in.readVarInt(), PAYLOAD_VERSION, WHAT);
        long baseSnapshotId = in.readLong();
        long baseSequenceNumber = in.readLong();
        List<DataFile> replaced = IcebergContentFiles.readDataFiles(in, specs, WHAT);
        List<DeleteFile> removedDeletes = IcebergContentFiles.readDeleteFiles(in, specs, WHAT);
        List<DataFile> added = IcebergContentFiles.readDataFiles(in, specs, WHAT);
        IcebergContentFiles.checkFullyRead(in, WHAT);
        return new IcebergCompaction(
                baseSnapshotId, baseSequenceNumber, replaced, removedDeletes, added);
    }
}

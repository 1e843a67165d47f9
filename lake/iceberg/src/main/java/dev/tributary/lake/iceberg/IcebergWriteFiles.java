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
 * the data files position deletes refer to and the delete files deletion vectors replace). Layout:
 * varint payload version (2), then the data files, the delete files, the referenced data file paths
 * and the rewritten delete files, each list as {@link IcebergContentFiles} writes it. Version 1 was
 * Java serialization and is refused unread.
 */
final class IcebergWriteFiles {
    static final int PAYLOAD_VERSION = 2;
    private static final String WHAT = "Iceberg write-result";

    private IcebergWriteFiles() {}

    /**
     * @param specs the table's partition specs by id ({@code Table#specs()})
     */
    static byte[] encode(WriteResult files, Map<Integer, PartitionSpec> specs) {
        BinaryWriter w = new BinaryWriter(1024);
        w.writeVarInt(PAYLOAD_VERSION);
        IcebergContentFiles.write(w, List.of(files.dataFiles()), specs);
        IcebergContentFiles.write(w, List.of(files.deleteFiles()), specs);
        IcebergContentFiles.writeStrings(w, List.of(files.referencedDataFiles()));
        IcebergContentFiles.write(w, List.of(files.rewrittenDeleteFiles()), specs);
        return w.toByteArray();
    }

    /**
     * @param specs the table's partition specs by id: a file must name one of them
     * @throws CorruptDataException if the payload is not one this server writes, names an unknown
     *     spec, or is malformed
     */
    static WriteResult decode(byte[] payload, Map<Integer, PartitionSpec> specs) {
        BinaryReader in = new BinaryReader(payload);
        IcebergContentFiles.checkVersion(in.readVarInt(), PAYLOAD_VERSION, WHAT);
        WriteResult.Builder files = WriteResult.builder();
        files.addDataFiles(IcebergContentFiles.readDataFiles(in, specs, WHAT));
        files.addDeleteFiles(IcebergContentFiles.readDeleteFiles(in, specs, WHAT));
        files.addReferencedDataFiles(
                IcebergContentFiles.readStrings(in).toArray(new CharSequence[0]));
        files.addRewrittenDeleteFiles(IcebergContentFiles.readDeleteFiles(in, specs, WHAT));
        IcebergContentFiles.checkFullyRead(in, WHAT);
        return files.build();
    }
}

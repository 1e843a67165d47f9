package dev.tributary.lake.iceberg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.util.JsonUtil;

/**
 * Content files inside a payload a tiering job sends to the server: each file in Iceberg's own JSON
 * form ({@link ContentFileParser}: path, format, spec id, partition, counts, sizes, column metrics,
 * bounds, split offsets, sort order, key metadata, content, equality ids, referenced data file,
 * deletion-vector offsets), length-prefixed UTF-8, a list preceded by its count. Reading needs the
 * table's partition specs by id (the committing side has the loaded table) and builds only Iceberg
 * file metadata: nothing the bytes name is instantiated, and every count and length is bounded by
 * the bytes present.
 *
 * <p>Sequence numbers are not carried: Iceberg assigns them at commit, and the compaction carries
 * the one its rewrite needs explicitly ({@link IcebergCompaction#baseSequenceNumber()}).
 */
final class IcebergContentFiles {
    /** The Java-serialized layout of releases before this one; refused, never read. */
    static final int JAVA_SERIALIZED_VERSION = 1;

    private IcebergContentFiles() {}

    /**
     * Checks a payload's version before anything else of it is read.
     *
     * @throws CorruptDataException naming what to do for an old (Java-serialized) or unknown one
     */
    static void checkVersion(int version, int expected, String what) {
        if (version == JAVA_SERIALIZED_VERSION) {
            throw new CorruptDataException(
                    what
                            + " payload version 1 (Java serialization) comes from a tiering job"
                            + " older than this server, which does not read it: upgrade the tiering"
                            + " job to the server's release and run it again");
        }
        if (version != expected) {
            throw new CorruptDataException(
                    what
                            + " payload version "
                            + Integer.toUnsignedString(version)
                            + " is not supported (this server reads version "
                            + expected
                            + "); run a tiering job of the server's release");
        }
    }

    static void write(
            BinaryWriter w,
            Collection<? extends ContentFile<?>> files,
            Map<Integer, PartitionSpec> specs) {
        w.writeVarInt(files.size());
        for (ContentFile<?> f : files) {
            PartitionSpec spec = specs.get(f.specId());
            if (spec == null) {
                throw new IllegalStateException(
                        "file "
                                + f.location()
                                + " has partition spec "
                                + f.specId()
                                + ", which its table does not have");
            }
            w.writeString(ContentFileParser.toJson(f, spec));
        }
    }

    static List<DataFile> readDataFiles(
            BinaryReader in, Map<Integer, PartitionSpec> specs, String what) {
        List<ContentFile<?>> files = read(in, specs, what);
        List<DataFile> out = new ArrayList<>(files.size());
        for (ContentFile<?> f : files) {
            if (f.content() != FileContent.DATA || !(f instanceof DataFile d)) {
                throw new CorruptDataException(
                        what + " lists " + f.location() + " (" + f.content() + ") as a data file");
            }
            out.add(d);
        }
        return out;
    }

    static List<DeleteFile> readDeleteFiles(
            BinaryReader in, Map<Integer, PartitionSpec> specs, String what) {
        List<ContentFile<?>> files = read(in, specs, what);
        List<DeleteFile> out = new ArrayList<>(files.size());
        for (ContentFile<?> f : files) {
            if (f.content() == FileContent.DATA || !(f instanceof DeleteFile d)) {
                throw new CorruptDataException(
                        what
                                + " lists "
                                + f.location()
                                + " ("
                                + f.content()
                                + ") as a delete file");
            }
            out.add(d);
        }
        return out;
    }

    static void writeStrings(BinaryWriter w, Collection<? extends CharSequence> values) {
        w.writeVarInt(values.size());
        values.forEach(v -> w.writeString(v.toString()));
    }

    static List<String> readStrings(BinaryReader in) {
        int n = in.readCount(1);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(in.readString());
        }
        return out;
    }

    /** Fails unless every byte was read: a payload with trailing bytes is not one we wrote. */
    static void checkFullyRead(BinaryReader in, String what) {
        if (in.remaining() != 0) {
            throw new CorruptDataException(
                    what + " payload has " + in.remaining() + " unexpected trailing bytes");
        }
    }

    private static List<ContentFile<?>> read(
            BinaryReader in, Map<Integer, PartitionSpec> specs, String what) {
        // the shortest JSON object is 2 bytes, plus its 1-byte length
        int n = in.readCount(3);
        List<ContentFile<?>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String json = in.readString();
            try {
                JsonNode node = JsonUtil.mapper().readTree(json);
                out.add(ContentFileParser.fromJson(node, specs));
            } catch (JsonProcessingException | RuntimeException e) {
                throw new CorruptDataException(
                        "cannot read file " + i + " of the " + what + " payload: " + e.getMessage(),
                        e);
            }
        }
        return out;
    }
}

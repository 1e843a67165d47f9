package dev.tributary.lake.paimon;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryArray;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.index.DeletionVectorMeta;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.FileSource;
import org.apache.paimon.memory.MemorySegmentUtils;
import org.apache.paimon.stats.SimpleStats;
import org.apache.paimon.types.BigIntType;
import org.apache.paimon.types.RowType;

/**
 * Paimon's {@link DataFileMeta} and {@link IndexFileMeta} field by field on {@link BinaryWriter},
 * read back with every allocation bounded by the bytes present and every binary row checked against
 * the table's types ({@link PaimonRowLayout}) before Paimon sees it. A binary row is its arity and
 * its length-prefixed bytes; stats are min row, max row and the null-count array's bytes; optional
 * values carry a presence byte.
 */
final class PaimonFileMetas {
    private static final int ABSENT = 0;
    private static final int PRESENT = 1;
    private static final BigIntType NULL_COUNT = new BigIntType(true);

    private PaimonFileMetas() {}

    // ---- data files

    static void writeDataFiles(BinaryWriter w, List<DataFileMeta> files) {
        w.writeVarInt(files.size());
        for (DataFileMeta f : files) {
            writeDataFile(w, f);
        }
    }

    static List<DataFileMeta> readDataFiles(BinaryReader in, PaimonPayloadTypes types) {
        int n = in.readCount(1);
        List<DataFileMeta> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(readDataFile(in, types));
        }
        return out;
    }

    private static void writeDataFile(BinaryWriter w, DataFileMeta f) {
        w.writeString(f.fileName());
        w.writeSignedVarLong(f.fileSize());
        w.writeSignedVarLong(f.rowCount());
        writeRow(w, f.minKey());
        writeRow(w, f.maxKey());
        writeStats(w, f.keyStats());
        writeStats(w, f.valueStats());
        w.writeSignedVarLong(f.minSequenceNumber());
        w.writeSignedVarLong(f.maxSequenceNumber());
        w.writeSignedVarLong(f.schemaId());
        w.writeSignedVarLong(f.level());
        writeStrings(w, f.extraFiles());
        w.writeLong(f.creationTime().getMillisecond());
        w.writeVarInt(f.creationTime().getNanoOfMillisecond());
        writeOptionalLong(w, f.deleteRowCount().orElse(null));
        writeOptionalBytes(w, f.embeddedIndex());
        FileSource source = f.fileSource().orElse(null);
        w.writeByte(source == null ? -1 : source.toByteValue());
        writeStrings(w, f.valueStatsCols());
        writeOptionalString(w, f.externalPath().orElse(null));
        writeOptionalLong(w, f.firstRowId());
        writeStrings(w, f.writeCols());
    }

    private static DataFileMeta readDataFile(BinaryReader in, PaimonPayloadTypes types) {
        String fileName = fileName(in.readString(), "data file");
        long fileSize = nonNegative(in.readSignedVarLong(), "size of " + fileName);
        long rowCount = nonNegative(in.readSignedVarLong(), "row count of " + fileName);
        BinaryRow minKey = readRow(in, types.keys(), "min key of " + fileName);
        BinaryRow maxKey = readRow(in, types.keys(), "max key of " + fileName);
        SimpleStats keyStats = readStats(in, types.keys(), "key stats of " + fileName);
        StatsBytes valueStatsBytes = readStatsBytes(in);
        long minSequence = in.readSignedVarLong();
        long maxSequence = in.readSignedVarLong();
        long schemaId = in.readSignedVarLong();
        long level = in.readSignedVarLong();
        if (level < 0 || level > Integer.MAX_VALUE) {
            throw new CorruptDataException(fileName + " has level " + level);
        }
        List<String> extraFiles = readStrings(in, "extra file of " + fileName);
        long millis = in.readLong();
        int nanos = in.readVarInt();
        if (nanos < 0 || nanos > 999_999) {
            throw new CorruptDataException(
                    fileName + " has creation time nanoseconds " + Integer.toUnsignedString(nanos));
        }
        Long deleteRowCount = readOptionalLong(in);
        byte[] embeddedIndex = readOptionalBytes(in);
        FileSource source = fileSource(in.readByte(), fileName);
        List<String> valueStatsCols = readStrings(in, null);
        String externalPath = types.externalPath(readOptionalString(in), fileName);
        Long firstRowId = readOptionalLong(in);
        List<String> writeCols = readStrings(in, null);
        // the value stats' type depends on the file's schema and stats columns, read after them
        SimpleStats valueStats =
                stats(
                        valueStatsBytes,
                        types.valueStats(schemaId, valueStatsCols),
                        "value stats of " + fileName);
        return DataFileMeta.create(
                fileName,
                fileSize,
                rowCount,
                minKey,
                maxKey,
                keyStats,
                valueStats,
                minSequence,
                maxSequence,
                schemaId,
                (int) level,
                extraFiles,
                Timestamp.fromEpochMillis(millis, nanos),
                deleteRowCount,
                embeddedIndex,
                source,
                valueStatsCols,
                externalPath,
                firstRowId,
                writeCols);
    }

    private static FileSource fileSource(byte b, String fileName) {
        if (b == -1) {
            return null;
        }
        for (FileSource s : FileSource.values()) {
            if (s.toByteValue() == b) {
                return s;
            }
        }
        throw new CorruptDataException(fileName + " has file source " + b);
    }

    // ---- index files (deletion vectors, hash indexes)

    static void writeIndexFiles(BinaryWriter w, List<IndexFileMeta> files) {
        w.writeVarInt(files.size());
        for (IndexFileMeta f : files) {
            w.writeString(f.indexType());
            w.writeString(f.fileName());
            w.writeSignedVarLong(f.fileSize());
            w.writeSignedVarLong(f.rowCount());
            LinkedHashMap<String, DeletionVectorMeta> ranges = f.dvRanges();
            if (ranges == null) {
                w.writeByte(ABSENT);
            } else {
                w.writeByte(PRESENT);
                w.writeVarInt(ranges.size());
                for (Map.Entry<String, DeletionVectorMeta> e : ranges.entrySet()) {
                    DeletionVectorMeta dv = e.getValue();
                    w.writeString(e.getKey());
                    w.writeString(dv.dataFileName());
                    w.writeInt(dv.offset());
                    w.writeInt(dv.length());
                    writeOptionalLong(w, dv.cardinality());
                }
            }
            writeOptionalString(w, f.externalPath());
        }
    }

    static List<IndexFileMeta> readIndexFiles(BinaryReader in, PaimonPayloadTypes types) {
        int n = in.readCount(1);
        List<IndexFileMeta> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String type = in.readString();
            String fileName = fileName(in.readString(), "index file");
            long size = nonNegative(in.readSignedVarLong(), "size of " + fileName);
            long rows = nonNegative(in.readSignedVarLong(), "row count of " + fileName);
            LinkedHashMap<String, DeletionVectorMeta> ranges = null;
            if (presence(in)) {
                int m = in.readCount(1);
                ranges = new LinkedHashMap<>();
                for (int j = 0; j < m; j++) {
                    String key = in.readString();
                    String dataFile = fileName(in.readString(), "deletion vector's data file");
                    int offset = in.readInt();
                    int length = in.readInt();
                    if (offset < 0 || length < 0) {
                        throw new CorruptDataException(
                                "deletion vector of "
                                        + dataFile
                                        + " in "
                                        + fileName
                                        + " has offset "
                                        + offset
                                        + " and length "
                                        + length);
                    }
                    ranges.put(
                            key,
                            new DeletionVectorMeta(dataFile, offset, length, readOptionalLong(in)));
                }
            }
            out.add(
                    new IndexFileMeta(
                            type,
                            fileName,
                            size,
                            rows,
                            ranges,
                            types.externalPath(readOptionalString(in), fileName)));
        }
        return out;
    }

    // ---- binary rows and stats

    static void writeRow(BinaryWriter w, BinaryRow row) {
        w.writeVarInt(row.getFieldCount());
        w.writeLengthPrefixed(
                MemorySegmentUtils.copyToBytes(
                        row.getSegments(), row.getOffset(), row.getSizeInBytes()));
    }

    static BinaryRow readRow(BinaryReader in, RowType type, String what) {
        int arity = in.readVarInt();
        return PaimonRowLayout.row(arity, in.readLengthPrefixed(), type, what);
    }

    private static void writeStats(BinaryWriter w, SimpleStats stats) {
        writeRow(w, stats.minValues());
        writeRow(w, stats.maxValues());
        BinaryArray nulls = stats.nullCounts();
        w.writeLengthPrefixed(
                MemorySegmentUtils.copyToBytes(
                        nulls.getSegments(), nulls.getOffset(), nulls.getSizeInBytes()));
    }

    private static SimpleStats readStats(BinaryReader in, RowType type, String what) {
        return stats(readStatsBytes(in), type, what);
    }

    /** Stats as read, checked once their type is known. */
    private record StatsBytes(int minArity, byte[] min, int maxArity, byte[] max, byte[] nulls) {}

    private static StatsBytes readStatsBytes(BinaryReader in) {
        int minArity = in.readVarInt();
        byte[] min = in.readLengthPrefixed();
        int maxArity = in.readVarInt();
        byte[] max = in.readLengthPrefixed();
        return new StatsBytes(minArity, min, maxArity, max, in.readLengthPrefixed());
    }

    /**
     * Stats rows hold every column of {@code type}, or none at all (Paimon's empty stats, which it
     * writes when it keeps no stats).
     */
    private static SimpleStats stats(StatsBytes s, RowType type, String what) {
        RowType actual = s.minArity() == 0 && s.maxArity() == 0 ? RowType.of() : type;
        BinaryRow min = PaimonRowLayout.row(s.minArity(), s.min(), actual, "min " + what);
        BinaryRow max = PaimonRowLayout.row(s.maxArity(), s.max(), actual, "max " + what);
        BinaryArray nulls =
                PaimonRowLayout.array(
                        s.nulls(), NULL_COUNT, actual.getFieldCount(), "null counts of " + what);
        return new SimpleStats(min, max, nulls);
    }

    // ---- small values

    private static boolean presence(BinaryReader in) {
        byte b = in.readByte();
        if (b != ABSENT && b != PRESENT) {
            throw new CorruptDataException("presence byte " + b + " at " + (in.position() - 1));
        }
        return b == PRESENT;
    }

    private static void writeStrings(BinaryWriter w, List<String> values) {
        if (values == null) {
            w.writeByte(ABSENT);
            return;
        }
        w.writeByte(PRESENT);
        w.writeVarInt(values.size());
        values.forEach(w::writeString);
    }

    /**
     * @param fileOf when not null, each value must be a plain file name; it names them in errors
     */
    private static List<String> readStrings(BinaryReader in, String fileOf) {
        if (!presence(in)) {
            return null;
        }
        int n = in.readCount(1);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String s = in.readString();
            out.add(fileOf == null ? s : fileName(s, fileOf));
        }
        return out;
    }

    private static void writeOptionalString(BinaryWriter w, String s) {
        w.writeByte(s == null ? ABSENT : PRESENT);
        if (s != null) {
            w.writeString(s);
        }
    }

    private static String readOptionalString(BinaryReader in) {
        return presence(in) ? in.readString() : null;
    }

    private static void writeOptionalLong(BinaryWriter w, Long v) {
        w.writeByte(v == null ? ABSENT : PRESENT);
        if (v != null) {
            w.writeSignedVarLong(v);
        }
    }

    private static Long readOptionalLong(BinaryReader in) {
        return presence(in) ? in.readSignedVarLong() : null;
    }

    private static void writeOptionalBytes(BinaryWriter w, byte[] b) {
        w.writeByte(b == null ? ABSENT : PRESENT);
        if (b != null) {
            w.writeLengthPrefixed(b);
        }
    }

    private static byte[] readOptionalBytes(BinaryReader in) {
        return presence(in) ? in.readLengthPrefixed() : null;
    }

    private static long nonNegative(long v, String what) {
        if (v < 0) {
            throw new CorruptDataException(what + " is " + v);
        }
        return v;
    }

    /**
     * A name Paimon resolves inside the table's directories: a path separator or a dot name would
     * let a payload point Paimon (and an abort's deletes) at files outside them.
     */
    private static String fileName(String name, String what) {
        if (name.isEmpty()
                || name.equals(".")
                || name.equals("..")
                || name.indexOf('/') >= 0
                || name.indexOf('\\') >= 0
                || name.indexOf('\0') >= 0) {
            throw new CorruptDataException(what + " name '" + name + "' is not a plain file name");
        }
        return name;
    }
}

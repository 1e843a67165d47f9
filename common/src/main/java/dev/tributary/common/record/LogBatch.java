package dev.tributary.common.record;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.Schema;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.zip.CRC32C;

/**
 * A view of one stored record batch, the unit of the log. The bytes are identical in segment files
 * and on the wire, so reads stream them unchanged.
 *
 * <p>Layout (little-endian), version {@value #MAGIC}:
 *
 * <pre>
 *  0  base offset       int64   offset of the first record
 *  8  length            int32   bytes after this field
 * 12  magic             int8    format version
 * 13  crc               uint32  CRC32C of bytes [17, end)
 * 17  schema id         int32
 * 21  record count      int32   >= 1
 * 25  first timestamp   int64   epoch millis of the first record
 * 33  last timestamp    int64   epoch millis of the last record
 * 41  writer id         int64   the writer whose write batch this is, 0 for none
 * 49  writer sequence   int64   that write batch's sequence in its bucket, -1 for none
 * 57  change types      int8[record count]
 *  .. records           per record: timestamp delta from the first (zig-zag varint),
 *                       row length (varint), row ({@link RowCodec})
 * </pre>
 *
 * <p>Version {@value #MAGIC_V1} (logs written before idempotent writers, T42) has no writer fields:
 * its change types start at byte 41, and it reads as writer 0, sequence -1. The first 41 bytes are
 * the same in both versions, so framing ({@link #sizeAt}, {@link #recordCount()}, the offsets and
 * timestamps) needs only {@link #MIN_HEADER_SIZE} bytes whatever the version.
 *
 * <p>The base offset is outside the checksum so the store can assign it after encoding; recovery
 * checks offsets for continuity instead. The writer fields are inside it: the store rebuilds each
 * writer's last sequence from them when it recovers a log.
 */
public final class LogBatch {
    /** The format version builders write: with writer id and sequence. */
    public static final byte MAGIC = 2;

    /** The first format version, without the writer fields; still read. */
    public static final byte MAGIC_V1 = 1;

    /** Bytes before the length field's coverage starts: base offset and length. */
    public static final int LOG_OVERHEAD = 12;

    /**
     * The header bytes every version shares (framing, count, timestamps): enough to walk a log
     * without knowing the version.
     */
    public static final int MIN_HEADER_SIZE = 41;

    /** Size of the fixed header of version {@value #MAGIC}, before the change types. */
    public static final int HEADER_SIZE = 57;

    static final int BASE_OFFSET_POS = 0;
    static final int LENGTH_POS = 8;
    static final int MAGIC_POS = 12;
    static final int CRC_POS = 13;
    static final int CRC_START = 17;
    static final int SCHEMA_ID_POS = 17;
    static final int COUNT_POS = 21;
    static final int FIRST_TS_POS = 25;
    static final int LAST_TS_POS = 33;
    static final int WRITER_ID_POS = 41;
    static final int WRITER_SEQUENCE_POS = 49;

    private final byte[] buf;
    private final int start;
    private final int size;

    private LogBatch(byte[] buf, int start, int size) {
        this.buf = buf;
        this.start = start;
        this.size = size;
    }

    /**
     * Views the batch starting at {@code offset}, checking only that its header and declared length
     * fit in {@code available} bytes and look sane (use {@link #ensureValid()} for the checksum).
     *
     * @throws CorruptDataException if the header is truncated or impossible
     */
    public static LogBatch wrap(byte[] buf, int offset, int available) {
        if (available < MIN_HEADER_SIZE) {
            throw new CorruptDataException(
                    "truncated log batch: "
                            + available
                            + " bytes, header needs "
                            + MIN_HEADER_SIZE);
        }
        int length = readInt(buf, offset + LENGTH_POS);
        int count = readInt(buf, offset + COUNT_POS);
        int header = headerSize(buf[offset + MAGIC_POS]);
        if (length < header - LOG_OVERHEAD || count < 1 || count > length) {
            throw new CorruptDataException(
                    "malformed log batch header at byte "
                            + offset
                            + ": length "
                            + length
                            + ", record count "
                            + count);
        }
        if (length > available - LOG_OVERHEAD) {
            throw new CorruptDataException(
                    "truncated log batch at byte "
                            + offset
                            + ": declares "
                            + (length + LOG_OVERHEAD)
                            + " bytes, "
                            + available
                            + " available");
        }
        return new LogBatch(buf, offset, length + LOG_OVERHEAD);
    }

    /** The whole batch size, header included, read from a header at {@code offset}. */
    public static int sizeAt(byte[] buf, int offset) {
        return readInt(buf, offset + LENGTH_POS) + LOG_OVERHEAD;
    }

    /** Sets the base offset of an encoded batch (outside the checksum). */
    public static void setBaseOffset(byte[] buf, int offset, long baseOffset) {
        writeLong(buf, offset + BASE_OFFSET_POS, baseOffset);
    }

    public long baseOffset() {
        return readLong(buf, start + BASE_OFFSET_POS);
    }

    /** Offset of the last record. */
    public long lastOffset() {
        return baseOffset() + recordCount() - 1;
    }

    /** Offset after the last record. */
    public long nextOffset() {
        return baseOffset() + recordCount();
    }

    public int recordCount() {
        return readInt(buf, start + COUNT_POS);
    }

    public int schemaId() {
        return readInt(buf, start + SCHEMA_ID_POS);
    }

    public byte magic() {
        return buf[start + MAGIC_POS];
    }

    /**
     * The fixed header size of a batch of format {@code magic}: where its change types start. An
     * unknown version counts as the newest (such a batch fails {@link #ensureValid()}).
     */
    public static int headerSize(byte magic) {
        return magic == MAGIC_V1 ? MIN_HEADER_SIZE : HEADER_SIZE;
    }

    /** The id of the writer whose write batch produced this batch; 0 for none (and version 1). */
    public long writerId() {
        return magic() == MAGIC_V1 ? 0L : readLong(buf, start + WRITER_ID_POS);
    }

    /** That write batch's sequence number in its bucket; -1 for none (and version 1). */
    public long writerSequence() {
        return magic() == MAGIC_V1 ? -1L : readLong(buf, start + WRITER_SEQUENCE_POS);
    }

    public long firstTimestamp() {
        return readLong(buf, start + FIRST_TS_POS);
    }

    public long lastTimestamp() {
        return readLong(buf, start + LAST_TS_POS);
    }

    /** Whole batch size in bytes, header included. */
    public int sizeInBytes() {
        return size;
    }

    /** The stored checksum. */
    public long checksum() {
        return readInt(buf, start + CRC_POS) & 0xFFFFFFFFL;
    }

    /** The checksum of the bytes as they are now. */
    public long computeChecksum() {
        CRC32C crc = new CRC32C();
        crc.update(buf, start + CRC_START, size - CRC_START);
        return crc.getValue();
    }

    /** True if the magic is known and the checksum matches. */
    public boolean isValid() {
        return isKnownMagic(magic()) && checksum() == computeChecksum();
    }

    private static boolean isKnownMagic(byte magic) {
        return magic == MAGIC || magic == MAGIC_V1;
    }

    /**
     * @throws CorruptDataException naming the offsets if the batch fails {@link #isValid()}
     */
    public void ensureValid() {
        if (!isKnownMagic(magic())) {
            throw new CorruptDataException(
                    "log batch at offset " + baseOffset() + " has unknown format " + magic());
        }
        long stored = checksum();
        long actual = computeChecksum();
        if (stored != actual) {
            throw new CorruptDataException(
                    "log batch at offsets ["
                            + baseOffset()
                            + ", "
                            + lastOffset()
                            + "] fails its checksum (stored "
                            + Long.toHexString(stored)
                            + ", computed "
                            + Long.toHexString(actual)
                            + ")");
        }
    }

    public ChangeType changeType(int index) {
        return ChangeType.fromByteValue(buf[start + headerSize(magic()) + index]);
    }

    /** The batch's bytes (a copy). */
    public byte[] toBytes() {
        byte[] out = new byte[size];
        System.arraycopy(buf, start, out, 0, size);
        return out;
    }

    /**
     * A cursor over raw records: change type, timestamp and the row's encoded bytes, without
     * decoding rows. Does not check the checksum.
     */
    public Cursor cursor() {
        return new Cursor();
    }

    /**
     * The records decoded under {@code schema}, which must be the schema of {@link #schemaId()} or
     * a later one that only added columns (those read as NULL).
     */
    public Iterable<LogRecord> records(Schema schema) {
        RowCodec codec = RowCodec.of(schema);
        return () ->
                new Iterator<>() {
                    private final Cursor cursor = cursor();
                    private boolean ready;

                    @Override
                    public boolean hasNext() {
                        if (!ready) {
                            ready = cursor.next();
                        }
                        return ready;
                    }

                    @Override
                    public LogRecord next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        ready = false;
                        return new LogRecord(
                                cursor.offset(),
                                cursor.timestamp(),
                                cursor.changeType(),
                                cursor.row(codec));
                    }
                };
    }

    /** Walks the records of this batch. */
    public final class Cursor {
        private final int count = recordCount();
        private final long base = baseOffset();
        private final long firstTs = firstTimestamp();
        private final int end = start + size;
        private int pos = start + headerSize(magic()) + count;
        private int index = -1;
        private long timestamp;
        private int rowOffset;
        private int rowLength;

        private Cursor() {}

        /**
         * @return false after the last record
         * @throws CorruptDataException if the records are malformed
         */
        public boolean next() {
            if (index + 1 >= count) {
                index = count;
                return false;
            }
            index++;
            long zigzag = readVarLong();
            timestamp = firstTs + ((zigzag >>> 1) ^ -(zigzag & 1));
            long len = readVarLong();
            if (len < 0 || len > end - pos) {
                throw new CorruptDataException(
                        "record " + index + " overruns the log batch at offset " + base);
            }
            rowOffset = pos;
            rowLength = (int) len;
            pos += rowLength;
            return true;
        }

        private long readVarLong() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw new CorruptDataException(
                            "truncated record " + index + " in the log batch at offset " + base);
                }
                byte b = buf[pos++];
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw new CorruptDataException("malformed varint in the log batch at offset " + base);
        }

        public int index() {
            return index;
        }

        public long offset() {
            return base + index;
        }

        public long timestamp() {
            return timestamp;
        }

        public ChangeType changeType() {
            return LogBatch.this.changeType(index);
        }

        /** The array holding the current row's {@link RowCodec} encoding. */
        public byte[] rowBuffer() {
            return buf;
        }

        public int rowOffset() {
            return rowOffset;
        }

        public int rowLength() {
            return rowLength;
        }

        public Row row(RowCodec codec) {
            return codec.decode(new BinaryReader(buf, rowOffset, rowLength));
        }
    }

    static int readInt(byte[] b, int p) {
        return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | b[p + 3] << 24;
    }

    static long readLong(byte[] b, int p) {
        return (readInt(b, p) & 0xFFFFFFFFL) | ((long) readInt(b, p + 4)) << 32;
    }

    static void writeInt(byte[] b, int p, int v) {
        b[p] = (byte) v;
        b[p + 1] = (byte) (v >>> 8);
        b[p + 2] = (byte) (v >>> 16);
        b[p + 3] = (byte) (v >>> 24);
    }

    static void writeLong(byte[] b, int p, long v) {
        writeInt(b, p, (int) v);
        writeInt(b, p + 4, (int) (v >>> 32));
    }
}

package dev.tributary.common.io;

import dev.tributary.common.exception.CorruptDataException;
import java.nio.charset.StandardCharsets;

/** Reads what {@link BinaryWriter} wrote; overruns throw {@link CorruptDataException}. */
public final class BinaryReader {
    private final byte[] buf;
    private final int limit;
    private int pos;

    public BinaryReader(byte[] buf) {
        this(buf, 0, buf.length);
    }

    public BinaryReader(byte[] buf, int offset, int length) {
        this.buf = buf;
        this.pos = offset;
        this.limit = offset + length;
    }

    public int position() {
        return pos;
    }

    public int remaining() {
        return limit - pos;
    }

    /** Bounds every read, and so every allocation sized by a length read off the data. */
    private void need(int n) {
        // n > limit - pos, not pos + n > limit: the sum overflows for a length near 2^31
        if (n < 0 || n > limit - pos) {
            throw new CorruptDataException(
                    "truncated data: need " + n + " bytes at " + pos + ", have " + (limit - pos));
        }
    }

    public byte readByte() {
        need(1);
        return buf[pos++];
    }

    public short readShort() {
        need(2);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
        pos += 2;
        return (short) v;
    }

    public int readInt() {
        need(4);
        int v =
                (buf[pos] & 0xFF)
                        | (buf[pos + 1] & 0xFF) << 8
                        | (buf[pos + 2] & 0xFF) << 16
                        | (buf[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    public long readLong() {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (buf[pos + i] & 0xFFL) << (8 * i);
        }
        pos += 8;
        return v;
    }

    public float readFloat() {
        return Float.intBitsToFloat(readInt());
    }

    public double readDouble() {
        return Double.longBitsToDouble(readLong());
    }

    public long readVarLong() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = readByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new CorruptDataException("malformed varint at " + pos);
    }

    public int readVarInt() {
        long v = readVarLong();
        if (v > 0xFFFFFFFFL) {
            throw new CorruptDataException("varint out of int range at " + pos);
        }
        return (int) v;
    }

    public long readSignedVarLong() {
        long v = readVarLong();
        return (v >>> 1) ^ -(v & 1);
    }

    /** Moves past {@code n} bytes. */
    public void skip(int n) {
        need(n);
        pos += n;
    }

    public byte[] readBytes(int n) {
        need(n);
        byte[] out = new byte[n];
        System.arraycopy(buf, pos, out, 0, n);
        pos += n;
        return out;
    }

    /**
     * Reads a count of elements that each take at least {@code minBytesEach} bytes, refusing one
     * that the remaining bytes cannot hold, so a caller can pre-size a collection from it.
     */
    public int readCount(int minBytesEach) {
        int at = pos;
        int n = readVarInt();
        if (n < 0 || (long) n * Math.max(1, minBytesEach) > remaining()) {
            throw new CorruptDataException(
                    "count "
                            + Integer.toUnsignedString(n)
                            + " at "
                            + at
                            + " exceeds what the remaining "
                            + remaining()
                            + " bytes can hold");
        }
        return n;
    }

    public byte[] readLengthPrefixed() {
        return readBytes(readVarInt());
    }

    public String readString() {
        int n = readVarInt();
        need(n);
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }
}

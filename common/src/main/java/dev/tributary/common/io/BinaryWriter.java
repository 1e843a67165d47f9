package dev.tributary.common.io;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer with varint helpers. Not thread safe; reusable via reset.
 */
public final class BinaryWriter {
    private byte[] buf;
    private int pos;

    public BinaryWriter() {
        this(64);
    }

    public BinaryWriter(int initialCapacity) {
        this.buf = new byte[Math.max(16, initialCapacity)];
    }

    public void reset() {
        pos = 0;
    }

    public int position() {
        return pos;
    }

    /** Moves the write position (to patch a header written earlier); must be within the buffer. */
    public void position(int newPos) {
        if (newPos < 0 || newPos > buf.length) {
            throw new IndexOutOfBoundsException(newPos);
        }
        pos = newPos;
    }

    public byte[] buffer() {
        return buf;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    private void ensure(int extra) {
        if (pos + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + extra));
        }
    }

    public void writeByte(int b) {
        ensure(1);
        buf[pos++] = (byte) b;
    }

    public void writeShort(int v) {
        ensure(2);
        buf[pos++] = (byte) v;
        buf[pos++] = (byte) (v >>> 8);
    }

    public void writeInt(int v) {
        ensure(4);
        buf[pos++] = (byte) v;
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 24);
    }

    public void writeLong(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[pos++] = (byte) (v >>> (8 * i));
        }
    }

    public void writeFloat(float v) {
        writeInt(Float.floatToIntBits(v));
    }

    public void writeDouble(double v) {
        writeLong(Double.doubleToLongBits(v));
    }

    /** Unsigned LEB128. */
    public void writeVarLong(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    public void writeVarInt(int v) {
        writeVarLong(v & 0xFFFFFFFFL);
    }

    /** Zig-zag encoded, so small negative numbers stay small. */
    public void writeSignedVarLong(long v) {
        writeVarLong((v << 1) ^ (v >> 63));
    }

    public void writeBytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, pos, len);
        pos += len;
    }

    /** Length-prefixed bytes. */
    public void writeLengthPrefixed(byte[] b) {
        writeVarInt(b.length);
        writeBytes(b, 0, b.length);
    }

    public void writeString(String s) {
        writeLengthPrefixed(s.getBytes(StandardCharsets.UTF_8));
    }
}

package dev.tributary.common.row;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypeRoot;
import java.math.BigDecimal;

/**
 * A reusable, read-only view of one {@link RowCodec}-encoded row, for consumers that copy values
 * into another format (the lake writers) and would otherwise decode every string from UTF-8 to a
 * {@code String} only to encode it back. {@link #pointTo} locates the fields in one pass without
 * decoding them; the typed getters then read the encoded bytes in place, and {@link #utf8Offset} /
 * {@link #utf8Length} expose a string's UTF-8 bytes (or a BYTES value's bytes) inside {@link
 * #buffer()}.
 *
 * <p>A view is only valid until it is pointed at another row, and the bytes it exposes belong to
 * the caller's buffer: copy what must outlive the call. Fields the row was encoded without (columns
 * added since) read as NULL. A getter must match the column's type, as {@link Row}'s do.
 */
public final class EncodedRow {
    private final DataType[] types;

    /** Start of each field's encoding, -1 for NULL or absent. */
    private final int[] starts;

    /** For STRING and BYTES: where the content begins after its length prefix, and its length. */
    private final int[] dataOffsets;

    private final int[] dataLengths;

    private byte[] buf;
    private int limit;
    private int encodedFields;

    EncodedRow(DataType[] types) {
        this.types = types;
        this.starts = new int[types.length];
        this.dataOffsets = new int[types.length];
        this.dataLengths = new int[types.length];
    }

    /**
     * Points this view at the row encoded in {@code buf[offset, offset + length)}.
     *
     * @return this view
     * @throws CorruptDataException if the bytes are not a row of this view's schema
     */
    public EncodedRow pointTo(byte[] buf, int offset, int length) {
        this.buf = buf;
        this.limit = offset + length;
        BinaryReader in = new BinaryReader(buf, offset, length);
        int n = in.readVarInt();
        if (n < 0 || n > types.length) {
            throw new CorruptDataException(
                    "row has "
                            + Integer.toUnsignedString(n)
                            + " fields, more than the "
                            + types.length
                            + " of its schema");
        }
        int bitmap = in.position();
        in.skip((n + 7) >>> 3);
        for (int i = 0; i < types.length; i++) {
            if (i >= n || (buf[bitmap + (i >>> 3)] & (1 << (i & 7))) != 0) {
                starts[i] = -1;
                continue;
            }
            starts[i] = in.position();
            skipValue(i, in);
        }
        this.encodedFields = n;
        return this;
    }

    private void skipValue(int i, BinaryReader in) {
        DataType type = types[i];
        switch (type.root()) {
            case BOOLEAN, TINYINT -> in.skip(1);
            case SMALLINT -> in.skip(2);
            case INT, FLOAT -> in.skip(4);
            case BIGINT, DOUBLE -> in.skip(8);
            case DECIMAL -> {
                if (type.precision() <= 18) {
                    in.readVarLong();
                } else {
                    in.skip(in.readVarInt());
                }
            }
            case STRING, BYTES -> {
                int len = in.readVarInt();
                dataOffsets[i] = in.position();
                dataLengths[i] = len;
                in.skip(len);
            }
            case DATE, TIME -> in.readVarLong();
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                in.readVarLong();
                if (type.precision() > 3) {
                    in.readVarInt();
                }
            }
        }
    }

    /** The number of fields of the schema this view reads (not only the encoded ones). */
    public int arity() {
        return types.length;
    }

    /** The number of fields the row was encoded with; later ones are NULL. */
    public int encodedFields() {
        return encodedFields;
    }

    public boolean isNullAt(int i) {
        return starts[i] < 0;
    }

    public boolean getBoolean(int i) {
        return buf[starts[i]] != 0;
    }

    public byte getByte(int i) {
        return buf[starts[i]];
    }

    public short getShort(int i) {
        int p = starts[i];
        return (short) ((buf[p] & 0xFF) | (buf[p + 1] & 0xFF) << 8);
    }

    public int getInt(int i) {
        return intAt(starts[i]);
    }

    public long getLong(int i) {
        int p = starts[i];
        return (intAt(p) & 0xFFFFFFFFL) | ((long) intAt(p + 4)) << 32;
    }

    public float getFloat(int i) {
        return Float.intBitsToFloat(getInt(i));
    }

    public double getDouble(int i) {
        return Double.longBitsToDouble(getLong(i));
    }

    /** A DECIMAL of precision at most 18, as its unscaled value. */
    public long getUnscaledLong(int i) {
        checkRoot(i, DataTypeRoot.DECIMAL);
        if (types[i].precision() > 18) {
            throw new IllegalStateException("DECIMAL(" + types[i].precision() + ") needs 128 bits");
        }
        return reader(i).readSignedVarLong();
    }

    /** A DATE as days since 1970-01-01. */
    public int getEpochDay(int i) {
        return Math.toIntExact(reader(i).readSignedVarLong());
    }

    /** A TIME as milliseconds of the day. */
    public int getMillisOfDay(int i) {
        return reader(i).readVarInt();
    }

    /**
     * A TIMESTAMP (local date-time read as UTC) or TIMESTAMP_LTZ as epoch milliseconds; see {@link
     * #getNanoOfMillisecond} for the rest.
     */
    public long getEpochMillis(int i) {
        return reader(i).readSignedVarLong();
    }

    /** The nanoseconds below the millisecond of a TIMESTAMP or TIMESTAMP_LTZ (0 if p &lt;= 3). */
    public int getNanoOfMillisecond(int i) {
        if (types[i].precision() <= 3) {
            return 0;
        }
        BinaryReader in = reader(i);
        in.readVarLong();
        return in.readVarInt();
    }

    /** The array holding this row's bytes. */
    public byte[] buffer() {
        return buf;
    }

    /** Where a STRING's UTF-8 bytes (or a BYTES value) begin in {@link #buffer()}. */
    public int utf8Offset(int i) {
        return dataOffsets[i];
    }

    /** The length of a STRING's UTF-8 bytes (or of a BYTES value). */
    public int utf8Length(int i) {
        return dataLengths[i];
    }

    /** The field as the Java object a {@link Row} holds ({@code null} for NULL). */
    public Object getField(int i) {
        return isNullAt(i) ? null : RowCodec.readValue(types[i], reader(i));
    }

    /** The row decoded into a new {@link Row} of the schema's full arity. */
    public Row toRow() {
        Object[] values = new Object[types.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = getField(i);
        }
        return Row.wrap(values);
    }

    /** A DECIMAL of any precision. */
    public BigDecimal getDecimal(int i) {
        checkRoot(i, DataTypeRoot.DECIMAL);
        return (BigDecimal) getField(i);
    }

    private BinaryReader reader(int i) {
        return new BinaryReader(buf, starts[i], limit - starts[i]);
    }

    private void checkRoot(int i, DataTypeRoot root) {
        if (types[i].root() != root) {
            throw new IllegalStateException("column " + i + " is " + types[i] + ", not " + root);
        }
    }

    private int intAt(int p) {
        return (buf[p] & 0xFF)
                | (buf[p + 1] & 0xFF) << 8
                | (buf[p + 2] & 0xFF) << 16
                | (buf[p + 3] & 0xFF) << 24;
    }
}

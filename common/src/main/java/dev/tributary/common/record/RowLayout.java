package dev.tributary.common.record;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Checks and slices rows in their {@link dev.tributary.common.row.RowCodec} encoding without
 * decoding them: the write path validates every incoming row and extracts primary keys, and
 * allocating a {@code Row} per record for that would cost more than the rest of an append.
 *
 * <p>It mirrors RowCodec's layout (varint field count, null bitmap, then each non-null value);
 * {@code RowLayoutTest} checks the two agree for every type.
 */
public final class RowLayout {
    private final Schema schema;
    private final DataType[] types;
    private final int[] keyPositions;
    private final boolean[] isKey;
    private final int[] fieldStart;
    private final int[] fieldEnd;

    public RowLayout(Schema schema) {
        this.schema = schema;
        this.types = schema.columns().stream().map(Column::type).toArray(DataType[]::new);
        this.keyPositions = schema.primaryKeyIndexes();
        this.isKey = new boolean[types.length];
        for (int k : keyPositions) {
            isKey[k] = true;
        }
        this.fieldStart = new int[types.length];
        this.fieldEnd = new int[types.length];
    }

    /**
     * Checks the row encoded at {@code buf[offset, limit)} and returns where it ends. Checks the
     * field count (exactly the schema's), NULL in NOT NULL columns (only in key columns when {@code
     * keyOnly}, as for a delete), framing, and the values that the encoding can carry out of range
     * (decimal precision, timestamp precision, date and time ranges). Not thread safe: the field
     * positions of the last row are kept for {@link #writeKey}.
     *
     * @throws InvalidInputException naming the column and the problem
     */
    public int check(byte[] buf, int offset, int limit, boolean keyOnly) {
        Cursor in = new Cursor(buf, offset, limit);
        long n = in.varLong();
        if (n != types.length) {
            throw new InvalidInputException(
                    "row has "
                            + n
                            + " fields but the schema has "
                            + types.length
                            + " columns "
                            + schema.columnNames());
        }
        int bitmap = in.pos;
        in.skip((types.length + 7) >>> 3);
        for (int i = 0; i < types.length; i++) {
            boolean isNull = (buf[bitmap + (i >>> 3)] & (1 << (i & 7))) != 0;
            if (isNull) {
                if (!types[i].isNullable() && (!keyOnly || isKey[i])) {
                    throw new InvalidInputException(
                            "column '" + name(i) + "' is " + types[i] + " but the value is NULL");
                }
                fieldStart[i] = -1;
                continue;
            }
            fieldStart[i] = in.pos;
            checkValue(i, in);
            fieldEnd[i] = in.pos;
        }
        return in.pos;
    }

    /**
     * Writes the primary key of the row last passed to {@link #check}, encoded exactly as {@code
     * RowCodec} encodes the projection of the row onto the key columns.
     */
    public void writeKey(byte[] buf, BinaryWriter out) {
        writeProjection(buf, keyPositions, out);
    }

    /**
     * Writes the projection of the row last passed to {@link #check} onto {@code positions},
     * encoded exactly as {@code RowCodec} encodes {@code row.project(positions)}.
     */
    public void writeProjection(byte[] buf, int[] positions, BinaryWriter out) {
        out.writeVarInt(positions.length);
        for (int b = 0; b < (positions.length + 7) >>> 3; b++) {
            int bits = 0;
            for (int i = b * 8; i < Math.min(positions.length, b * 8 + 8); i++) {
                if (fieldStart[positions[i]] < 0) {
                    bits |= 1 << (i & 7);
                }
            }
            out.writeByte(bits);
        }
        for (int k : positions) {
            if (fieldStart[k] >= 0) {
                out.writeBytes(buf, fieldStart[k], fieldEnd[k] - fieldStart[k]);
            }
        }
    }

    private String name(int i) {
        return schema.columns().get(i).name();
    }

    private void checkValue(int i, Cursor in) {
        DataType type = types[i];
        switch (type.root()) {
            case BOOLEAN:
            case TINYINT:
                in.skip(1);
                break;
            case SMALLINT:
                in.skip(2);
                break;
            case INT:
            case FLOAT:
                in.skip(4);
                break;
            case BIGINT:
            case DOUBLE:
                in.skip(8);
                break;
            case STRING:
            case BYTES:
                in.skip(in.length());
                break;
            case DECIMAL:
                checkDecimal(i, in);
                break;
            case DATE:
                {
                    long day = in.signedVarLong();
                    if (day < -365243219162L || day > 365241780471L) {
                        throw outOfRange(i, "epoch day " + day);
                    }
                    break;
                }
            case TIME:
                {
                    long millis = in.varLong();
                    if (millis >= 86_400_000L) {
                        throw outOfRange(i, millis + " ms of day");
                    }
                    break;
                }
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                checkTimestamp(i, in);
                break;
            default:
                throw new IllegalStateException("unhandled type " + type);
        }
    }

    private void checkDecimal(int i, Cursor in) {
        DataType type = types[i];
        BigInteger unscaled;
        if (type.precision() <= 18) {
            long v = in.signedVarLong();
            if (v != Long.MIN_VALUE && Math.abs(v) < pow10(type.precision())) {
                return;
            }
            unscaled = BigInteger.valueOf(v);
        } else {
            int len = in.length();
            if (len == 0) {
                throw outOfRange(i, "an empty decimal");
            }
            byte[] bytes = new byte[len];
            System.arraycopy(in.buf, in.pos, bytes, 0, len);
            in.skip(len);
            unscaled = new BigInteger(bytes);
        }
        BigDecimal value = new BigDecimal(unscaled, type.scale());
        if (value.precision() > type.precision()) {
            throw new InvalidInputException(
                    "column '"
                            + name(i)
                            + "' is "
                            + type
                            + " but "
                            + value.toPlainString()
                            + " has more than "
                            + type.precision()
                            + " digits");
        }
    }

    private static long pow10(int n) {
        long v = 1;
        for (int i = 0; i < n; i++) {
            v *= 10; // n <= 18 here, so this never overflows
        }
        return v;
    }

    private void checkTimestamp(int i, Cursor in) {
        int precision = types[i].precision();
        long millis = in.signedVarLong();
        long nanoOfMilli = precision > 3 ? in.varLong() : 0;
        if (nanoOfMilli >= 1_000_000) {
            throw outOfRange(i, nanoOfMilli + " ns within a millisecond");
        }
        boolean fits =
                precision >= 3
                        ? nanoOfMilli % pow10(9 - precision) == 0
                        : Math.floorMod(millis, pow10(3 - precision)) == 0;
        if (!fits) {
            throw new InvalidInputException(
                    "column '"
                            + name(i)
                            + "' is "
                            + types[i]
                            + " but the value has more than "
                            + precision
                            + " fractional digits");
        }
    }

    private InvalidInputException outOfRange(int i, String what) {
        return new InvalidInputException(
                "column '"
                        + name(i)
                        + "' is "
                        + types[i]
                        + " but holds "
                        + what
                        + ", out of range");
    }

    /** Bounds-checked reading over the encoded bytes. */
    private static final class Cursor {
        final byte[] buf;
        int pos;
        final int limit;

        Cursor(byte[] buf, int pos, int limit) {
            this.buf = buf;
            this.pos = pos;
            this.limit = limit;
        }

        void skip(long n) {
            if (n < 0 || n > limit - pos) {
                throw new InvalidInputException(
                        "malformed row: needs " + n + " more bytes, has " + (limit - pos));
            }
            pos += (int) n;
        }

        long varLong() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= limit) {
                    throw new InvalidInputException("malformed row: truncated varint");
                }
                byte b = buf[pos++];
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw new InvalidInputException("malformed row: varint too long");
        }

        long signedVarLong() {
            long v = varLong();
            return (v >>> 1) ^ -(v & 1);
        }

        int length() {
            long n = varLong();
            // a 10-byte varint can be negative as a long: refuse it before it sizes an array
            if (n < 0 || n > limit - pos) {
                throw new InvalidInputException(
                        "malformed row: a value of "
                                + Long.toUnsignedString(n)
                                + " bytes overruns the row");
            }
            return (int) n;
        }
    }
}

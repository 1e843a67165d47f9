package dev.tributary.common.row;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The compact binary encoding of a {@link Row}: a varint field count, a null bitmap, then each
 * non-null value (fixed width for numbers, zig-zag varints for dates and times, length-prefixed
 * strings and bytes, unscaled decimals). The field count lets a row written before a column was
 * added be read under the newer schema, with NULL in the added columns.
 *
 * <p>Values must already be valid for the types ({@link Schema#validate(Row)}); encoding does not
 * re-check them.
 */
public final class RowCodec {
    private final DataType[] types;

    public RowCodec(List<DataType> types) {
        this.types = types.toArray(new DataType[0]);
    }

    public static RowCodec of(Schema schema) {
        return new RowCodec(schema.columns().stream().map(c -> c.type()).toList());
    }

    public int fieldCount() {
        return types.length;
    }

    /** A new reusable view that reads rows of this codec's types without decoding them. */
    public EncodedRow view() {
        return new EncodedRow(types);
    }

    public byte[] encode(Row row) {
        BinaryWriter out = new BinaryWriter(16 + row.arity() * 8);
        encode(row, out);
        return out.toByteArray();
    }

    public void encode(Row row, BinaryWriter out) {
        int n = row.arity();
        out.writeVarInt(n);
        int bitmapBytes = (n + 7) >>> 3;
        for (int b = 0; b < bitmapBytes; b++) {
            int bits = 0;
            for (int i = b * 8; i < Math.min(n, b * 8 + 8); i++) {
                if (row.isNullAt(i)) {
                    bits |= 1 << (i & 7);
                }
            }
            out.writeByte(bits);
        }
        for (int i = 0; i < n; i++) {
            Object v = row.getField(i);
            if (v != null) {
                writeValue(types[i], v, out);
            }
        }
    }

    public Row decode(byte[] bytes) {
        return decode(new BinaryReader(bytes));
    }

    /** Decodes one row; fields beyond those encoded (added columns) are NULL. */
    public Row decode(BinaryReader in) {
        int n = in.readVarInt();
        if (n < 0 || n > types.length) {
            throw new CorruptDataException(
                    "row has "
                            + Integer.toUnsignedString(n)
                            + " fields, more than the "
                            + types.length
                            + " of its schema");
        }
        byte[] bitmap = in.readBytes((n + 7) >>> 3);
        Object[] values = new Object[types.length];
        for (int i = 0; i < n; i++) {
            if ((bitmap[i >>> 3] & (1 << (i & 7))) == 0) {
                values[i] = readValue(types[i], in);
            }
        }
        return Row.wrap(values);
    }

    private static void writeValue(DataType type, Object v, BinaryWriter out) {
        switch (type.root()) {
            case BOOLEAN:
                out.writeByte((Boolean) v ? 1 : 0);
                break;
            case TINYINT:
                out.writeByte((Byte) v);
                break;
            case SMALLINT:
                out.writeShort((Short) v);
                break;
            case INT:
                out.writeInt((Integer) v);
                break;
            case BIGINT:
                out.writeLong((Long) v);
                break;
            case FLOAT:
                out.writeFloat((Float) v);
                break;
            case DOUBLE:
                out.writeDouble((Double) v);
                break;
            case DECIMAL:
                BigInteger unscaled = ((BigDecimal) v).setScale(type.scale()).unscaledValue();
                if (type.precision() <= 18) {
                    out.writeSignedVarLong(unscaled.longValueExact());
                } else {
                    out.writeLengthPrefixed(unscaled.toByteArray());
                }
                break;
            case STRING:
                out.writeString((String) v);
                break;
            case BYTES:
                out.writeLengthPrefixed((byte[]) v);
                break;
            case DATE:
                out.writeSignedVarLong(((LocalDate) v).toEpochDay());
                break;
            case TIME:
                out.writeVarInt((int) (((LocalTime) v).toNanoOfDay() / 1_000_000L));
                break;
            case TIMESTAMP:
                LocalDateTime ldt = (LocalDateTime) v;
                writeInstant(
                        ldt.toEpochSecond(ZoneOffset.UTC), ldt.getNano(), type.precision(), out);
                break;
            case TIMESTAMP_LTZ:
                Instant instant = (Instant) v;
                writeInstant(instant.getEpochSecond(), instant.getNano(), type.precision(), out);
                break;
            default:
                throw new IllegalStateException("unhandled type " + type);
        }
    }

    static Object readValue(DataType type, BinaryReader in) {
        switch (type.root()) {
            case BOOLEAN:
                return in.readByte() != 0;
            case TINYINT:
                return in.readByte();
            case SMALLINT:
                return in.readShort();
            case INT:
                return in.readInt();
            case BIGINT:
                return in.readLong();
            case FLOAT:
                return in.readFloat();
            case DOUBLE:
                return in.readDouble();
            case DECIMAL:
                BigInteger unscaled =
                        type.precision() <= 18
                                ? BigInteger.valueOf(in.readSignedVarLong())
                                : new BigInteger(in.readLengthPrefixed());
                return new BigDecimal(unscaled, type.scale());
            case STRING:
                return in.readString();
            case BYTES:
                return in.readLengthPrefixed();
            case DATE:
                return LocalDate.ofEpochDay(in.readSignedVarLong());
            case TIME:
                return LocalTime.ofNanoOfDay(in.readVarInt() * 1_000_000L);
            case TIMESTAMP:
                {
                    long millis = in.readSignedVarLong();
                    int nanoOfMilli = type.precision() > 3 ? in.readVarInt() : 0;
                    Instant i = toInstant(millis, nanoOfMilli);
                    return LocalDateTime.ofEpochSecond(
                            i.getEpochSecond(), i.getNano(), ZoneOffset.UTC);
                }
            case TIMESTAMP_LTZ:
                {
                    long millis = in.readSignedVarLong();
                    int nanoOfMilli = type.precision() > 3 ? in.readVarInt() : 0;
                    return toInstant(millis, nanoOfMilli);
                }
            default:
                throw new IllegalStateException("unhandled type " + type);
        }
    }

    /** Epoch millis as a zig-zag varint, plus the sub-millisecond nanos when precision > 3. */
    private static void writeInstant(long epochSecond, int nano, int precision, BinaryWriter out) {
        long millis = Math.addExact(Math.multiplyExact(epochSecond, 1000L), nano / 1_000_000);
        out.writeSignedVarLong(millis);
        if (precision > 3) {
            out.writeVarInt(nano % 1_000_000);
        }
    }

    private static Instant toInstant(long millis, int nanoOfMilli) {
        return Instant.ofEpochMilli(millis).plusNanos(nanoOfMilli);
    }
}

package dev.tributary.common.row;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.types.DataType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * A primary-key encoding whose unsigned byte order (RocksDB's default comparator) is the lake's key
 * order: the order of Paimon's key comparator, field by field, for the key types it supports
 * ({@link #supports}).
 *
 * <p>Numbers are big-endian with the sign bit flipped, so signed values sort as unsigned bytes.
 * Strings and bytes compare as unsigned bytes of their UTF-8 (or raw) content, shorter prefix
 * first; a field that is not the last is made self-delimiting by writing {@code 0x00} as {@code
 * 0x00 0xFF} and ending it with {@code 0x00 0x01}, which sorts below any continuation. The last
 * field needs no delimiter: its bytes run to the end. Timestamps are epoch milliseconds, then
 * nanoseconds of the millisecond when the precision is above 3, which is how Paimon's {@code
 * Timestamp} compares.
 *
 * <p>FLOAT, DOUBLE and DECIMAL keys are not supported (their lake order has cases, such as NaN or
 * scale, that this encoding does not promise to match); tables with such keys keep {@link RowCodec}
 * keys. Key fields must not be null (primary-key columns never are).
 */
public final class OrderedKeyCodec {
    private static final byte ESCAPE = 0x00;
    private static final byte ESCAPED_ZERO = (byte) 0xFF;
    private static final byte TERMINATOR = 0x01;

    private final DataType[] types;

    private OrderedKeyCodec(List<DataType> types) {
        this.types = types.toArray(new DataType[0]);
    }

    /**
     * The codec for these key types.
     *
     * @throws InvalidInputException if {@link #supports} is false for them
     */
    public static OrderedKeyCodec of(List<DataType> keyTypes) {
        if (!supports(keyTypes)) {
            throw new InvalidInputException("no order-preserving key encoding for " + keyTypes);
        }
        return new OrderedKeyCodec(keyTypes);
    }

    /** True if every key type has an order-preserving encoding here (and there is a key). */
    public static boolean supports(List<DataType> keyTypes) {
        if (keyTypes.isEmpty()) {
            return false;
        }
        for (DataType t : keyTypes) {
            switch (t.root()) {
                case BOOLEAN,
                TINYINT,
                SMALLINT,
                INT,
                BIGINT,
                STRING,
                BYTES,
                DATE,
                TIME,
                TIMESTAMP,
                TIMESTAMP_LTZ:
                    break;
                default:
                    return false;
            }
        }
        return true;
    }

    public byte[] encode(Row key) {
        BinaryWriter out = new BinaryWriter(8 + types.length * 8);
        encode(key, out);
        return out.toByteArray();
    }

    public void encode(Row key, BinaryWriter out) {
        if (key.arity() != types.length) {
            throw new InvalidInputException(
                    "a key of " + types.length + " fields, not " + key.arity());
        }
        for (int i = 0; i < types.length; i++) {
            Object v = key.getField(i);
            if (v == null) {
                throw new InvalidInputException("key field " + i + " is null");
            }
            writeField(types[i], v, i == types.length - 1, out);
        }
    }

    private static void writeField(DataType type, Object v, boolean last, BinaryWriter out) {
        switch (type.root()) {
            case BOOLEAN:
                out.writeByte((Boolean) v ? 1 : 0);
                break;
            case TINYINT:
                out.writeByte((Byte) v ^ 0x80);
                break;
            case SMALLINT:
                writeBigEndian((Short) v ^ 0x8000, 2, out);
                break;
            case INT:
                writeBigEndian((Integer) v ^ Integer.MIN_VALUE, 4, out);
                break;
            case BIGINT:
                writeBigEndian((Long) v ^ Long.MIN_VALUE, 8, out);
                break;
            case STRING:
                writeBytes(((String) v).getBytes(StandardCharsets.UTF_8), last, out);
                break;
            case BYTES:
                writeBytes((byte[]) v, last, out);
                break;
            case DATE:
                writeBigEndian(((LocalDate) v).toEpochDay() ^ Long.MIN_VALUE, 8, out);
                break;
            case TIME:
                // milliseconds of the day are never negative: no sign to flip
                writeBigEndian(((LocalTime) v).toNanoOfDay() / 1_000_000L, 4, out);
                break;
            case TIMESTAMP:
                LocalDateTime ldt = (LocalDateTime) v;
                writeInstant(ldt.toEpochSecond(ZoneOffset.UTC), ldt.getNano(), type, out);
                break;
            case TIMESTAMP_LTZ:
                Instant instant = (Instant) v;
                writeInstant(instant.getEpochSecond(), instant.getNano(), type, out);
                break;
            default:
                throw new IllegalStateException("no ordered encoding for " + type);
        }
    }

    private static void writeBytes(byte[] b, boolean last, BinaryWriter out) {
        if (last) {
            out.writeBytes(b, 0, b.length);
            return;
        }
        for (byte x : b) {
            out.writeByte(x);
            if (x == ESCAPE) {
                out.writeByte(ESCAPED_ZERO);
            }
        }
        out.writeByte(ESCAPE);
        out.writeByte(TERMINATOR);
    }

    private static void writeInstant(long epochSecond, int nano, DataType type, BinaryWriter out) {
        long millis = Math.addExact(Math.multiplyExact(epochSecond, 1000L), nano / 1_000_000);
        writeBigEndian(millis ^ Long.MIN_VALUE, 8, out);
        if (type.precision() > 3) {
            writeBigEndian(nano % 1_000_000, 4, out);
        }
    }

    private static void writeBigEndian(long v, int bytes, BinaryWriter out) {
        for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
            out.writeByte((int) (v >>> shift));
        }
    }
}

package dev.tributary.common.row;

import dev.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;

/**
 * The bytes of Paimon's {@code BinaryRow} for a key, as Paimon's bucket-key projection writes them
 * for the Paimon table Tributary creates (the column types of {@code PaimonTypes} in lake/paimon).
 * Written from Paimon's documented, observable layout (little-endian, as Paimon's memory segments
 * on every platform Paimon runs on):
 *
 * <ul>
 *   <li>a header of {@code ((arity + 63 + 8) / 64) * 8} bytes: byte 0 is the row kind (0, insert),
 *       then one null bit per field from bit 8 on;
 *   <li>an 8-byte slot per field: fixed-width values in their natural width (the rest zero); dates
 *       and times as int days / int millis of day; DECIMAL(p &lt;= 18) and TIMESTAMP(p &lt;= 3) as
 *       longs (unscaled / epoch millis); strings and bytes up to 7 bytes inline (data in bytes
 *       0..6, byte 7 = 0x80 | length);
 *   <li>a variable part, each value padded with zeros to 8 bytes, its slot holding {@code offset <<
 *       32 | size}: longer strings and bytes; DECIMAL(p &gt; 18) as the minimal two's complement of
 *       the unscaled value in a zeroed 16-byte area; TIMESTAMP(p &gt; 3) as epoch millis, its slot
 *       holding the nanos of the millisecond as the size. A NULL of these two still reserves its
 *       area and offset.
 * </ul>
 *
 * The property tests in lake/paimon compare the result with Paimon's own bucket function.
 */
final class PaimonBinaryRow {
    private static final int HEADER_BITS = 8;
    private static final int SEED = 42;

    private final DataType[] types;
    private final int nullBytes;
    private final int fixedSize;

    PaimonBinaryRow(DataType[] types) {
        this.types = types.clone();
        this.nullBytes = ((types.length + 63 + HEADER_BITS) / 64) * 8;
        this.fixedSize = nullBytes + 8 * types.length;
    }

    /**
     * What Paimon's {@code BinaryRow.hashCode()} returns for the key: MurmurHash3 (x86, 32-bit,
     * seed 42) over the row's bytes, whose length is a multiple of 8.
     */
    int hashCode(Row row, int[] positions) {
        Writer w = new Writer(fixedSize);
        for (int i = 0; i < types.length; i++) {
            Object v = row.getField(positions[i]);
            int slot = nullBytes + 8 * i;
            if (v == null) {
                w.writeNull(i, slot, types[i]);
            } else {
                w.writeValue(slot, types[i], v);
            }
        }
        return Murmur3.hash32(w.buf, 0, w.cursor, SEED);
    }

    private static final class Writer {
        private byte[] buf;
        private int cursor;

        Writer(int fixedSize) {
            this.buf = new byte[fixedSize + 32];
            this.cursor = fixedSize;
        }

        void writeNull(int field, int slot, DataType type) {
            int bit = field + HEADER_BITS;
            buf[bit >>> 3] |= (byte) (1 << (bit & 7));
            switch (type.root()) {
                case DECIMAL:
                    if (!compactDecimal(type)) {
                        reserveVar(slot, 16, 0);
                    }
                    break;
                case TIMESTAMP:
                case TIMESTAMP_LTZ:
                    if (!compactTimestamp(type)) {
                        reserveVar(slot, 8, 0);
                    }
                    break;
                default:
            }
        }

        void writeValue(int slot, DataType type, Object v) {
            switch (type.root()) {
                case BOOLEAN -> buf[slot] = (byte) ((Boolean) v ? 1 : 0);
                case TINYINT -> buf[slot] = (Byte) v;
                case SMALLINT -> putShort(slot, (Short) v);
                case INT -> putInt(slot, (Integer) v);
                case BIGINT -> putLong(slot, (Long) v);
                // canonical NaN: the store keeps floats with floatToIntBits, so that is the
                // value every later reader (and the lake writer) hands to Paimon
                case FLOAT -> putInt(slot, Float.floatToIntBits((Float) v));
                case DOUBLE -> putLong(slot, Double.doubleToLongBits((Double) v));
                case DATE -> putInt(slot, (int) ((LocalDate) v).toEpochDay());
                case TIME -> putInt(slot, (int) (((LocalTime) v).toNanoOfDay() / 1_000_000L));
                case DECIMAL -> writeDecimal(slot, type, (BigDecimal) v);
                case STRING -> writeBytes(slot, ((String) v).getBytes(StandardCharsets.UTF_8));
                case BYTES -> writeBytes(slot, (byte[]) v);
                case TIMESTAMP -> {
                    LocalDateTime t = (LocalDateTime) v;
                    long nanoOfDay = t.toLocalTime().toNanoOfDay();
                    long millis =
                            t.toLocalDate().toEpochDay() * 86_400_000L + nanoOfDay / 1_000_000L;
                    writeTimestamp(slot, type, millis, (int) (nanoOfDay % 1_000_000L));
                }
                case TIMESTAMP_LTZ -> {
                    Instant t = (Instant) v;
                    long millis = t.getEpochSecond() * 1_000L + t.getNano() / 1_000_000;
                    writeTimestamp(slot, type, millis, t.getNano() % 1_000_000);
                }
            }
        }

        private void writeDecimal(int slot, DataType type, BigDecimal v) {
            BigInteger unscaled = v.setScale(type.scale()).unscaledValue();
            if (compactDecimal(type)) {
                putLong(slot, unscaled.longValueExact());
            } else {
                byte[] bytes = unscaled.toByteArray();
                int at = reserveVar(slot, 16, bytes.length);
                System.arraycopy(bytes, 0, buf, at, bytes.length);
            }
        }

        private void writeTimestamp(int slot, DataType type, long millis, int nanoOfMilli) {
            if (compactTimestamp(type)) {
                putLong(slot, millis);
            } else {
                int at = reserveVar(slot, 8, nanoOfMilli);
                putLong(at, millis);
            }
        }

        private void writeBytes(int slot, byte[] bytes) {
            int len = bytes.length;
            if (len <= 7) {
                System.arraycopy(bytes, 0, buf, slot, len);
                buf[slot + 7] = (byte) (0x80 | len);
            } else {
                int at = reserveVar(slot, (len + 7) & ~7, len);
                System.arraycopy(bytes, 0, buf, at, len);
            }
        }

        /** Appends a zeroed area to the variable part; its slot points at it with {@code size}. */
        private int reserveVar(int slot, int areaBytes, long size) {
            int at = cursor;
            if (buf.length < at + areaBytes) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, at + areaBytes));
            }
            putLong(slot, ((long) at << 32) | size);
            cursor += areaBytes;
            return at;
        }

        private void putShort(int at, short v) {
            buf[at] = (byte) v;
            buf[at + 1] = (byte) (v >>> 8);
        }

        private void putInt(int at, int v) {
            for (int i = 0; i < 4; i++) {
                buf[at + i] = (byte) (v >>> (8 * i));
            }
        }

        private void putLong(int at, long v) {
            for (int i = 0; i < 8; i++) {
                buf[at + i] = (byte) (v >>> (8 * i));
            }
        }
    }

    private static boolean compactDecimal(DataType type) {
        return type.precision() <= 18;
    }

    private static boolean compactTimestamp(DataType type) {
        return type.precision() <= 3;
    }
}

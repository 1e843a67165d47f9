package dev.tributary.lake.api.contract;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;

/**
 * Seeded random values of every Tributary type, valid for their column (Schema.validate accepts
 * them), biased toward the cases hashes get wrong: negative numbers and extremes, NaN and -0.0,
 * empty, short (inline in Paimon's row) and long strings and bytes, strings beyond the Basic
 * Multilingual Plane, pre-1970 times with sub-millisecond digits, compact and wide decimals, and
 * NULL for nullable types.
 */
public final class RandomValues {
    /** One key column of each type and parameter the bucket functions treat differently. */
    public static final List<DataType> KEY_TYPES =
            List.of(
                    DataTypes.BOOLEAN(),
                    DataTypes.TINYINT(),
                    DataTypes.SMALLINT(),
                    DataTypes.INT(),
                    DataTypes.BIGINT(),
                    DataTypes.FLOAT(),
                    DataTypes.DOUBLE(),
                    DataTypes.DECIMAL(5, 2),
                    DataTypes.DECIMAL(18, 4),
                    DataTypes.DECIMAL(19, 0),
                    DataTypes.DECIMAL(38, 10),
                    DataTypes.STRING(),
                    DataTypes.BYTES(),
                    DataTypes.DATE(),
                    DataTypes.TIME(),
                    DataTypes.TIMESTAMP(0),
                    DataTypes.TIMESTAMP(3),
                    DataTypes.TIMESTAMP(6),
                    DataTypes.TIMESTAMP(9),
                    DataTypes.TIMESTAMP_LTZ(0),
                    DataTypes.TIMESTAMP_LTZ(3),
                    DataTypes.TIMESTAMP_LTZ(6),
                    DataTypes.TIMESTAMP_LTZ(9));

    private static final int[][] CODE_POINT_RANGES = {
        {0x20, 0x7E}, {0xA0, 0x24F}, {0x391, 0x3C9}, {0x4E00, 0x9FFF}, {0x1F300, 0x1FAFF}, {0, 0x1F}
    };

    private final Random r;

    public RandomValues(Random random) {
        this.r = random;
    }

    /** A value for a column of {@code type}; NULL one time in eight when the type is nullable. */
    public Object next(DataType type) {
        if (type.isNullable() && r.nextInt(8) == 0) {
            return null;
        }
        return switch (type.root()) {
            case BOOLEAN -> r.nextBoolean();
            case TINYINT -> (byte) pickLong(Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT -> (short) pickLong(Short.MIN_VALUE, Short.MAX_VALUE);
            case INT -> (int) pickLong(Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT -> pickLong(Long.MIN_VALUE, Long.MAX_VALUE);
            case FLOAT -> floatValue();
            case DOUBLE -> doubleValue();
            case DECIMAL -> decimal(type.precision(), type.scale());
            case STRING -> string();
            case BYTES -> bytes();
            case DATE -> LocalDate.ofEpochDay(r.nextInt(200_000) - 100_000);
            case TIME -> LocalTime.ofNanoOfDay(r.nextInt(86_400_000) * 1_000_000L);
            case TIMESTAMP -> {
                Instant i = instant(type.precision());
                yield LocalDateTime.ofEpochSecond(i.getEpochSecond(), i.getNano(), ZoneOffset.UTC);
            }
            case TIMESTAMP_LTZ -> instant(type.precision());
        };
    }

    private long pickLong(long min, long max) {
        return switch (r.nextInt(6)) {
            case 0 -> min;
            case 1 -> max;
            case 2 -> r.nextInt(21) - 10;
            default -> min + (long) (r.nextDouble() * ((double) max - (double) min));
        };
    }

    private float floatValue() {
        return switch (r.nextInt(8)) {
            case 0 -> Float.NaN;
            case 1 -> -0.0f;
            case 2 -> Float.NEGATIVE_INFINITY;
            case 3 -> Float.MIN_VALUE;
            default -> (float) ((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(30)));
        };
    }

    private double doubleValue() {
        return switch (r.nextInt(8)) {
            case 0 -> Double.NaN;
            case 1 -> -0.0d;
            case 2 -> Double.POSITIVE_INFINITY;
            case 3 -> -Double.MAX_VALUE;
            default -> (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(300));
        };
    }

    private BigDecimal decimal(int precision, int scale) {
        int digits = 1 + r.nextInt(precision);
        StringBuilder sb = new StringBuilder(r.nextBoolean() ? "-" : "");
        for (int i = 0; i < digits; i++) {
            sb.append((char) ('0' + r.nextInt(10)));
        }
        BigDecimal v = new BigDecimal(new BigInteger(sb.toString()), scale);
        // sometimes with fewer digits after the point than the column: the column's scale counts
        return r.nextInt(4) == 0 ? v.stripTrailingZeros() : v;
    }

    private String string() {
        int n = r.nextInt(5) == 0 ? 0 : r.nextInt(r.nextBoolean() ? 4 : 30);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int[] range = CODE_POINT_RANGES[r.nextInt(CODE_POINT_RANGES.length)];
            sb.appendCodePoint(range[0] + r.nextInt(range[1] - range[0] + 1));
        }
        return sb.toString();
    }

    private byte[] bytes() {
        byte[] b = new byte[r.nextInt(5) == 0 ? 0 : r.nextInt(24)];
        r.nextBytes(b);
        return b;
    }

    /** About +-270 years around 1970, digits beyond {@code precision} zero. */
    private Instant instant(int precision) {
        long seconds = r.nextLong() >> 30;
        int unit = (int) Math.pow(10, 9 - precision);
        int nanos = r.nextInt(1_000_000_000) / unit * unit;
        return Instant.ofEpochSecond(seconds, nanos);
    }
}

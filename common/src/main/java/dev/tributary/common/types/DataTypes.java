package dev.tributary.common.types;

import dev.tributary.common.exception.InvalidInputException;

/** Factory for {@link DataType}s; every type is nullable until {@link DataType#notNull()}. */
public final class DataTypes {
    public static final int MAX_DECIMAL_PRECISION = 38;
    public static final int MAX_TIMESTAMP_PRECISION = 9;

    private DataTypes() {}

    public static DataType BOOLEAN() {
        return simple(DataTypeRoot.BOOLEAN);
    }

    public static DataType TINYINT() {
        return simple(DataTypeRoot.TINYINT);
    }

    public static DataType SMALLINT() {
        return simple(DataTypeRoot.SMALLINT);
    }

    public static DataType INT() {
        return simple(DataTypeRoot.INT);
    }

    public static DataType BIGINT() {
        return simple(DataTypeRoot.BIGINT);
    }

    public static DataType FLOAT() {
        return simple(DataTypeRoot.FLOAT);
    }

    public static DataType DOUBLE() {
        return simple(DataTypeRoot.DOUBLE);
    }

    public static DataType STRING() {
        return simple(DataTypeRoot.STRING);
    }

    public static DataType BYTES() {
        return simple(DataTypeRoot.BYTES);
    }

    public static DataType DATE() {
        return simple(DataTypeRoot.DATE);
    }

    /** Time of day with millisecond precision. */
    public static DataType TIME() {
        return simple(DataTypeRoot.TIME);
    }

    public static DataType DECIMAL(int precision, int scale) {
        if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
            throw new InvalidInputException(
                    "DECIMAL precision must be between 1 and 38, got " + precision);
        }
        if (scale < 0 || scale > precision) {
            throw new InvalidInputException(
                    "DECIMAL scale must be between 0 and the precision "
                            + precision
                            + ", got "
                            + scale);
        }
        return new DataType(DataTypeRoot.DECIMAL, precision, scale, true);
    }

    /** A local date-time with {@code precision} fractional digits (0..9). */
    public static DataType TIMESTAMP(int precision) {
        return timestamp(DataTypeRoot.TIMESTAMP, precision);
    }

    /** An instant with {@code precision} fractional digits (0..9). */
    public static DataType TIMESTAMP_LTZ(int precision) {
        return timestamp(DataTypeRoot.TIMESTAMP_LTZ, precision);
    }

    private static DataType timestamp(DataTypeRoot root, int precision) {
        if (precision < 0 || precision > MAX_TIMESTAMP_PRECISION) {
            throw new InvalidInputException(
                    root + " precision must be between 0 and 9, got " + precision);
        }
        return new DataType(root, precision, 0, true);
    }

    private static DataType simple(DataTypeRoot root) {
        return new DataType(root, 0, 0, true);
    }
}

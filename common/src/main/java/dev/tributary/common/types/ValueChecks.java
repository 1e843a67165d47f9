package dev.tributary.common.types;

import dev.tributary.common.exception.InvalidInputException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;

/** Checks one value against its column's type. */
final class ValueChecks {
    private ValueChecks() {}

    static void check(Column column, Object value) {
        DataType type = column.type();
        if (value == null) {
            if (!type.isNullable()) {
                throw new InvalidInputException(
                        "column '" + column.name() + "' is " + type + " but the value is NULL");
            }
            return;
        }
        Class<?> expected = type.root().javaClass();
        if (!expected.isInstance(value)) {
            throw new InvalidInputException(
                    "column '"
                            + column.name()
                            + "' is "
                            + type
                            + " and takes a "
                            + expected.getSimpleName()
                            + ", got a "
                            + value.getClass().getSimpleName()
                            + " ("
                            + value
                            + ")");
        }
        switch (type.root()) {
            case DECIMAL:
                checkDecimal(column, (BigDecimal) value);
                break;
            case TIME:
                if (((LocalTime) value).getNano() % 1_000_000 != 0) {
                    throw new InvalidInputException(
                            "column '"
                                    + column.name()
                                    + "' is TIME (millisecond precision) but "
                                    + value
                                    + " has finer digits");
                }
                break;
            case TIMESTAMP:
                checkNanos(column, ((LocalDateTime) value).getNano(), value);
                break;
            case TIMESTAMP_LTZ:
                checkNanos(column, ((Instant) value).getNano(), value);
                break;
            default:
        }
    }

    private static void checkDecimal(Column column, BigDecimal value) {
        DataType type = column.type();
        BigDecimal scaled;
        try {
            scaled = value.setScale(type.scale());
        } catch (ArithmeticException e) {
            throw new InvalidInputException(
                    "column '"
                            + column.name()
                            + "' is "
                            + type
                            + " but "
                            + value.toPlainString()
                            + " has more than "
                            + type.scale()
                            + " digits after the point");
        }
        if (scaled.precision() > type.precision()) {
            throw new InvalidInputException(
                    "column '"
                            + column.name()
                            + "' is "
                            + type
                            + " but "
                            + value.toPlainString()
                            + " has more than "
                            + type.precision()
                            + " digits");
        }
    }

    private static void checkNanos(Column column, int nanos, Object value) {
        int precision = column.type().precision();
        int unit = (int) Math.pow(10, 9 - precision);
        if (nanos % unit != 0) {
            throw new InvalidInputException(
                    "column '"
                            + column.name()
                            + "' is "
                            + column.type()
                            + " but "
                            + value
                            + " has more than "
                            + precision
                            + " fractional digits");
        }
    }
}

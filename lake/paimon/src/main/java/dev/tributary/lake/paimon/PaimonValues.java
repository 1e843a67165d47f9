package dev.tributary.lake.paimon;

import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.Timestamp;

/**
 * Converts Tributary field values to Paimon's internal data classes, from {@link
 * dev.tributary.common.row.Row} objects or straight from encoded rows.
 */
final class PaimonValues {
    private PaimonValues() {}

    /** A converter per column, chosen once so the per-row path has no type switch. */
    interface Converter {
        Object convert(Object value);
    }

    static Converter converterFor(DataType t) {
        return switch (t.root()) {
            case BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, BYTES -> v -> v;
            case DECIMAL -> {
                int p = t.precision();
                int s = t.scale();
                yield v -> Decimal.fromBigDecimal((BigDecimal) v, p, s);
            }
            case STRING -> v -> BinaryString.fromString((String) v);
            case DATE -> v -> (int) ((LocalDate) v).toEpochDay();
            case TIME -> v -> (int) (((LocalTime) v).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP -> v -> Timestamp.fromLocalDateTime((LocalDateTime) v);
            case TIMESTAMP_LTZ -> v -> Timestamp.fromInstant((Instant) v);
        };
    }

    /** Reads a non-null field of an encoded row as Paimon's internal value. */
    interface FieldReader {
        Object read(EncodedRow row, int field);
    }

    /**
     * A reader per column. Strings become {@link BinaryString}s over the row's own UTF-8 bytes (no
     * copy: Paimon serializes or encodes the row before {@code write} returns).
     */
    static FieldReader readerFor(DataType t) {
        return switch (t.root()) {
            case BOOLEAN -> EncodedRow::getBoolean;
            case TINYINT -> EncodedRow::getByte;
            case SMALLINT -> EncodedRow::getShort;
            case INT -> EncodedRow::getInt;
            case BIGINT -> EncodedRow::getLong;
            case FLOAT -> EncodedRow::getFloat;
            case DOUBLE -> EncodedRow::getDouble;
            case DECIMAL -> {
                int p = t.precision();
                int s = t.scale();
                yield p <= 18
                        ? (r, i) -> Decimal.fromUnscaledLong(r.getUnscaledLong(i), p, s)
                        : (r, i) -> Decimal.fromBigDecimal(r.getDecimal(i), p, s);
            }
            case STRING ->
                    (r, i) -> BinaryString.fromBytes(r.buffer(), r.utf8Offset(i), r.utf8Length(i));
            case BYTES ->
                    (r, i) ->
                            Arrays.copyOfRange(
                                    r.buffer(), r.utf8Offset(i), r.utf8Offset(i) + r.utf8Length(i));
            case DATE -> EncodedRow::getEpochDay;
            case TIME -> EncodedRow::getMillisOfDay;
            case TIMESTAMP, TIMESTAMP_LTZ ->
                    (r, i) ->
                            Timestamp.fromEpochMillis(
                                    r.getEpochMillis(i), r.getNanoOfMillisecond(i));
        };
    }
}

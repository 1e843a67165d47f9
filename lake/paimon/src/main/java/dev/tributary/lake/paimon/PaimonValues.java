package dev.tributary.lake.paimon;

import dev.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.Timestamp;

/** Converts Tributary field values to Paimon's internal data classes. */
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
}

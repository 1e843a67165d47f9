package dev.tributary.lake.paimon;

import dev.tributary.common.types.DataType;
import java.time.LocalDate;
import java.time.LocalTime;
import org.apache.paimon.data.InternalRow;

/** Reads Tributary field values out of Paimon rows: the inverse of {@link PaimonValues}. */
final class PaimonReadValues {
    private PaimonReadValues() {}

    /** Reads one field of a row, NULL as null; chosen once per column. */
    interface Getter {
        Object get(InternalRow row);
    }

    static Getter getterFor(DataType t, int pos) {
        Getter g =
                switch (t.root()) {
                    case BOOLEAN -> r -> r.getBoolean(pos);
                    case TINYINT -> r -> r.getByte(pos);
                    case SMALLINT -> r -> r.getShort(pos);
                    case INT -> r -> r.getInt(pos);
                    case BIGINT -> r -> r.getLong(pos);
                    case FLOAT -> r -> r.getFloat(pos);
                    case DOUBLE -> r -> r.getDouble(pos);
                    case DECIMAL -> {
                        int p = t.precision();
                        int s = t.scale();
                        yield r -> r.getDecimal(pos, p, s).toBigDecimal();
                    }
                    case STRING -> r -> r.getString(pos).toString();
                    case BYTES -> r -> r.getBinary(pos);
                    case DATE -> r -> LocalDate.ofEpochDay(r.getInt(pos));
                    case TIME -> r -> LocalTime.ofNanoOfDay(r.getInt(pos) * 1_000_000L);
                    case TIMESTAMP -> {
                        int p = t.precision();
                        yield r -> r.getTimestamp(pos, p).toLocalDateTime();
                    }
                    case TIMESTAMP_LTZ -> {
                        int p = t.precision();
                        yield r -> r.getTimestamp(pos, p).toInstant();
                    }
                };
        return r -> r.isNullAt(pos) ? null : g.get(r);
    }
}

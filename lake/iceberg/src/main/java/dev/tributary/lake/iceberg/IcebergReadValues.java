package dev.tributary.lake.iceberg;

import dev.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;

/**
 * Converts the values of Iceberg's generic records back to Tributary's classes: the inverse of
 * {@link IcebergValues} (int back to TINYINT/SMALLINT, buffers to arrays, offset date-times to
 * instants, times to Tributary's millisecond precision).
 */
final class IcebergReadValues {
    private IcebergReadValues() {}

    /** Converts one non-null value of one named column. */
    interface Getter {
        String column();

        Object convert(Object value);
    }

    static Getter getterFor(DataType t, String column) {
        java.util.function.UnaryOperator<Object> f =
                switch (t.root()) {
                    case TINYINT -> v -> ((Integer) v).byteValue();
                    case SMALLINT -> v -> ((Integer) v).shortValue();
                    case DECIMAL -> {
                        int scale = t.scale();
                        yield v -> ((BigDecimal) v).setScale(scale);
                    }
                    case STRING -> Object::toString;
                    case BYTES -> v -> bytes((ByteBuffer) v);
                    case TIME -> v -> ((LocalTime) v).truncatedTo(ChronoUnit.MILLIS);
                    case TIMESTAMP_LTZ -> v -> ((OffsetDateTime) v).toInstant();
                    default -> v -> v;
                };
        return new Getter() {
            @Override
            public String column() {
                return column;
            }

            @Override
            public Object convert(Object value) {
                return f.apply(value);
            }
        };
    }

    private static byte[] bytes(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        byte[] out = new byte[d.remaining()];
        d.get(out);
        return out;
    }
}

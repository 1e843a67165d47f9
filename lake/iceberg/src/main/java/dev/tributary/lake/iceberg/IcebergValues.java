package dev.tributary.lake.iceberg;

import dev.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Converts Tributary field values to the classes Iceberg's generic records hold. */
final class IcebergValues {
    private IcebergValues() {}

    /** A converter per column, chosen once so the per-row path has no type switch. */
    interface Converter {
        Object convert(Object value);
    }

    static Converter converterFor(DataType t) {
        return switch (t.root()) {
            case TINYINT -> v -> (int) (Byte) v;
            case SMALLINT -> v -> (int) (Short) v;
            case DECIMAL -> {
                int scale = t.scale();
                // exact: values were validated against the column's scale
                yield v -> ((BigDecimal) v).setScale(scale);
            }
            case BYTES -> v -> ByteBuffer.wrap((byte[]) v);
            case TIMESTAMP_LTZ -> v -> OffsetDateTime.ofInstant((Instant) v, ZoneOffset.UTC);
            default -> v -> v;
        };
    }
}

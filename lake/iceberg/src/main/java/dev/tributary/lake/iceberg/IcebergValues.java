package dev.tributary.lake.iceberg;

import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.apache.avro.util.Utf8;

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

    /** Reads a non-null field of an encoded row as the class Iceberg's generic records hold. */
    interface FieldReader {
        Object read(EncodedRow row, int field);
    }

    /**
     * A reader per column. Strings become Avro {@link Utf8}s, which Iceberg's Parquet writer takes
     * as UTF-8 bytes (a {@code String} would be decoded here and encoded again there).
     */
    static FieldReader readerFor(DataType t) {
        return switch (t.root()) {
            case BOOLEAN -> EncodedRow::getBoolean;
            case INT -> EncodedRow::getInt;
            case BIGINT -> EncodedRow::getLong;
            case FLOAT -> EncodedRow::getFloat;
            case DOUBLE -> EncodedRow::getDouble;
            case STRING ->
                    (r, i) -> {
                        int from = r.utf8Offset(i);
                        return new Utf8(
                                Arrays.copyOfRange(r.buffer(), from, from + r.utf8Length(i)));
                    };
            default -> {
                Converter c = converterFor(t);
                yield (r, i) -> c.convert(r.getField(i));
            }
        };
    }
}

package dev.tributary.common.row;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Iceberg's {@code bucket[N]} partition transform over one column, from the Iceberg table spec
 * ("Bucket Transform Details" and "Appendix B: 32-bit Hash Requirements"): MurmurHash3 (x86,
 * 32-bit, seed 0) of the value's spec-defined bytes, bucket = {@code (hash & Integer.MAX_VALUE) %
 * N}. Values are hashed as the Iceberg column Tributary creates stores them: TINYINT/SMALLINT/INT
 * as int and BIGINT as long (both as the 8 little-endian bytes of the long), DATE as days, TIME as
 * microseconds of the day, TIMESTAMP/TIMESTAMP_LTZ as microseconds since the epoch (nanosecond
 * columns floored to microseconds, as the spec requires), DECIMAL as the minimal big-endian two's
 * complement of the unscaled value at the column's scale, STRING as UTF-8, BYTES as is.
 *
 * <p>Iceberg maps NULL to a NULL partition, not to a bucket; the store keeps NULL keys (possible in
 * log tables only) in bucket 0, whose split then also writes the lake's NULL partition.
 */
final class IcebergBucketFunction extends KeyedBucketFunction {
    private static final int SEED = 0;

    private final ToIntFunction<Object> hash;

    IcebergBucketFunction(Schema schema, List<String> bucketKeys, int bucketCount) {
        super(schema, bucketKeys, bucketCount);
        BucketFunctionType.ICEBERG
                .unsupportedReason(schema, bucketKeys)
                .ifPresent(
                        reason -> {
                            throw new InvalidInputException(reason);
                        });
        this.hash = hashOf(keyTypes[0]);
    }

    @Override
    int bucketOf(Row row, int[] positions) {
        Object v = row.getField(positions[0]);
        if (v == null) {
            return 0;
        }
        return (hash.applyAsInt(v) & Integer.MAX_VALUE) % bucketCount;
    }

    @Override
    public BucketFunctionType type() {
        return BucketFunctionType.ICEBERG;
    }

    private static ToIntFunction<Object> hashOf(DataType type) {
        return switch (type.root()) {
            case TINYINT -> v -> hashLong((Byte) v);
            case SMALLINT -> v -> hashLong((Short) v);
            case INT -> v -> hashLong((Integer) v);
            case BIGINT -> v -> hashLong((Long) v);
            case DATE -> v -> hashLong(((LocalDate) v).toEpochDay());
            case TIME -> v -> hashLong(((LocalTime) v).toNanoOfDay() / 1_000L);
            case TIMESTAMP -> v -> hashLong(micros(((LocalDateTime) v).toInstant(ZoneOffset.UTC)));
            case TIMESTAMP_LTZ -> v -> hashLong(micros((Instant) v));
            case DECIMAL -> {
                int scale = type.scale();
                yield v ->
                        hashBytes(((BigDecimal) v).setScale(scale).unscaledValue().toByteArray());
            }
            case STRING -> v -> hashBytes(((String) v).getBytes(StandardCharsets.UTF_8));
            case BYTES -> v -> hashBytes((byte[]) v);
            case BOOLEAN, FLOAT, DOUBLE ->
                    throw new IllegalStateException("checked by unsupportedReason: " + type);
        };
    }

    /** Microseconds since the epoch, floored (nanosecond values round down, as the spec says). */
    private static long micros(Instant t) {
        return Math.addExact(
                Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }

    private static int hashLong(long v) {
        return Murmur3.hashLong(v, SEED);
    }

    private static int hashBytes(byte[] b) {
        return Murmur3.hash32(b, SEED);
    }
}

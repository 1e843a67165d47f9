package dev.tributary.common.types;

/**
 * The type families Tributary stores, with the Java class that represents a value of each.
 *
 * <p>TIME has millisecond precision. TIMESTAMP(p) is a local date-time and TIMESTAMP_LTZ(p) an
 * instant, both with 0 &lt;= p &lt;= 9 fractional digits.
 */
public enum DataTypeRoot {
    BOOLEAN(Boolean.class),
    TINYINT(Byte.class),
    SMALLINT(Short.class),
    INT(Integer.class),
    BIGINT(Long.class),
    FLOAT(Float.class),
    DOUBLE(Double.class),
    DECIMAL(java.math.BigDecimal.class),
    STRING(String.class),
    BYTES(byte[].class),
    DATE(java.time.LocalDate.class),
    TIME(java.time.LocalTime.class),
    TIMESTAMP(java.time.LocalDateTime.class),
    TIMESTAMP_LTZ(java.time.Instant.class);

    private final Class<?> javaClass;

    DataTypeRoot(Class<?> javaClass) {
        this.javaClass = javaClass;
    }

    /** The class of values of this type in a {@link dev.tributary.common.row.Row}. */
    public Class<?> javaClass() {
        return javaClass;
    }
}

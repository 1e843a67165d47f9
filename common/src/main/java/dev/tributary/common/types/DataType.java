package dev.tributary.common.types;

import java.util.Objects;

/**
 * An immutable column type: a {@link DataTypeRoot}, its parameters (precision and scale for
 * DECIMAL, precision for the timestamps) and nullability. Create instances with {@link DataTypes}.
 */
public final class DataType {
    private final DataTypeRoot root;
    private final int precision;
    private final int scale;
    private final boolean nullable;

    DataType(DataTypeRoot root, int precision, int scale, boolean nullable) {
        this.root = Objects.requireNonNull(root);
        this.precision = precision;
        this.scale = scale;
        this.nullable = nullable;
    }

    public DataTypeRoot root() {
        return root;
    }

    /** DECIMAL: total digits; TIMESTAMP/TIMESTAMP_LTZ: fractional-second digits; else 0. */
    public int precision() {
        return precision;
    }

    /** DECIMAL: digits after the point; else 0. */
    public int scale() {
        return scale;
    }

    public boolean isNullable() {
        return nullable;
    }

    public DataType notNull() {
        return copy(false);
    }

    public DataType nullable() {
        return copy(true);
    }

    public DataType copy(boolean isNullable) {
        return isNullable == nullable ? this : new DataType(root, precision, scale, isNullable);
    }

    /** The SQL-like form parsed by {@link DataTypeParser}, e.g. {@code DECIMAL(10, 2) NOT NULL}. */
    public String asSummaryString() {
        String base;
        switch (root) {
            case DECIMAL:
                base = "DECIMAL(" + precision + ", " + scale + ")";
                break;
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                base = root.name() + "(" + precision + ")";
                break;
            default:
                base = root.name();
        }
        return nullable ? base : base + " NOT NULL";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DataType t
                && t.root == root
                && t.precision == precision
                && t.scale == scale
                && t.nullable == nullable;
    }

    @Override
    public int hashCode() {
        return Objects.hash(root, precision, scale, nullable);
    }

    @Override
    public String toString() {
        return asSummaryString();
    }
}

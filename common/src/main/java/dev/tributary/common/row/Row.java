package dev.tributary.common.row;

import java.util.Arrays;

/**
 * An immutable row of field values, positionally matching a {@link
 * dev.tributary.common.types.Schema}. Values use the Java classes of {@link
 * dev.tributary.common.types.DataTypeRoot}; {@code null} is SQL NULL. Byte arrays are compared by
 * content.
 */
public final class Row {
    private final Object[] fields;

    private Row(Object[] fields) {
        this.fields = fields;
    }

    /** A row of the given values (the array is copied). */
    public static Row of(Object... values) {
        return new Row(values.clone());
    }

    /** Wraps the array without copying; the caller must not modify it afterwards. */
    public static Row wrap(Object[] values) {
        return new Row(values);
    }

    public int arity() {
        return fields.length;
    }

    public Object getField(int i) {
        return fields[i];
    }

    public boolean isNullAt(int i) {
        return fields[i] == null;
    }

    public int getInt(int i) {
        return (Integer) fields[i];
    }

    public long getLong(int i) {
        return (Long) fields[i];
    }

    public String getString(int i) {
        return (String) fields[i];
    }

    /** The values at the given positions, as a new row. */
    public Row project(int[] positions) {
        Object[] out = new Object[positions.length];
        for (int i = 0; i < positions.length; i++) {
            out[i] = fields[positions[i]];
        }
        return new Row(out);
    }

    /** This row padded with NULLs up to {@code newArity} fields (for added columns). */
    public Row padTo(int newArity) {
        return newArity == fields.length ? this : new Row(Arrays.copyOf(fields, newArity));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row r && Arrays.deepEquals(fields, r.fields);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(fields);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Object f = fields[i];
            sb.append(f instanceof byte[] b ? Arrays.toString(b) : String.valueOf(f));
        }
        return sb.append(')').toString();
    }
}

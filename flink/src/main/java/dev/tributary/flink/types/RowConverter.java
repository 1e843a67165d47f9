package dev.tributary.flink.types;

import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataType;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;

/**
 * Converts between Tributary rows and Flink's internal {@link RowData}, one converter per column
 * chosen once. Serializable: sources and sinks ship it to their tasks.
 */
public final class RowConverter implements Serializable {
    private static final long serialVersionUID = 1L;

    // Tributary types are not Serializable: ship their summary strings and parse them once
    private final String[] typeNames;
    private transient DataType[] types;

    public RowConverter(List<DataType> columnTypes) {
        this.typeNames = columnTypes.stream().map(DataType::asSummaryString).toArray(String[]::new);
        this.types = columnTypes.toArray(new DataType[0]);
    }

    private void readObject(java.io.ObjectInputStream in)
            throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        types = new DataType[typeNames.length];
        for (int i = 0; i < typeNames.length; i++) {
            types[i] = dev.tributary.common.types.DataTypeParser.parse(typeNames[i]);
        }
    }

    public int arity() {
        return types.length;
    }

    /** A Flink row of the Tributary row's values with the change type's row kind. */
    public GenericRowData toFlink(Row row, ChangeType type) {
        GenericRowData out = new GenericRowData(kindOf(type), types.length);
        for (int i = 0; i < types.length; i++) {
            Object v = i < row.arity() ? row.getField(i) : null;
            out.setField(i, v == null ? null : toInternal(types[i], v));
        }
        return out;
    }

    /** The Tributary row of a Flink row (its row kind is the caller's). */
    public Row toTributary(RowData row) {
        Object[] out = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            out[i] = row.isNullAt(i) ? null : fromInternal(types[i], row, i);
        }
        return Row.wrap(out);
    }

    public static RowKind kindOf(ChangeType t) {
        return switch (t) {
            case APPEND_ONLY, INSERT -> RowKind.INSERT;
            case UPDATE_BEFORE -> RowKind.UPDATE_BEFORE;
            case UPDATE_AFTER -> RowKind.UPDATE_AFTER;
            case DELETE -> RowKind.DELETE;
        };
    }

    /** A Tributary value as Flink's internal data class. */
    public static Object toInternal(DataType t, Object v) {
        return switch (t.root()) {
            case BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, BYTES -> v;
            case DECIMAL -> DecimalData.fromBigDecimal((BigDecimal) v, t.precision(), t.scale());
            case STRING -> StringData.fromString((String) v);
            case DATE -> (int) ((LocalDate) v).toEpochDay();
            case TIME -> (int) (((LocalTime) v).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP -> TimestampData.fromLocalDateTime((LocalDateTime) v);
            case TIMESTAMP_LTZ -> TimestampData.fromInstant((Instant) v);
        };
    }

    /** A Flink internal value (as a literal or field class) as Tributary's class. */
    public static Object fromInternalValue(DataType t, Object v) {
        return switch (t.root()) {
            case BOOLEAN, BYTES -> v;
            case TINYINT -> ((Number) v).byteValue();
            case SMALLINT -> ((Number) v).shortValue();
            case INT -> ((Number) v).intValue();
            case BIGINT -> ((Number) v).longValue();
            case FLOAT -> ((Number) v).floatValue();
            case DOUBLE -> ((Number) v).doubleValue();
            case DECIMAL ->
                    v instanceof DecimalData d
                            ? d.toBigDecimal()
                            : new BigDecimal(v.toString()).setScale(t.scale());
            case STRING -> v.toString();
            case DATE ->
                    v instanceof LocalDate d ? d : LocalDate.ofEpochDay(((Number) v).longValue());
            case TIME ->
                    v instanceof LocalTime lt
                            ? lt
                            : LocalTime.ofNanoOfDay(((Number) v).longValue() * 1_000_000L);
            case TIMESTAMP ->
                    v instanceof TimestampData ts ? ts.toLocalDateTime() : (LocalDateTime) v;
            case TIMESTAMP_LTZ -> v instanceof TimestampData ts ? ts.toInstant() : (Instant) v;
        };
    }

    private static Object fromInternal(DataType t, RowData row, int i) {
        return switch (t.root()) {
            case BOOLEAN -> row.getBoolean(i);
            case TINYINT -> row.getByte(i);
            case SMALLINT -> row.getShort(i);
            case INT -> row.getInt(i);
            case BIGINT -> row.getLong(i);
            case FLOAT -> row.getFloat(i);
            case DOUBLE -> row.getDouble(i);
            case DECIMAL -> row.getDecimal(i, t.precision(), t.scale()).toBigDecimal();
            case STRING -> row.getString(i).toString();
            case BYTES -> row.getBinary(i);
            case DATE -> LocalDate.ofEpochDay(row.getInt(i));
            case TIME -> LocalTime.ofNanoOfDay(row.getInt(i) * 1_000_000L);
            case TIMESTAMP -> row.getTimestamp(i, t.precision()).toLocalDateTime();
            case TIMESTAMP_LTZ -> row.getTimestamp(i, t.precision()).toInstant();
        };
    }
}

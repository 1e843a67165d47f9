package dev.tributary.lake.iceberg;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Maps Tributary column types to Iceberg types and back. Iceberg has no 8/16-bit integers (TINYINT
 * and SMALLINT are stored as int) and stores timestamps with microsecond precision, or nanosecond
 * precision in format v3 (used for TIMESTAMP(p)/TIMESTAMP_LTZ(p) with p &gt; 6).
 */
final class IcebergTypes {
    private IcebergTypes() {}

    static Type toIceberg(DataType t) {
        return switch (t.root()) {
            case BOOLEAN -> Types.BooleanType.get();
            case TINYINT, SMALLINT, INT -> Types.IntegerType.get();
            case BIGINT -> Types.LongType.get();
            case FLOAT -> Types.FloatType.get();
            case DOUBLE -> Types.DoubleType.get();
            case DECIMAL -> Types.DecimalType.of(t.precision(), t.scale());
            case STRING -> Types.StringType.get();
            case BYTES -> Types.BinaryType.get();
            case DATE -> Types.DateType.get();
            case TIME -> Types.TimeType.get();
            case TIMESTAMP ->
                    t.precision() > 6
                            ? Types.TimestampNanoType.withoutZone()
                            : Types.TimestampType.withoutZone();
            case TIMESTAMP_LTZ ->
                    t.precision() > 6
                            ? Types.TimestampNanoType.withZone()
                            : Types.TimestampType.withZone();
        };
    }

    /** True when the type needs Iceberg format v3 (nanosecond timestamps). */
    static boolean needsV3(DataType t) {
        return (t.root() == dev.tributary.common.types.DataTypeRoot.TIMESTAMP
                        || t.root() == dev.tributary.common.types.DataTypeRoot.TIMESTAMP_LTZ)
                && t.precision() > 6;
    }

    /** The Tributary type of an Iceberg type (nullable), or null when Tributary has none. */
    static DataType fromIceberg(Type type) {
        return switch (type.typeId()) {
            case BOOLEAN -> DataTypes.BOOLEAN();
            case INTEGER -> DataTypes.INT();
            case LONG -> DataTypes.BIGINT();
            case FLOAT -> DataTypes.FLOAT();
            case DOUBLE -> DataTypes.DOUBLE();
            case DECIMAL -> {
                Types.DecimalType d = (Types.DecimalType) type;
                yield DataTypes.DECIMAL(d.precision(), d.scale());
            }
            case STRING -> DataTypes.STRING();
            case BINARY, FIXED -> DataTypes.BYTES();
            case DATE -> DataTypes.DATE();
            case TIME -> DataTypes.TIME();
            case TIMESTAMP ->
                    ((Types.TimestampType) type).shouldAdjustToUTC()
                            ? DataTypes.TIMESTAMP_LTZ(6)
                            : DataTypes.TIMESTAMP(6);
            case TIMESTAMP_NANO ->
                    ((Types.TimestampNanoType) type).shouldAdjustToUTC()
                            ? DataTypes.TIMESTAMP_LTZ(9)
                            : DataTypes.TIMESTAMP(9);
            default -> null;
        };
    }

    /** Type name used in mismatch messages, nullability included. */
    static String render(Type type, boolean required) {
        return type.toString() + (required ? " not null" : "");
    }

    static String render(DataType t) {
        return render(toIceberg(t), !t.isNullable());
    }
}

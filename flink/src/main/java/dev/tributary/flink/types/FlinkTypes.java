package dev.tributary.flink.types;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.DataTypes;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Maps Tributary column types to Flink SQL types and back. Tributary's STRING is Flink's STRING
 * (VARCHAR of maximum length), BYTES is BYTES, TIME is TIME(3) (milliseconds). Nullability is kept.
 */
public final class FlinkTypes {
    private FlinkTypes() {}

    public static org.apache.flink.table.types.DataType toFlink(
            dev.tributary.common.types.DataType t) {
        org.apache.flink.table.types.DataType f =
                switch (t.root()) {
                    case BOOLEAN -> org.apache.flink.table.api.DataTypes.BOOLEAN();
                    case TINYINT -> org.apache.flink.table.api.DataTypes.TINYINT();
                    case SMALLINT -> org.apache.flink.table.api.DataTypes.SMALLINT();
                    case INT -> org.apache.flink.table.api.DataTypes.INT();
                    case BIGINT -> org.apache.flink.table.api.DataTypes.BIGINT();
                    case FLOAT -> org.apache.flink.table.api.DataTypes.FLOAT();
                    case DOUBLE -> org.apache.flink.table.api.DataTypes.DOUBLE();
                    case DECIMAL ->
                            org.apache.flink.table.api.DataTypes.DECIMAL(t.precision(), t.scale());
                    case STRING -> org.apache.flink.table.api.DataTypes.STRING();
                    case BYTES -> org.apache.flink.table.api.DataTypes.BYTES();
                    case DATE -> org.apache.flink.table.api.DataTypes.DATE();
                    case TIME -> org.apache.flink.table.api.DataTypes.TIME(3);
                    case TIMESTAMP -> org.apache.flink.table.api.DataTypes.TIMESTAMP(t.precision());
                    case TIMESTAMP_LTZ ->
                            org.apache.flink.table.api.DataTypes.TIMESTAMP_LTZ(t.precision());
                };
        return t.isNullable() ? f.nullable() : f.notNull();
    }

    /**
     * The Tributary type of a Flink type.
     *
     * @throws InvalidInputException naming the column and the types Tributary stores
     */
    public static dev.tributary.common.types.DataType fromFlink(String column, LogicalType f) {
        dev.tributary.common.types.DataType t =
                switch (f.getTypeRoot()) {
                    case BOOLEAN -> DataTypes.BOOLEAN();
                    case TINYINT -> DataTypes.TINYINT();
                    case SMALLINT -> DataTypes.SMALLINT();
                    case INTEGER -> DataTypes.INT();
                    case BIGINT -> DataTypes.BIGINT();
                    case FLOAT -> DataTypes.FLOAT();
                    case DOUBLE -> DataTypes.DOUBLE();
                    case DECIMAL -> {
                        DecimalType d = (DecimalType) f;
                        yield DataTypes.DECIMAL(d.getPrecision(), d.getScale());
                    }
                    case CHAR, VARCHAR -> DataTypes.STRING();
                    case BINARY, VARBINARY -> DataTypes.BYTES();
                    case DATE -> DataTypes.DATE();
                    case TIME_WITHOUT_TIME_ZONE -> DataTypes.TIME();
                    case TIMESTAMP_WITHOUT_TIME_ZONE ->
                            DataTypes.TIMESTAMP(((TimestampType) f).getPrecision());
                    case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                            DataTypes.TIMESTAMP_LTZ(((LocalZonedTimestampType) f).getPrecision());
                    default ->
                            throw new InvalidInputException(
                                    "column '"
                                            + column
                                            + "' has type "
                                            + f.asSummaryString()
                                            + ", which Tributary does not store; use BOOLEAN,"
                                            + " TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE,"
                                            + " DECIMAL, STRING, BYTES, DATE, TIME, TIMESTAMP or"
                                            + " TIMESTAMP_LTZ");
                };
        return t.copy(f.isNullable());
    }
}

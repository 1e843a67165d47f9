package dev.tributary.lake.paimon;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.TimestampType;

/** Maps Tributary column types to Paimon types and back; nullability is kept. */
final class PaimonTypes {
    private PaimonTypes() {}

    static org.apache.paimon.types.DataType toPaimon(DataType t) {
        org.apache.paimon.types.DataType p =
                switch (t.root()) {
                    case BOOLEAN -> org.apache.paimon.types.DataTypes.BOOLEAN();
                    case TINYINT -> org.apache.paimon.types.DataTypes.TINYINT();
                    case SMALLINT -> org.apache.paimon.types.DataTypes.SMALLINT();
                    case INT -> org.apache.paimon.types.DataTypes.INT();
                    case BIGINT -> org.apache.paimon.types.DataTypes.BIGINT();
                    case FLOAT -> org.apache.paimon.types.DataTypes.FLOAT();
                    case DOUBLE -> org.apache.paimon.types.DataTypes.DOUBLE();
                    case DECIMAL ->
                            org.apache.paimon.types.DataTypes.DECIMAL(t.precision(), t.scale());
                    case STRING -> org.apache.paimon.types.DataTypes.STRING();
                    case BYTES -> org.apache.paimon.types.DataTypes.BYTES();
                    case DATE -> org.apache.paimon.types.DataTypes.DATE();
                    // Tributary TIME is millisecond precision
                    case TIME -> org.apache.paimon.types.DataTypes.TIME(3);
                    case TIMESTAMP -> org.apache.paimon.types.DataTypes.TIMESTAMP(t.precision());
                    case TIMESTAMP_LTZ ->
                            org.apache.paimon.types.DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(
                                    t.precision());
                };
        return p.copy(t.isNullable());
    }

    /** The Tributary type of a Paimon type, or null when Tributary has no equivalent. */
    static DataType fromPaimon(org.apache.paimon.types.DataType p) {
        DataType t =
                switch (p.getTypeRoot()) {
                    case BOOLEAN -> DataTypes.BOOLEAN();
                    case TINYINT -> DataTypes.TINYINT();
                    case SMALLINT -> DataTypes.SMALLINT();
                    case INTEGER -> DataTypes.INT();
                    case BIGINT -> DataTypes.BIGINT();
                    case FLOAT -> DataTypes.FLOAT();
                    case DOUBLE -> DataTypes.DOUBLE();
                    case DECIMAL -> {
                        DecimalType d = (DecimalType) p;
                        yield DataTypes.DECIMAL(d.getPrecision(), d.getScale());
                    }
                    case CHAR, VARCHAR -> DataTypes.STRING();
                    case BINARY, VARBINARY -> DataTypes.BYTES();
                    case DATE -> DataTypes.DATE();
                    case TIME_WITHOUT_TIME_ZONE -> DataTypes.TIME();
                    case TIMESTAMP_WITHOUT_TIME_ZONE ->
                            DataTypes.TIMESTAMP(((TimestampType) p).getPrecision());
                    case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                            DataTypes.TIMESTAMP_LTZ(((LocalZonedTimestampType) p).getPrecision());
                    default -> null;
                };
        return t == null ? null : t.copy(p.isNullable());
    }

    /** Human-readable name for error messages. */
    static String describe(org.apache.paimon.types.DataType p) {
        return p.asSQLString();
    }
}

package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypeRoot;
import dev.tributary.common.types.DataTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class IcebergTypesTest {

    /** Every root with its parameter variants (exhaustive switch: a new root fails to compile). */
    static List<DataType> samples(DataTypeRoot root) {
        List<DataType> out = new ArrayList<>();
        switch (root) {
            case BOOLEAN -> out.add(DataTypes.BOOLEAN());
            case TINYINT -> out.add(DataTypes.TINYINT());
            case SMALLINT -> out.add(DataTypes.SMALLINT());
            case INT -> out.add(DataTypes.INT());
            case BIGINT -> out.add(DataTypes.BIGINT());
            case FLOAT -> out.add(DataTypes.FLOAT());
            case DOUBLE -> out.add(DataTypes.DOUBLE());
            case DECIMAL -> {
                out.add(DataTypes.DECIMAL(1, 0));
                out.add(DataTypes.DECIMAL(10, 2));
                out.add(DataTypes.DECIMAL(38, 38));
            }
            case STRING -> out.add(DataTypes.STRING());
            case BYTES -> out.add(DataTypes.BYTES());
            case DATE -> out.add(DataTypes.DATE());
            case TIME -> out.add(DataTypes.TIME());
            case TIMESTAMP -> {
                for (int p = 0; p <= 9; p++) {
                    out.add(DataTypes.TIMESTAMP(p));
                }
            }
            case TIMESTAMP_LTZ -> {
                for (int p = 0; p <= 9; p++) {
                    out.add(DataTypes.TIMESTAMP_LTZ(p));
                }
            }
        }
        return out;
    }

    /** What Iceberg can hold: small ints widen to INT, timestamps to micros or nanos. */
    static DataType widened(DataType t) {
        return switch (t.root()) {
            case TINYINT, SMALLINT -> DataTypes.INT();
            case TIMESTAMP -> DataTypes.TIMESTAMP(t.precision() > 6 ? 9 : 6);
            case TIMESTAMP_LTZ -> DataTypes.TIMESTAMP_LTZ(t.precision() > 6 ? 9 : 6);
            default -> t;
        };
    }

    @Test
    void everyTypeMapsToIcebergAndBackWidenedOnlyWhereIcebergMust() {
        for (DataTypeRoot root : DataTypeRoot.values()) {
            for (DataType t : samples(root)) {
                assertThat(IcebergTypes.fromIceberg(IcebergTypes.toIceberg(t)))
                        .as(t.toString())
                        .isEqualTo(widened(t));
                assertThat(IcebergTypes.needsV3(t))
                        .as(t.toString())
                        .isEqualTo(
                                (root == DataTypeRoot.TIMESTAMP
                                                || root == DataTypeRoot.TIMESTAMP_LTZ)
                                        && t.precision() > 6);
            }
        }
    }

    @Test
    void nativeTypesAreTheExpectedOnes() {
        assertThat(IcebergTypes.toIceberg(DataTypes.TIMESTAMP_LTZ(3)))
                .isEqualTo(Types.TimestampType.withZone());
        assertThat(IcebergTypes.toIceberg(DataTypes.TIMESTAMP(9)))
                .isEqualTo(Types.TimestampNanoType.withoutZone());
        assertThat(IcebergTypes.toIceberg(DataTypes.TIME())).isEqualTo(Types.TimeType.get());
        assertThat(IcebergTypes.toIceberg(DataTypes.DECIMAL(38, 10)))
                .isEqualTo(Types.DecimalType.of(38, 10));
        assertThat(IcebergTypes.render(DataTypes.BIGINT().notNull())).isEqualTo("long not null");
    }
}

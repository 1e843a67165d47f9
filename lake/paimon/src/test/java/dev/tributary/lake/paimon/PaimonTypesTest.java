package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypeRoot;
import dev.tributary.common.types.DataTypes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PaimonTypesTest {

    /** Every root with every parameter variant that matters (exhaustive switch: new roots fail). */
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

    @Test
    void everyTypeMapsToPaimonAndBackUnchanged() {
        for (DataTypeRoot root : DataTypeRoot.values()) {
            for (DataType t : samples(root)) {
                for (DataType n : List.of(t, t.notNull())) {
                    org.apache.paimon.types.DataType p = PaimonTypes.toPaimon(n);
                    assertThat(p.isNullable()).as(n.toString()).isEqualTo(n.isNullable());
                    assertThat(PaimonTypes.fromPaimon(p)).as(n + " via " + p).isEqualTo(n);
                }
            }
        }
    }

    @Test
    void nativeTypesAreTheExpectedOnes() {
        assertThat(PaimonTypes.toPaimon(DataTypes.TIME()).asSQLString()).isEqualTo("TIME(3)");
        assertThat(PaimonTypes.toPaimon(DataTypes.TIMESTAMP(9)).asSQLString())
                .isEqualTo("TIMESTAMP(9)");
        assertThat(PaimonTypes.toPaimon(DataTypes.TIMESTAMP_LTZ(3).notNull()).asSQLString())
                .isEqualTo("TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL");
        assertThat(PaimonTypes.toPaimon(DataTypes.DECIMAL(38, 10)).asSQLString())
                .isEqualTo("DECIMAL(38, 10)");
        assertThat(PaimonTypes.toPaimon(DataTypes.TINYINT()).asSQLString()).isEqualTo("TINYINT");
    }
}

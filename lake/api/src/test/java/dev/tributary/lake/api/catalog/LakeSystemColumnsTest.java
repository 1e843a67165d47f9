package dev.tributary.lake.api.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import org.junit.jupiter.api.Test;

class LakeSystemColumnsTest {

    @Test
    void T6_appendsSystemColumnsAndKeepsThePrimaryKey() {
        Schema s =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("v", DataTypes.STRING())
                        .primaryKey("id")
                        .build();
        Schema lake = LakeSystemColumns.lakeSchemaOf(s);
        assertThat(lake.columnNames())
                .containsExactly("id", "v", "__bucket", "__offset", "__timestamp");
        assertThat(lake.primaryKey()).containsExactly("id");
        assertThat(lake.typeAt(4)).isEqualTo(DataTypes.TIMESTAMP_LTZ(3).notNull());
    }

    @Test
    void rejectsReservedNames() {
        Schema s = Schema.newBuilder().column("__offset", DataTypes.BIGINT()).build();
        assertThatThrownBy(() -> LakeSystemColumns.lakeSchemaOf(s))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'__offset'")
                .hasMessageContaining("rename");
    }
}

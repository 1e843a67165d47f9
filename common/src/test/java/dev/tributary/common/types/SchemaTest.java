package dev.tributary.common.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.row.Row;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.junit.jupiter.api.Test;

class SchemaTest {
    private final Schema pk =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("name", DataTypes.STRING())
                    .column("price", DataTypes.DECIMAL(5, 2))
                    .primaryKey("id")
                    .build();

    @Test
    void primaryKeyColumnsBecomeNotNull() {
        assertThat(pk.typeAt(0)).isEqualTo(DataTypes.BIGINT().notNull());
        assertThat(pk.typeAt(1).isNullable()).isTrue();
        assertThat(pk.primaryKeyIndexes()).containsExactly(0);
    }

    @Test
    void rejectsDuplicateAndUnknownColumns() {
        assertThatThrownBy(
                        () ->
                                Schema.newBuilder()
                                        .column("a", DataTypes.INT())
                                        .column("a", DataTypes.INT())
                                        .build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("duplicate column 'a'");
        assertThatThrownBy(
                        () ->
                                Schema.newBuilder()
                                        .column("a", DataTypes.INT())
                                        .primaryKey("b")
                                        .build())
                .hasMessageContaining("primary key column 'b'");
    }

    @Test
    void validatesArityTypesAndNulls() {
        pk.validate(Row.of(1L, "x", new BigDecimal("1.5")));
        pk.validate(Row.of(1L, null, null));
        assertThatThrownBy(() -> pk.validate(Row.of(1L, "x")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("2 fields but the schema has 3");
        assertThatThrownBy(() -> pk.validate(Row.of(null, "x", null)))
                .hasMessageContaining("column 'id'")
                .hasMessageContaining("NULL");
        assertThatThrownBy(() -> pk.validate(Row.of(1, "x", null)))
                .hasMessageContaining("takes a Long, got a Integer");
    }

    @Test
    void validatesDecimalAndTemporalPrecision() {
        assertThatThrownBy(() -> pk.validate(Row.of(1L, "x", new BigDecimal("1.234"))))
                .hasMessageContaining("more than 2 digits after the point");
        assertThatThrownBy(() -> pk.validate(Row.of(1L, "x", new BigDecimal("1234.5"))))
                .hasMessageContaining("more than 5 digits");
        Schema t =
                Schema.newBuilder()
                        .column("ts", DataTypes.TIMESTAMP(3))
                        .column("ltz", DataTypes.TIMESTAMP_LTZ(0))
                        .column("t", DataTypes.TIME())
                        .build();
        t.validate(
                Row.of(
                        LocalDateTime.of(2026, 1, 1, 0, 0, 0, 123_000_000),
                        Instant.ofEpochSecond(5),
                        LocalTime.of(1, 2, 3, 4_000_000)));
        assertThatThrownBy(
                        () ->
                                t.validate(
                                        Row.of(
                                                LocalDateTime.of(2026, 1, 1, 0, 0, 0, 123_400_000),
                                                null,
                                                null)))
                .hasMessageContaining("more than 3 fractional digits");
        assertThatThrownBy(() -> t.validate(Row.of(null, Instant.ofEpochMilli(5), null)))
                .hasMessageContaining("more than 0 fractional digits");
        assertThatThrownBy(() -> t.validate(Row.of(null, null, LocalTime.of(1, 2, 3, 1))))
                .hasMessageContaining("millisecond precision");
    }

    @Test
    void addedColumnsMustBeNullable() {
        Schema evolved = pk.addColumn(new Column("note", DataTypes.STRING()));
        assertThat(evolved.columnNames()).containsExactly("id", "name", "price", "note");
        assertThatThrownBy(() -> pk.addColumn(new Column("n2", DataTypes.INT().notNull())))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("must be nullable");
    }

    @Test
    void descriptorDefaultsBucketKeyToPrimaryKey() {
        TableDescriptor d = TableDescriptor.builder(pk).bucketCount(4).build();
        assertThat(d.bucketKeys()).containsExactly("id");
        assertThatThrownBy(() -> TableDescriptor.builder(pk).bucketCount(0).build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'bucket.num'");
        assertThatThrownBy(() -> TableDescriptor.builder(pk).bucketKeys("name").build())
                .hasMessageContaining("must be part of the primary key");
    }

    @Test
    void typeStringsRoundTripThroughTheParser() {
        DataType[] all = {
            DataTypes.BOOLEAN(),
            DataTypes.TINYINT().notNull(),
            DataTypes.SMALLINT(),
            DataTypes.INT(),
            DataTypes.BIGINT().notNull(),
            DataTypes.FLOAT(),
            DataTypes.DOUBLE(),
            DataTypes.DECIMAL(38, 10),
            DataTypes.STRING().notNull(),
            DataTypes.BYTES(),
            DataTypes.DATE(),
            DataTypes.TIME(),
            DataTypes.TIMESTAMP(9),
            DataTypes.TIMESTAMP_LTZ(3).notNull()
        };
        for (DataType t : all) {
            assertThat(DataTypeParser.parse(t.asSummaryString())).isEqualTo(t);
        }
        assertThat(DataTypeParser.parse("decimal(10,2) not null"))
                .isEqualTo(DataTypes.DECIMAL(10, 2).notNull());
        assertThat(DataTypeParser.parse("varchar")).isEqualTo(DataTypes.STRING());
        assertThatThrownBy(() -> DataTypeParser.parse("INT(3)"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("unknown type 'INT(3)'");
        assertThatThrownBy(() -> DataTypeParser.parse("DECIMAL(40, 2)"))
                .hasMessageContaining("between 1 and 38");
    }
}

package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.cli.input.ChangeOp;
import dev.tributary.cli.input.CsvLine;
import dev.tributary.cli.input.SchemaParser;
import dev.tributary.cli.input.ValueParser;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.record.WriteKind;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class InputParsingTest {

    @Test
    void ddlWithNestedParenthesesAndPrimaryKey() {
        Schema s =
                SchemaParser.parseDdl(
                        "id BIGINT, price DECIMAL(10, 2), at TIMESTAMP(3), name STRING NOT NULL,"
                                + " PRIMARY KEY (id)");
        assertThat(s.columnNames()).containsExactly("id", "price", "at", "name");
        assertThat(s.primaryKey()).containsExactly("id");
        assertThat(s.typeAt(1)).isEqualTo(DataTypes.DECIMAL(10, 2));
        assertThat(s.typeAt(0).isNullable()).isFalse();
        assertThat(s.typeAt(3).isNullable()).isFalse();
    }

    @Test
    void ddlErrorsNameTheProblem() {
        assertThatThrownBy(() -> SchemaParser.parseDdl("id"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no type");
        assertThatThrownBy(() -> SchemaParser.parseDdl("id BIGINT,, x INT"))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> SchemaParser.parseDdl("id BIGINT, PRIMARY KEY (nope)"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("nope");
    }

    @Test
    void csvQuotingAndNulls() {
        assertThat(CsvLine.split("1,\"a, b\",,\"\",\"say \"\"hi\"\"\"", ',', 1))
                .containsExactly("1", "a, b", null, "", "say \"hi\"");
        assertThat(CsvLine.split("x", ',', 1)).containsExactly("x");
        assertThatThrownBy(() -> CsvLine.split("1,\"open", ',', 7))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("line 7");
    }

    @Test
    void valuesParseByTypeOrNameTheColumn() {
        assertThat(ValueParser.parse(new Column("d", DataTypes.DECIMAL(5, 2)), "1.5"))
                .isEqualTo(new BigDecimal("1.50"));
        assertThat(ValueParser.parse(new Column("d", DataTypes.DATE()), "2026-11-29"))
                .isEqualTo(LocalDate.of(2026, 11, 29));
        assertThat(ValueParser.parse(new Column("b", DataTypes.BOOLEAN()), "TRUE")).isEqualTo(true);
        assertThat((byte[]) ValueParser.parse(new Column("x", DataTypes.BYTES()), "AQI="))
                .satisfies(b -> assertThat(Arrays.equals(b, new byte[] {1, 2})).isTrue());
        assertThat(ValueParser.parse(new Column("n", DataTypes.INT()), (String) null)).isNull();
        assertThatThrownBy(() -> ValueParser.parse(new Column("n", DataTypes.INT()), "ten"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'ten'")
                .hasMessageContaining("'n'");
        assertThatThrownBy(
                        () -> ValueParser.parse(new Column("d", DataTypes.DECIMAL(5, 2)), "1.234"))
                .isInstanceOf(InvalidInputException.class);
    }

    @Test
    void changeOpsInBothNotations() {
        for (String upsert : new String[] {"+I", "+u", "insert", "UPDATE", " upsert "}) {
            assertThat(ChangeOp.parse(upsert, "op")).isEqualTo(WriteKind.UPSERT);
        }
        assertThat(ChangeOp.parse("-D", "op")).isEqualTo(WriteKind.DELETE);
        assertThat(ChangeOp.parse("Delete", "op")).isEqualTo(WriteKind.DELETE);
        assertThatThrownBy(() -> ChangeOp.parse("-U", "op"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("+U");
        assertThatThrownBy(() -> ChangeOp.parse("merge", "op"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'merge'")
                .hasMessageContaining("+I, +U, -D");
        assertThatThrownBy(() -> ChangeOp.parse(null, "op"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("empty");
    }
}

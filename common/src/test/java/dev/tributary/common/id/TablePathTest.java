package dev.tributary.common.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import org.junit.jupiter.api.Test;

class TablePathTest {
    @Test
    void parsesAndPrintsQualifiedNames() {
        TablePath p = TablePath.parse("shop.orders_2");
        assertThat(p.database()).isEqualTo("shop");
        assertThat(p.table()).isEqualTo("orders_2");
        assertThat(p).hasToString("shop.orders_2").isEqualTo(TablePath.of("shop", "orders_2"));
    }

    @Test
    void rejectsInvalidNames() {
        for (String bad :
                new String[] {"orders", "a.b.c", ".t", "db.", "db.1t", "db.t t", "d$.t"}) {
            assertThatThrownBy(() -> TablePath.parse(bad))
                    .as(bad)
                    .isInstanceOf(InvalidInputException.class);
        }
        assertThatThrownBy(() -> TablePath.of("db", "x".repeat(129)))
                .hasMessageContaining("1-128 letters");
    }

    @Test
    void bucketsOrderByTableThenBucket() {
        assertThat(new TableBucket(1, 5)).isLessThan(new TableBucket(2, 0));
        assertThat(new TableBucket(1, 0)).isLessThan(new TableBucket(1, 1));
        assertThatThrownBy(() -> new TableBucket(1, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

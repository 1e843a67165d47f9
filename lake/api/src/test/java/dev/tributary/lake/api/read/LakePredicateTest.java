package dev.tributary.lake.api.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.row.Row;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class LakePredicateTest {
    private static int pos(String c) {
        return List.of("a", "s", "d").indexOf(c);
    }

    private static boolean test(LakePredicate p, Object... values) {
        Predicate<Row> bound = p.bind(LakePredicateTest::pos);
        return bound.test(Row.of(values));
    }

    @Test
    void comparisonsFollowSqlThreeValuedLogic() {
        LakePredicate lt = LakePredicate.compare("a", LakePredicate.Op.LT, 10L);
        assertThat(test(lt, 5, "x", null)).isTrue();
        assertThat(test(lt, 10, "x", null)).isFalse();
        assertThat(test(lt, null, "x", null)).as("NULL < 10 is unknown").isFalse();
        assertThat(test(new LakePredicate.Not(lt), null, "x", null))
                .as("NOT unknown is unknown")
                .isFalse();
        assertThat(test(new LakePredicate.Not(lt), 12, "x", null)).isTrue();
        LakePredicate or = LakePredicate.or(List.of(lt, LakePredicate.equal("s", "y")));
        assertThat(test(or, null, "y", null)).as("unknown OR true").isTrue();
        assertThat(test(new LakePredicate.Not(or), null, "z", null))
                .as("NOT (unknown OR false)")
                .isFalse();
        LakePredicate and = LakePredicate.and(lt, LakePredicate.isNotNull("s"));
        assertThat(test(and, 1, null, null)).isFalse();
        assertThat(test(LakePredicate.isNull("s"), 1, null, null)).isTrue();
    }

    @Test
    void valuesCompareAcrossWidthsAndByValue() {
        assertThat(test(LakePredicate.equal("a", (short) 7), 7, "", null)).isTrue();
        assertThat(
                        test(
                                LakePredicate.equal("d", new BigDecimal("1.50")),
                                1,
                                "",
                                new BigDecimal("1.5")))
                .isTrue();
        assertThat(test(LakePredicate.compare("d", LakePredicate.Op.GT, 1.25), 1, "", 1.5))
                .isTrue();
        assertThat(
                        test(
                                LakePredicate.in("s", java.util.Arrays.asList("p", null, "q")),
                                1,
                                "q",
                                null))
                .isTrue();
        assertThat(test(LakePredicate.in("s", List.of("p")), 1, null, null)).isFalse();
        assertThatThrownBy(() -> test(LakePredicate.equal("s", 3), 1, "x", null))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("literal");
    }

    @Test
    void aColumnTheRowsLackIsRefusedAtBindTime() {
        assertThatThrownBy(() -> LakePredicate.equal("nope", 1).bind(LakePredicateTest::pos))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("nope");
    }

    @Test
    void columnsAreListedOnceAndPredicatesSurviveJavaSerialization() throws Exception {
        LakePredicate p =
                LakePredicate.and(
                        LakePredicate.equal("a", 1),
                        LakePredicate.or(
                                List.of(LakePredicate.isNull("s"), LakePredicate.equal("a", 2))));
        assertThat(p.columns()).containsExactly("a", "s");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(p);
        }
    }
}

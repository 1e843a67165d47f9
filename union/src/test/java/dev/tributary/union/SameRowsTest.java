package dev.tributary.union;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.row.Row;
import java.util.List;
import org.junit.jupiter.api.Test;

class SameRowsTest {
    private static final Row A = Row.of(1L, "a", new byte[] {1});
    private static final Row B = Row.of(2L, "b", new byte[] {2});

    @Test
    void theSameRowsInAnotherOrderPass() {
        assertThatCode(
                        () ->
                                SameRows.assertSameElements(
                                        List.of(A, B, A),
                                        List.of(Row.of(2L, "b", new byte[] {2}), A, A),
                                        "rows"))
                .doesNotThrowAnyException();
    }

    @Test
    void aRowMissingExtraOrTooOftenFails() {
        assertThatThrownBy(() -> SameRows.assertSameElements(List.of(A), List.of(A, B), "missing"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("missing");
        assertThatThrownBy(() -> SameRows.assertSameElements(List.of(A, B), List.of(A), "extra"))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(
                        () -> SameRows.assertSameElements(List.of(A, A, B), List.of(A, B, B), "x"))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> SameRows.assertSameElements(List.of(A, A), List.of(A), "twice"))
                .isInstanceOf(AssertionError.class);
    }
}

package dev.tributary.union;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * What AssertJ's {@code containsExactlyInAnyOrderElementsOf} asserts (the same elements, each as
 * often), in linear time: AssertJ searches the expected list for every actual element, which took
 * seconds per read of the tens of thousands of rows the union read tests compare. On a mismatch
 * AssertJ itself reports the difference.
 */
final class SameRows {
    private SameRows() {}

    /** Fails unless {@code actual} holds exactly the elements of {@code expected}, as often. */
    static <T> void assertSameElements(
            Collection<T> actual, Collection<T> expected, String description, Object... args) {
        if (!counts(actual).equals(counts(expected))) {
            assertThat(actual).as(description, args).containsExactlyInAnyOrderElementsOf(expected);
            fail("%s: the elements differ in their counts", String.format(description, args));
        }
    }

    private static <T> Map<T, Integer> counts(Collection<T> elements) {
        Map<T, Integer> counts = new HashMap<>();
        for (T e : elements) {
            counts.merge(e, 1, Integer::sum);
        }
        return counts;
    }
}

package dev.tributary.lake.api.read;

import dev.tributary.common.exception.InvalidInputException;
import java.math.BigDecimal;
import java.util.Arrays;

/** Comparison of Tributary field values, for evaluating {@link LakePredicate}s. */
final class LakeValues {
    private LakeValues() {}

    /**
     * Compares two non-null values of one column. Integral numbers compare across widths, decimals
     * by value (scale ignored), byte arrays unsigned lexicographically.
     *
     * @throws InvalidInputException when the classes cannot be compared
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(Object a, Object b) {
        if (isIntegral(a) && isIntegral(b)) {
            return Long.compare(((Number) a).longValue(), ((Number) b).longValue());
        }
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y);
        }
        if (isFloating(a) || isFloating(b)) {
            return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
        }
        if (a instanceof Number x && b instanceof Number y) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString()));
        }
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.compareUnsigned(x, y);
        }
        if (a.getClass() == b.getClass() && a instanceof Comparable c) {
            return c.compareTo(b);
        }
        throw new InvalidInputException(
                "cannot compare a "
                        + a.getClass().getSimpleName()
                        + " value with a "
                        + b.getClass().getSimpleName()
                        + " literal; use a literal of the column's type");
    }

    private static boolean isFloating(Object o) {
        return o instanceof Double || o instanceof Float;
    }

    private static boolean isIntegral(Object o) {
        return o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte;
    }
}

package dev.tributary.lake.api.read;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.row.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * A row filter over named columns (Tributary columns and the lake system columns of {@link
 * dev.tributary.lake.api.catalog.LakeSystemColumns}), in SQL's three-valued logic: a comparison
 * with NULL is not true, so the row is dropped. Literals use the Java classes of {@link
 * dev.tributary.common.types.DataTypeRoot} for the column's type.
 *
 * <p>Formats translate what they can into their own predicates to skip files and row groups; the
 * rest is checked row by row, so a {@link LakeReader} answers exactly. Immutable and serializable
 * (engines ship it to their readers).
 *
 * @since 0.1
 */
public sealed interface LakePredicate extends java.io.Serializable
        permits LakePredicate.Compare,
                LakePredicate.IsNull,
                LakePredicate.In,
                LakePredicate.And,
                LakePredicate.Or,
                LakePredicate.Not {

    /** Comparison operators. */
    enum Op {
        EQ,
        NOT_EQ,
        LT,
        LT_EQ,
        GT,
        GT_EQ
    }

    /** The columns this predicate reads, each once, in first-use order. */
    default List<String> columns() {
        List<String> out = new ArrayList<>();
        collect(this, out);
        return out;
    }

    /**
     * Binds the predicate to the positions of a row.
     *
     * @param positionOf the position of a column in the rows tested, or -1 if the row lacks it
     * @throws InvalidInputException naming a column the rows lack
     */
    default Predicate<Row> bind(ToIntFunction<String> positionOf) {
        return bindTo(this, positionOf);
    }

    /** {@code column op literal}; the literal is not null. */
    record Compare(String column, Op op, Object literal) implements LakePredicate {
        public Compare {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(literal, "literal (use IsNull for NULL)");
        }
    }

    /** {@code column IS NULL}, or {@code IS NOT NULL} when {@code negated}. */
    record IsNull(String column, boolean negated) implements LakePredicate {}

    /** {@code column IN (values)}; NULLs in the list never match. */
    record In(String column, List<Object> values) implements LakePredicate {
        public In {
            values = List.copyOf(values.stream().filter(Objects::nonNull).toList());
        }
    }

    /** Every child holds. */
    record And(List<LakePredicate> children) implements LakePredicate {
        public And {
            children = List.copyOf(children);
        }
    }

    /** At least one child holds. */
    record Or(List<LakePredicate> children) implements LakePredicate {
        public Or {
            children = List.copyOf(children);
        }
    }

    /** The child does not hold (a NULL comparison stays not true: {@code NOT (x = NULL)} drops). */
    record Not(LakePredicate child) implements LakePredicate {}

    static LakePredicate equal(String column, Object literal) {
        return new Compare(column, Op.EQ, literal);
    }

    static LakePredicate compare(String column, Op op, Object literal) {
        return new Compare(column, op, literal);
    }

    static LakePredicate isNull(String column) {
        return new IsNull(column, false);
    }

    static LakePredicate isNotNull(String column) {
        return new IsNull(column, true);
    }

    static LakePredicate in(String column, List<Object> values) {
        return new In(column, values);
    }

    /** The conjunction; a single predicate stays itself, none is {@code null} (no filter). */
    static LakePredicate and(List<LakePredicate> children) {
        List<LakePredicate> flat = children.stream().filter(Objects::nonNull).toList();
        if (flat.isEmpty()) {
            return null;
        }
        return flat.size() == 1 ? flat.get(0) : new And(flat);
    }

    static LakePredicate and(LakePredicate... children) {
        return and(Arrays.asList(children));
    }

    static LakePredicate or(List<LakePredicate> children) {
        return children.size() == 1 ? children.get(0) : new Or(children);
    }

    private static void collect(LakePredicate p, List<String> out) {
        if (p instanceof Compare c) {
            add(out, c.column());
        } else if (p instanceof IsNull n) {
            add(out, n.column());
        } else if (p instanceof In in) {
            add(out, in.column());
        } else if (p instanceof And a) {
            a.children().forEach(ch -> collect(ch, out));
        } else if (p instanceof Or o) {
            o.children().forEach(ch -> collect(ch, out));
        } else if (p instanceof Not n) {
            collect(n.child(), out);
        }
    }

    private static void add(List<String> out, String column) {
        if (!out.contains(column)) {
            out.add(column);
        }
    }

    /** Evaluation in three-valued logic: null means UNKNOWN. */
    private static Predicate<Row> bindTo(LakePredicate p, ToIntFunction<String> positionOf) {
        Tri t = tri(p, positionOf);
        return row -> t.eval(row) == Boolean.TRUE;
    }

    /** A predicate returning TRUE, FALSE or null (UNKNOWN). */
    interface Tri {
        Boolean eval(Row row);
    }

    private static int position(String column, ToIntFunction<String> positionOf) {
        int i = positionOf.applyAsInt(column);
        if (i < 0) {
            throw new InvalidInputException(
                    "the filter reads column '" + column + "', which the rows read do not have");
        }
        return i;
    }

    private static Tri tri(LakePredicate p, ToIntFunction<String> positionOf) {
        if (p instanceof Compare c) {
            int i = position(c.column(), positionOf);
            Op op = c.op();
            Object lit = c.literal();
            return row -> {
                Object v = row.getField(i);
                if (v == null) {
                    return null;
                }
                int cmp = LakeValues.compare(v, lit);
                return switch (op) {
                    case EQ -> cmp == 0;
                    case NOT_EQ -> cmp != 0;
                    case LT -> cmp < 0;
                    case LT_EQ -> cmp <= 0;
                    case GT -> cmp > 0;
                    case GT_EQ -> cmp >= 0;
                };
            };
        }
        if (p instanceof IsNull n) {
            int i = position(n.column(), positionOf);
            boolean negated = n.negated();
            return row -> (row.getField(i) == null) != negated;
        }
        if (p instanceof In in) {
            int i = position(in.column(), positionOf);
            List<Object> values = in.values();
            return row -> {
                Object v = row.getField(i);
                if (v == null) {
                    return null;
                }
                for (Object candidate : values) {
                    if (LakeValues.compare(v, candidate) == 0) {
                        return true;
                    }
                }
                return false;
            };
        }
        if (p instanceof And a) {
            Tri[] children =
                    a.children().stream().map(ch -> tri(ch, positionOf)).toArray(Tri[]::new);
            return row -> {
                Boolean result = true;
                for (Tri ch : children) {
                    Boolean r = ch.eval(row);
                    if (r == Boolean.FALSE) {
                        return false;
                    }
                    if (r == null) {
                        result = null;
                    }
                }
                return result;
            };
        }
        if (p instanceof Or o) {
            Tri[] children =
                    o.children().stream().map(ch -> tri(ch, positionOf)).toArray(Tri[]::new);
            return row -> {
                Boolean result = false;
                for (Tri ch : children) {
                    Boolean r = ch.eval(row);
                    if (r == Boolean.TRUE) {
                        return true;
                    }
                    if (r == null) {
                        result = null;
                    }
                }
                return result;
            };
        }
        Tri child = tri(((Not) p).child(), positionOf);
        return row -> {
            Boolean r = child.eval(row);
            return r == null ? null : !r;
        };
    }
}

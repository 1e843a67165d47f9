package dev.tributary.lake.paimon;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypeRoot;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import dev.tributary.lake.api.read.LakePredicate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.types.RowType;

/**
 * Translates a {@link LakePredicate} into a Paimon predicate for skipping files and row groups. A
 * part that cannot be translated (a literal of an unexpected class, NOT) is left out of a
 * conjunction and drops a whole disjunction, so the result is implied by the input: it may keep
 * more rows, never fewer. The reader checks the exact filter afterwards.
 */
final class PaimonPredicates {
    private PaimonPredicates() {}

    static Optional<Predicate> toPaimon(LakePredicate p, RowType rowType, Schema schema) {
        if (p == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(convert(p, new PredicateBuilder(rowType), rowType, schema));
    }

    private static Predicate convert(
            LakePredicate p, PredicateBuilder b, RowType rowType, Schema schema) {
        try {
            if (p instanceof LakePredicate.Compare c) {
                int i = rowType.getFieldIndex(c.column());
                Object lit = literal(c.column(), c.literal(), schema);
                if (i < 0 || lit == null) {
                    return null;
                }
                return switch (c.op()) {
                    case EQ -> b.equal(i, lit);
                    case NOT_EQ -> b.notEqual(i, lit);
                    case LT -> b.lessThan(i, lit);
                    case LT_EQ -> b.lessOrEqual(i, lit);
                    case GT -> b.greaterThan(i, lit);
                    case GT_EQ -> b.greaterOrEqual(i, lit);
                };
            }
            if (p instanceof LakePredicate.IsNull n) {
                int i = rowType.getFieldIndex(n.column());
                return i < 0 ? null : (n.negated() ? b.isNotNull(i) : b.isNull(i));
            }
            if (p instanceof LakePredicate.In in) {
                int i = rowType.getFieldIndex(in.column());
                List<Object> values = new ArrayList<>();
                for (Object v : in.values()) {
                    Object lit = literal(in.column(), v, schema);
                    if (lit == null) {
                        return null;
                    }
                    values.add(lit);
                }
                return i < 0 || values.isEmpty() ? null : b.in(i, values);
            }
            if (p instanceof LakePredicate.And a) {
                List<Predicate> parts = new ArrayList<>();
                for (LakePredicate ch : a.children()) {
                    Predicate q = convert(ch, b, rowType, schema);
                    if (q != null) {
                        parts.add(q);
                    }
                }
                return parts.isEmpty() ? null : PredicateBuilder.and(parts);
            }
            if (p instanceof LakePredicate.Or o) {
                List<Predicate> parts = new ArrayList<>();
                for (LakePredicate ch : o.children()) {
                    Predicate q = convert(ch, b, rowType, schema);
                    if (q == null) {
                        return null;
                    }
                    parts.add(q);
                }
                return PredicateBuilder.or(parts);
            }
            // NOT: Paimon's negation of a leaf is not NULL-safe for our three-valued logic
            return null;
        } catch (RuntimeException e) {
            // Paimon refused the literal: skip the part, the exact check still applies it
            return null;
        }
    }

    /** The literal in Paimon's internal class, or null when its class does not fit the column. */
    private static Object literal(String column, Object value, Schema schema) {
        DataType type = columnType(column, schema);
        if (type == null) {
            return null;
        }
        Class<?> expected = type.root().javaClass();
        Object v = value;
        if (type.root() == DataTypeRoot.INT || type.root() == DataTypeRoot.BIGINT) {
            if (!(value instanceof Number n) || value instanceof Double || value instanceof Float) {
                return null;
            }
            v = type.root() == DataTypeRoot.INT ? (Object) n.intValue() : (Object) n.longValue();
            if (((Number) v).longValue() != n.longValue()) {
                return null;
            }
        } else if (!expected.isInstance(value)) {
            return null;
        }
        return PaimonValues.converterFor(type).convert(v);
    }

    private static DataType columnType(String column, Schema schema) {
        return switch (column) {
            case LakeSystemColumns.BUCKET -> DataTypes.INT();
            case LakeSystemColumns.OFFSET -> DataTypes.BIGINT();
            case LakeSystemColumns.TIMESTAMP -> null;
            default ->
                    schema.columnNames().contains(column)
                            ? schema.typeAt(schema.indexOf(column))
                            : null;
        };
    }
}

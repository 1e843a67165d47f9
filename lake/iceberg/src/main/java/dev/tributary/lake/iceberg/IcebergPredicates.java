package dev.tributary.lake.iceberg;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import dev.tributary.lake.api.read.LakePredicate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * Translates a {@link LakePredicate} into an Iceberg expression, so Iceberg's planning prunes
 * partitions ({@code bucket[N](key)} included: an equality on the key prunes to one partition, T37)
 * and files by their column metrics. Only literals whose Iceberg form is unambiguous are translated
 * (booleans, integers, floating point, decimals, strings); a part that cannot be translated is left
 * out of a conjunction and drops a whole disjunction, so the result may keep more rows, never
 * fewer. The reader checks the exact filter afterwards.
 */
final class IcebergPredicates {
    private IcebergPredicates() {}

    static Optional<Expression> toIceberg(
            LakePredicate p, Schema lakeSchema, dev.tributary.common.types.Schema schema) {
        if (p == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(convert(p, lakeSchema, schema));
    }

    private static Expression convert(
            LakePredicate p, Schema lakeSchema, dev.tributary.common.types.Schema schema) {
        if (p instanceof LakePredicate.Compare c) {
            Object lit = literal(c.column(), c.literal(), lakeSchema, schema);
            if (lit == null) {
                return null;
            }
            String n = c.column();
            return switch (c.op()) {
                case EQ -> Expressions.equal(n, lit);
                case NOT_EQ -> Expressions.notEqual(n, lit);
                case LT -> Expressions.lessThan(n, lit);
                case LT_EQ -> Expressions.lessThanOrEqual(n, lit);
                case GT -> Expressions.greaterThan(n, lit);
                case GT_EQ -> Expressions.greaterThanOrEqual(n, lit);
            };
        }
        if (p instanceof LakePredicate.IsNull n) {
            if (lakeSchema.findField(n.column()) == null) {
                return null;
            }
            return n.negated() ? Expressions.notNull(n.column()) : Expressions.isNull(n.column());
        }
        if (p instanceof LakePredicate.In in) {
            List<Object> values = new ArrayList<>();
            for (Object v : in.values()) {
                Object lit = literal(in.column(), v, lakeSchema, schema);
                if (lit == null) {
                    return null;
                }
                values.add(lit);
            }
            return values.isEmpty() ? null : Expressions.in(in.column(), values);
        }
        if (p instanceof LakePredicate.And a) {
            Expression out = null;
            for (LakePredicate ch : a.children()) {
                Expression e = convert(ch, lakeSchema, schema);
                if (e != null) {
                    out = out == null ? e : Expressions.and(out, e);
                }
            }
            return out;
        }
        if (p instanceof LakePredicate.Or o) {
            Expression out = null;
            for (LakePredicate ch : o.children()) {
                Expression e = convert(ch, lakeSchema, schema);
                if (e == null) {
                    return null;
                }
                out = out == null ? e : Expressions.or(out, e);
            }
            return out;
        }
        // NOT is left to the exact check
        return null;
    }

    private static Object literal(
            String column,
            Object value,
            Schema lakeSchema,
            dev.tributary.common.types.Schema schema) {
        if (lakeSchema.findField(column) == null) {
            return null;
        }
        DataType type =
                switch (column) {
                    case LakeSystemColumns.BUCKET -> DataTypes.INT();
                    case LakeSystemColumns.OFFSET -> DataTypes.BIGINT();
                    case LakeSystemColumns.TIMESTAMP -> null;
                    default ->
                            schema.columnNames().contains(column)
                                    ? schema.typeAt(schema.indexOf(column))
                                    : null;
                };
        if (type == null) {
            return null;
        }
        return switch (type.root()) {
            case BOOLEAN -> value instanceof Boolean ? value : null;
            case TINYINT, SMALLINT, INT ->
                    integral(value) && ((Number) value).longValue() == ((Number) value).intValue()
                            ? (Object) ((Number) value).intValue()
                            : null;
            case BIGINT -> integral(value) ? (Object) ((Number) value).longValue() : null;
            case FLOAT -> value instanceof Float ? value : null;
            case DOUBLE -> value instanceof Double ? value : null;
            case DECIMAL ->
                    value instanceof BigDecimal d && d.scale() <= type.scale()
                            ? d.setScale(type.scale())
                            : null;
            case STRING -> value instanceof String ? value : null;
            default -> null;
        };
    }

    private static boolean integral(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
    }
}

package dev.tributary.flink.source;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.Schema;
import dev.tributary.flink.types.RowConverter;
import dev.tributary.lake.api.read.LakePredicate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;

/**
 * Translates Flink filter expressions into {@link LakePredicate}s: comparisons of a column with a
 * literal (either side), IS [NOT] NULL, IN, AND, OR, NOT. Anything else is not translated; the
 * source still tells Flink to evaluate every filter itself, so a translation only prunes.
 */
final class FilterTranslator {
    private FilterTranslator() {}

    static Optional<LakePredicate> translate(ResolvedExpression e, Schema schema) {
        try {
            return Optional.ofNullable(convert(e, schema));
        } catch (RuntimeException unsupported) {
            return Optional.empty();
        }
    }

    private static LakePredicate convert(ResolvedExpression e, Schema schema) {
        if (!(e instanceof CallExpression call)) {
            return null;
        }
        FunctionDefinition f = call.getFunctionDefinition();
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (f == BuiltInFunctionDefinitions.AND || f == BuiltInFunctionDefinitions.OR) {
            List<LakePredicate> children = new ArrayList<>();
            for (ResolvedExpression a : args) {
                LakePredicate p = convert(a, schema);
                if (p == null) {
                    return null;
                }
                children.add(p);
            }
            return f == BuiltInFunctionDefinitions.AND
                    ? LakePredicate.and(children)
                    : LakePredicate.or(children);
        }
        if (f == BuiltInFunctionDefinitions.NOT) {
            LakePredicate p = convert(args.get(0), schema);
            return p == null ? null : new LakePredicate.Not(p);
        }
        if (f == BuiltInFunctionDefinitions.IS_NULL
                || f == BuiltInFunctionDefinitions.IS_NOT_NULL) {
            if (args.get(0) instanceof FieldReferenceExpression ref) {
                return f == BuiltInFunctionDefinitions.IS_NULL
                        ? LakePredicate.isNull(ref.getName())
                        : LakePredicate.isNotNull(ref.getName());
            }
            return null;
        }
        if (f == BuiltInFunctionDefinitions.IN) {
            if (!(args.get(0) instanceof FieldReferenceExpression ref)) {
                return null;
            }
            List<Object> values = new ArrayList<>();
            for (int i = 1; i < args.size(); i++) {
                Object v = literal(args.get(i), ref.getName(), schema);
                if (v == null) {
                    return null;
                }
                values.add(v);
            }
            return LakePredicate.in(ref.getName(), values);
        }
        LakePredicate.Op op = opOf(f);
        if (op == null || args.size() != 2) {
            return null;
        }
        if (args.get(0) instanceof FieldReferenceExpression ref
                && args.get(1) instanceof ValueLiteralExpression) {
            Object v = literal(args.get(1), ref.getName(), schema);
            return v == null ? null : LakePredicate.compare(ref.getName(), op, v);
        }
        if (args.get(1) instanceof FieldReferenceExpression ref
                && args.get(0) instanceof ValueLiteralExpression) {
            Object v = literal(args.get(0), ref.getName(), schema);
            return v == null ? null : LakePredicate.compare(ref.getName(), flip(op), v);
        }
        return null;
    }

    private static LakePredicate.Op opOf(FunctionDefinition f) {
        if (f == BuiltInFunctionDefinitions.EQUALS) {
            return LakePredicate.Op.EQ;
        } else if (f == BuiltInFunctionDefinitions.NOT_EQUALS) {
            return LakePredicate.Op.NOT_EQ;
        } else if (f == BuiltInFunctionDefinitions.LESS_THAN) {
            return LakePredicate.Op.LT;
        } else if (f == BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL) {
            return LakePredicate.Op.LT_EQ;
        } else if (f == BuiltInFunctionDefinitions.GREATER_THAN) {
            return LakePredicate.Op.GT;
        } else if (f == BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL) {
            return LakePredicate.Op.GT_EQ;
        }
        return null;
    }

    private static LakePredicate.Op flip(LakePredicate.Op op) {
        return switch (op) {
            case LT -> LakePredicate.Op.GT;
            case LT_EQ -> LakePredicate.Op.GT_EQ;
            case GT -> LakePredicate.Op.LT;
            case GT_EQ -> LakePredicate.Op.LT_EQ;
            default -> op;
        };
    }

    /** The literal as the column type's Tributary class; null when absent or not convertible. */
    private static Object literal(ResolvedExpression e, String column, Schema schema) {
        if (!(e instanceof ValueLiteralExpression lit) || !schema.columnNames().contains(column)) {
            return null;
        }
        DataType type = schema.typeAt(schema.indexOf(column));
        Class<?> wanted =
                switch (type.root()) {
                    case STRING -> String.class;
                    case DECIMAL -> java.math.BigDecimal.class;
                    case DATE -> java.time.LocalDate.class;
                    case TIME -> java.time.LocalTime.class;
                    case TIMESTAMP -> java.time.LocalDateTime.class;
                    case TIMESTAMP_LTZ -> java.time.Instant.class;
                    case BYTES -> byte[].class;
                    case BOOLEAN -> Boolean.class;
                    default -> null;
                };
        Object v;
        if (wanted != null) {
            v = lit.getValueAs(wanted).orElse(null);
        } else {
            // numbers: whatever class the literal has, then the column's class; a literal that
            // does not fit the column (2.5 against an INT) is not translated
            Object n = lit.getValueAs(Object.class).orElse(null);
            if (!(n instanceof Number num)) {
                return null;
            }
            v = RowConverter.fromInternalValue(type, num);
            if (!(num instanceof Double
                            || num instanceof Float
                            || num instanceof java.math.BigDecimal)
                    && ((Number) v).longValue() != num.longValue()) {
                return null;
            }
            if ((num instanceof Double
                            || num instanceof Float
                            || num instanceof java.math.BigDecimal)
                    && type.root() != dev.tributary.common.types.DataTypeRoot.FLOAT
                    && type.root() != dev.tributary.common.types.DataTypeRoot.DOUBLE) {
                return null;
            }
        }
        return v;
    }
}

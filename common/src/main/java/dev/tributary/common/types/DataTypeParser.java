package dev.tributary.common.types;

import dev.tributary.common.exception.InvalidInputException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the SQL-like type strings printed by {@link DataType#asSummaryString()}, case-insensitive:
 * {@code INT}, {@code DECIMAL(10, 2)}, {@code TIMESTAMP(6)}, {@code STRING NOT NULL}. {@code
 * TIMESTAMP} and {@code TIMESTAMP_LTZ} without precision mean precision 6 and 3 respectively;
 * {@code VARCHAR} is accepted for STRING.
 */
public final class DataTypeParser {
    private static final Pattern FORM =
            Pattern.compile(
                    "([A-Z_]+)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?\\s*(NOT\\s+NULL|NULL)?");

    private DataTypeParser() {}

    public static DataType parse(String text) {
        Matcher m = FORM.matcher(text.trim().toUpperCase(Locale.ROOT));
        if (!m.matches()) {
            throw invalid(text);
        }
        String name = m.group(1);
        Integer p = m.group(2) == null ? null : Integer.valueOf(m.group(2));
        Integer s = m.group(3) == null ? null : Integer.valueOf(m.group(3));
        boolean notNull = m.group(4) != null && m.group(4).startsWith("NOT");
        DataType type;
        switch (name) {
            case "DECIMAL":
                type = DataTypes.DECIMAL(p == null ? 10 : p, s == null ? 0 : s);
                break;
            case "TIMESTAMP":
                type = DataTypes.TIMESTAMP(p == null ? 6 : p);
                break;
            case "TIMESTAMP_LTZ":
                type = DataTypes.TIMESTAMP_LTZ(p == null ? 3 : p);
                break;
            default:
                if (p != null) {
                    throw invalid(text);
                }
                type = simple(name, text);
        }
        return notNull ? type.notNull() : type;
    }

    private static DataType simple(String name, String text) {
        switch (name) {
            case "BOOLEAN":
                return DataTypes.BOOLEAN();
            case "TINYINT":
                return DataTypes.TINYINT();
            case "SMALLINT":
                return DataTypes.SMALLINT();
            case "INT":
            case "INTEGER":
                return DataTypes.INT();
            case "BIGINT":
                return DataTypes.BIGINT();
            case "FLOAT":
                return DataTypes.FLOAT();
            case "DOUBLE":
                return DataTypes.DOUBLE();
            case "STRING":
            case "VARCHAR":
                return DataTypes.STRING();
            case "BYTES":
                return DataTypes.BYTES();
            case "DATE":
                return DataTypes.DATE();
            case "TIME":
                return DataTypes.TIME();
            default:
                throw invalid(text);
        }
    }

    private static InvalidInputException invalid(String text) {
        return new InvalidInputException(
                "unknown type '"
                        + text
                        + "': expected one of BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE,"
                        + " DECIMAL(p, s), STRING, BYTES, DATE, TIME, TIMESTAMP(p), TIMESTAMP_LTZ(p),"
                        + " optionally followed by NOT NULL");
    }
}

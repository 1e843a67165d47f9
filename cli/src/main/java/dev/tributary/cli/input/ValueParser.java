package dev.tributary.cli.input;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Base64;

/** Turns text (CSV fields, JSON values, lookup keys) into values of a column's type. */
public final class ValueParser {
    private ValueParser() {}

    /** Parses {@code text}; null stays null (SQL NULL). */
    public static Object parse(Column column, String text) {
        if (text == null) {
            return null;
        }
        DataType type = column.type();
        try {
            switch (type.root()) {
                case BOOLEAN:
                    if (text.equalsIgnoreCase("true")) {
                        return true;
                    }
                    if (text.equalsIgnoreCase("false")) {
                        return false;
                    }
                    throw new IllegalArgumentException("not true or false");
                case TINYINT:
                    return Byte.parseByte(text.trim());
                case SMALLINT:
                    return Short.parseShort(text.trim());
                case INT:
                    return Integer.parseInt(text.trim());
                case BIGINT:
                    return Long.parseLong(text.trim());
                case FLOAT:
                    return Float.parseFloat(text.trim());
                case DOUBLE:
                    return Double.parseDouble(text.trim());
                case DECIMAL:
                    return new BigDecimal(text.trim())
                            .setScale(type.scale(), RoundingMode.UNNECESSARY);
                case STRING:
                    return text;
                case BYTES:
                    return Base64.getDecoder().decode(text.trim());
                case DATE:
                    return LocalDate.parse(text.trim());
                case TIME:
                    return LocalTime.parse(text.trim());
                case TIMESTAMP:
                    return LocalDateTime.parse(text.trim().replace(' ', 'T'));
                case TIMESTAMP_LTZ:
                    return Instant.parse(text.trim());
                default:
                    throw new IllegalArgumentException("unsupported type");
            }
        } catch (RuntimeException e) {
            throw new InvalidInputException(
                    "invalid value '"
                            + text
                            + "' for column '"
                            + column.name()
                            + "' ("
                            + type
                            + ")"
                            + (e.getMessage() == null ? "" : ": " + e.getMessage()),
                    e);
        }
    }

    /** Parses a JSON value; JSON null and a missing field are NULL. */
    public static Object parse(Column column, JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        return parse(column, node.isValueNode() ? node.asText() : node.toString());
    }
}

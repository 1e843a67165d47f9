package dev.tributary.cli.input;

import dev.tributary.common.exception.InvalidInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits one CSV line (RFC 4180 quoting: {@code "a,b"}, {@code ""} for a quote). An empty unquoted
 * field is NULL; an empty quoted field is the empty string.
 */
public final class CsvLine {
    private CsvLine() {}

    public static List<String> split(String line, char separator, long lineNumber) {
        List<String> out = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(c);
                }
            } else if (c == '"' && field.length() == 0) {
                quoted = true;
                wasQuoted = true;
            } else if (c == separator) {
                out.add(field.length() == 0 && !wasQuoted ? null : field.toString());
                field.setLength(0);
                wasQuoted = false;
            } else {
                field.append(c);
            }
        }
        if (quoted) {
            throw new InvalidInputException("line " + lineNumber + ": unterminated quoted field");
        }
        out.add(field.length() == 0 && !wasQuoted ? null : field.toString());
        return out;
    }
}

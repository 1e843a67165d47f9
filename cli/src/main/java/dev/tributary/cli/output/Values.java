package dev.tributary.cli.output;

import dev.tributary.common.row.Row;
import java.util.Base64;

/** Prints rows as tab-separated values (NULL for null, base64 for bytes). */
public final class Values {
    private Values() {}

    public static String format(Row row) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < row.arity(); i++) {
            if (i > 0) {
                sb.append('\t');
            }
            Object v = row.getField(i);
            sb.append(
                    v == null
                            ? "NULL"
                            : v instanceof byte[] b
                                    ? Base64.getEncoder().encodeToString(b)
                                    : v.toString());
        }
        return sb.toString();
    }
}

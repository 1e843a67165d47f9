package dev.tributary.server.http;

import dev.tributary.common.exception.InvalidInputException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The query string of an HTTP request, checked against the parameters the endpoint knows. */
final class QueryParams {
    private QueryParams() {}

    /**
     * Decodes {@code rawQuery} ({@code null} for none).
     *
     * @param path the endpoint, for the error message
     * @throws InvalidInputException for a parameter outside {@code allowed}, a repeated one or a
     *     badly encoded one
     */
    static Map<String, String> parse(String rawQuery, String path, Set<String> allowed) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return Collections.emptyMap();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq), path);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), path);
            if (!allowed.contains(key)) {
                throw new InvalidInputException(
                        "unknown query parameter '"
                                + key
                                + "' for "
                                + path
                                + "; it accepts "
                                + (allowed.isEmpty() ? "none" : String.join(", ", allowed)));
            }
            if (out.put(key, value) != null) {
                throw new InvalidInputException(
                        "query parameter '" + key + "' given twice for " + path + "; give it once");
            }
        }
        return out;
    }

    private static String decode(String s, String path) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(
                    "badly encoded query string for " + path + " ('" + s + "'): " + e.getMessage(),
                    e);
        }
    }
}

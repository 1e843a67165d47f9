package dev.tributary.server.status;

import dev.tributary.common.exception.InvalidInputException;
import java.util.List;
import java.util.Map;

/**
 * A page of the lake tables (ordered by name) that a status call answers: {@code offset} tables
 * skipped, at most {@code limit} shown. Pages keep {@code /api/tiering} and the console's refresh
 * bounded however many tables the server holds; every table is reached by paging.
 *
 * @param offset tables skipped, {@code >= 0}
 * @param limit tables shown at most, 1 to {@link #MAX_LIMIT}
 */
public record PageRequest(int offset, int limit) {
    /** Tables per page when the caller gives no {@code limit}. */
    public static final int DEFAULT_LIMIT = 50;

    /** The largest {@code limit} accepted. */
    public static final int MAX_LIMIT = 200;

    /** The first page, of {@link #DEFAULT_LIMIT} tables. */
    public static final PageRequest FIRST = new PageRequest(0, DEFAULT_LIMIT);

    public PageRequest {
        if (offset < 0 || limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("offset " + offset + ", limit " + limit);
        }
    }

    /**
     * The page a query asks for with {@code offset=} and {@code limit=} (both optional).
     *
     * @param where the endpoint, for the error message
     * @throws InvalidInputException for a value that is not a number in range
     */
    public static PageRequest of(Map<String, String> query, String where) {
        int offset = number(query, "offset", 0, 0, Integer.MAX_VALUE, where);
        int limit = number(query, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT, where);
        return new PageRequest(offset, limit);
    }

    private static int number(
            Map<String, String> query, String key, int dflt, int min, int max, String where) {
        String s = query.get(key);
        if (s == null) {
            return dflt;
        }
        long v;
        try {
            v = Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            v = Long.MIN_VALUE;
        }
        if (v < min || v > max) {
            throw new InvalidInputException(
                    key
                            + "='"
                            + s
                            + "' for "
                            + where
                            + " is not a whole number from "
                            + min
                            + " to "
                            + max
                            + (key.equals("limit")
                                    ? " (tables per page; default " + DEFAULT_LIMIT + ")"
                                    : " (tables to skip; default 0)"));
        }
        return (int) v;
    }

    /** This page of {@code all}. */
    public <T> List<T> of(List<T> all) {
        int from = Math.min(offset, all.size());
        int to = (int) Math.min(all.size(), (long) from + limit);
        return all.subList(from, to);
    }
}

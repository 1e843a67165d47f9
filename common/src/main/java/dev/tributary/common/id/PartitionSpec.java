package dev.tributary.common.id;

import dev.tributary.common.exception.InvalidInputException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The values of one partition, in the table's partition-key order, and its Hive-style name: {@code
 * dt=2026-12-01} or {@code dt=2026-12-01/region=eu}. In a name, every character of a key or value
 * other than letters, digits, {@code -}, {@code _} and {@code .} is written as {@code %XX} (its
 * UTF-8 bytes in hex), so a name is one path segment per key, reads back to the same values, and
 * two partitions have equal names exactly when their values are equal.
 *
 * <p>Values are strings here; {@code PartitionRouter} gives them their column types.
 */
public final class PartitionSpec {
    private final List<String> keys;
    private final List<String> values;
    private final String name;

    private PartitionSpec(List<String> keys, List<String> values) {
        if (keys.isEmpty() || keys.size() != values.size()) {
            throw new IllegalArgumentException(
                    "a partition needs one value per partition key: " + keys + " / " + values);
        }
        this.keys = List.copyOf(keys);
        this.values = List.copyOf(values);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                sb.append('/');
            }
            escape(keys.get(i), sb);
            sb.append('=');
            escape(values.get(i), sb);
        }
        this.name = sb.toString();
    }

    /** The partition with these values for these keys (same order, same size). */
    public static PartitionSpec of(List<String> keys, List<String> values) {
        for (String v : values) {
            Objects.requireNonNull(v, "partition value");
        }
        return new PartitionSpec(keys, values);
    }

    /** A partition of a table with one partition key. */
    public static PartitionSpec of(String key, String value) {
        return of(List.of(key), List.of(value));
    }

    /**
     * Parses a name as written by {@link #name()}: {@code k1=v1[/k2=v2...]}. Commas are accepted
     * between pairs too ({@code dt=2026-12-01,region=eu}), as users type them on a command line.
     *
     * @throws InvalidInputException when the text is not a list of {@code key=value} pairs
     */
    public static PartitionSpec parse(String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidInputException(
                    "empty partition: expected key=value pairs, e.g. dt=2026-12-01");
        }
        List<String> keys = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (String pair : text.trim().split("[/,]")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new InvalidInputException(
                        "invalid partition '"
                                + text
                                + "': expected key=value pairs separated by '/', e.g."
                                + " dt=2026-12-01 or dt=2026-12-01/region=eu");
            }
            keys.add(unescape(pair.substring(0, eq).trim(), text));
            values.add(unescape(pair.substring(eq + 1).trim(), text));
        }
        return new PartitionSpec(keys, values);
    }

    /** The partition keys, in the table's order. */
    public List<String> keys() {
        return keys;
    }

    /** The values as strings, in key order. */
    public List<String> values() {
        return values;
    }

    /** The value of one key, or {@code null} when the key is not one of this partition's. */
    public String value(String key) {
        int i = keys.indexOf(key);
        return i < 0 ? null : values.get(i);
    }

    /** Key to value, in key order. */
    public Map<String, String> asMap() {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            out.put(keys.get(i), values.get(i));
        }
        return Collections.unmodifiableMap(out);
    }

    /** The Hive-style name, e.g. {@code dt=2026-12-01}. */
    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionSpec p && p.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }

    private static boolean plain(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '_'
                || c == '.';
    }

    private static void escape(String s, StringBuilder out) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (plain(c)) {
                out.append(c);
                continue;
            }
            int end = i + 1;
            if (Character.isHighSurrogate(c) && end < s.length()) {
                end++;
            }
            for (byte b : s.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit((b >> 4) & 15, 16)));
                out.append(Character.toUpperCase(Character.forDigit(b & 15, 16)));
            }
            i = end - 1;
        }
    }

    private static String unescape(String s, String whole) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '%') {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
                continue;
            }
            int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
            int lo = i + 2 < s.length() ? Character.digit(s.charAt(i + 2), 16) : -1;
            if (hi < 0 || lo < 0) {
                throw new InvalidInputException(
                        "invalid partition '"
                                + whole
                                + "': '%' must be followed by two hex digits (an escaped"
                                + " character)");
            }
            bytes.write(hi * 16 + lo);
            i += 2;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}

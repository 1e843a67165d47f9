package dev.tributary.common.config;

import dev.tributary.common.exception.InvalidConfigException;
import java.util.Map;
import java.util.Optional;

/**
 * Checks table properties against {@link TableOptions} on CREATE and ALTER: a {@code table.*} key
 * must be a declared option or a lake-format pass-through key ({@link
 * TableOptions#lakePassThroughPrefix}), and a declared option's value must parse as its type. Other
 * keys are the user's own and pass unchecked. Stored tables are not re-checked: a table created
 * before a key was refused still loads ({@link TableConfig#warnings()}).
 */
public final class TableOptionsValidator {
    private static final int MAX_SUGGESTED_KEY_LENGTH = 256;

    private TableOptionsValidator() {}

    /**
     * Checks every property of a new table.
     *
     * @throws InvalidConfigException naming the first unknown key (and the closest known one) or
     *     the first value that does not parse (with the expected form)
     */
    public static void validate(Map<String, String> properties) {
        properties.forEach(TableOptionsValidator::validate);
    }

    /**
     * Checks one property being set.
     *
     * @throws InvalidConfigException as {@link #validate(Map)}
     */
    public static void validate(String key, String value) {
        if (!key.startsWith(TableOptions.PREFIX) || TableOptions.isLakePassThrough(key)) {
            return;
        }
        ConfigOption<?> option =
                TableOptions.find(key).orElseThrow(() -> new InvalidConfigException(unknown(key)));
        option.parse(value);
    }

    /** The message for an unknown {@code table.*} key, with the closest known key if close. */
    static String unknown(String key) {
        Optional<String> closest = closestKey(key);
        if (closest.isPresent()) {
            return "unknown table option '" + key + "'; did you mean '" + closest.get() + "'?";
        }
        return "unknown table option '"
                + key
                + "': keys under 'table.' are Tributary's table options (see 'Table options'"
                + " in the README), or the lake format's own table properties under '"
                + TableOptions.lakePassThroughPrefix("paimon")
                + "' or '"
                + TableOptions.lakePassThroughPrefix("iceberg")
                + "'";
    }

    /**
     * The declared key nearest to {@code key} by edit distance, when it is close enough to be a
     * typo: at most 3 edits and at most a quarter of the key's length.
     */
    public static Optional<String> closestKey(String key) {
        if (key.length() > MAX_SUGGESTED_KEY_LENGTH) {
            // no typo of a declared key is this long; and the distance costs length x length
            return Optional.empty();
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (ConfigOption<?> option : TableOptions.all()) {
            int d = editDistance(key, option.key());
            if (d < bestDistance) {
                best = option.key();
                bestDistance = d;
            }
        }
        int limit = Math.min(3, Math.max(1, key.length() / 4));
        return bestDistance <= limit ? Optional.of(best) : Optional.empty();
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character. */
    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(substitute, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}

package dev.tributary.common.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints durations like {@code 500ms}, {@code 30s}, {@code 3min}, {@code 1h}, {@code
 * 7d}.
 */
public final class Durations {
    private static final Pattern FORM = Pattern.compile("(\\d+)\\s*([a-z]*)");

    private Durations() {}

    public static Duration parse(String text) {
        Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration");
        }
        long n = Long.parseLong(m.group(1));
        switch (m.group(2)) {
            case "ns":
                return Duration.ofNanos(n);
            case "us":
                return Duration.ofNanos(Math.multiplyExact(n, 1000L));
            case "":
            case "ms":
                return Duration.ofMillis(n);
            case "s":
            case "sec":
                return Duration.ofSeconds(n);
            case "m":
            case "min":
                return Duration.ofMinutes(n);
            case "h":
                return Duration.ofHours(n);
            case "d":
                return Duration.ofDays(n);
            default:
                throw new IllegalArgumentException("unknown unit '" + m.group(2) + "'");
        }
    }

    /** The shortest exact form: {@code 3min}, {@code 90s}, {@code 1500ms}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (Duration.ofMillis(ms).equals(d)) {
            if (ms != 0 && ms % 86_400_000L == 0) {
                return ms / 86_400_000L + "d";
            }
            if (ms != 0 && ms % 3_600_000L == 0) {
                return ms / 3_600_000L + "h";
            }
            if (ms != 0 && ms % 60_000L == 0) {
                return ms / 60_000L + "min";
            }
            if (ms % 1000L == 0) {
                return ms / 1000L + "s";
            }
            return ms + "ms";
        }
        return d.toNanos() + "ns";
    }
}

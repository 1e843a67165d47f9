package dev.tributary.planner.yaml;

import dev.tributary.common.exception.InvalidInputException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints the quantities of a workload file: durations ({@code 250ms}, {@code 1.5s},
 * {@code 2min}, {@code 1h}), sizes ({@code 100B}, {@code 36GB}, {@code 2GiB}: KB/MB/GB/TB are
 * powers of 1000, KiB/MiB/GiB/TiB of 1024), byte rates ({@code 30MB/s}) and record rates ({@code
 * 50000/s}).
 */
public final class Quantities {
    private static final Pattern NUMBER_UNIT =
            Pattern.compile("([0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\\s*([a-zA-Z]*)");

    private Quantities() {}

    /**
     * @throws InvalidInputException naming {@code what} and the expected form
     */
    public static Duration duration(String text, String what) {
        Matcher m = match(text, what, "a duration like 250ms, 1.5s, 2min or 1h");
        double n = Double.parseDouble(m.group(1));
        double millis =
                switch (m.group(2).toLowerCase(Locale.ROOT)) {
                    case "ms" -> n;
                    case "s", "sec" -> n * 1000;
                    case "m", "min" -> n * 60_000;
                    case "h" -> n * 3_600_000;
                    case "d" -> n * 86_400_000;
                    default ->
                            throw invalid(text, what, "a duration with a unit: ms, s, min, h or d");
                };
        return Duration.ofMillis(Math.round(millis));
    }

    public static long bytes(String text, String what) {
        Matcher m = match(text, what, "a size like 100B, 64KB, 36GB or 2GiB");
        return Math.round(Double.parseDouble(m.group(1)) * sizeUnit(m.group(2), text, what));
    }

    /** A byte rate, {@code <size>/s}. */
    public static double bytesPerSecond(String text, String what) {
        String t = text.trim();
        if (!t.endsWith("/s")) {
            throw invalid(text, what, "a byte rate like 30MB/s");
        }
        Matcher m = match(t.substring(0, t.length() - 2), what, "a byte rate like 30MB/s");
        return Double.parseDouble(m.group(1)) * sizeUnit(m.group(2), text, what);
    }

    /** A count per second, {@code <n>/s}. */
    public static double perSecond(String text, String what) {
        String t = text.trim();
        if (!t.endsWith("/s")) {
            throw invalid(text, what, "a rate like 50000/s");
        }
        Matcher m = match(t.substring(0, t.length() - 2), what, "a rate like 50000/s");
        if (!m.group(2).isEmpty()) {
            throw invalid(text, what, "a rate like 50000/s (records per second, no unit)");
        }
        return Double.parseDouble(m.group(1));
    }

    private static double sizeUnit(String unit, String text, String what) {
        return switch (unit) {
            case "B" -> 1;
            case "KB" -> 1e3;
            case "MB" -> 1e6;
            case "GB" -> 1e9;
            case "TB" -> 1e12;
            case "KiB" -> 1024.0;
            case "MiB" -> 1024.0 * 1024;
            case "GiB" -> 1024.0 * 1024 * 1024;
            case "TiB" -> 1024.0 * 1024 * 1024 * 1024;
            default ->
                    throw invalid(
                            text,
                            what,
                            "a size unit: B, KB, MB, GB, TB (x1000) or KiB, MiB, GiB, TiB");
        };
    }

    private static Matcher match(String text, String what, String expected) {
        Matcher m = NUMBER_UNIT.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw invalid(text, what, expected);
        }
        return m;
    }

    private static InvalidInputException invalid(String text, String what, String expected) {
        return new InvalidInputException(what + ": '" + text + "' is not " + expected);
    }

    /**
     * {@code 1.5s}, {@code 250ms}, {@code 2min}: exact, in the largest unit that keeps it short.
     */
    public static String formatDuration(Duration d) {
        long ms = d.toMillis();
        if (ms != 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms != 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "min";
        }
        if (ms >= 1000) {
            return plain(ms / 1000.0) + "s";
        }
        return ms + "ms";
    }

    /** For people rather than files: three significant digits, e.g. {@code 7.73MB/s}. */
    public static String shortBytesPerSecond(double bytesPerSecond) {
        return shortBytes(bytesPerSecond) + "/s";
    }

    /** For people rather than files: three significant digits, e.g. {@code 36.0GB}. */
    public static String shortBytes(double bytes) {
        String[] units = {"B", "KB", "MB", "GB", "TB"};
        double v = bytes;
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        BigDecimal d = new BigDecimal(v).round(new java.math.MathContext(3));
        return d.stripTrailingZeros().toPlainString() + units[u];
    }

    /** A size in the largest decimal unit with a value of at least 1, to 6 significant digits. */
    public static String formatBytes(double bytes) {
        String[] units = {"B", "KB", "MB", "GB", "TB"};
        double v = bytes;
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return plain(v) + units[u];
    }

    public static String formatBytesPerSecond(double bytesPerSecond) {
        return formatBytes(bytesPerSecond) + "/s";
    }

    public static String formatPerSecond(double perSecond) {
        return plain(perSecond) + "/s";
    }

    /** Six significant digits without an exponent or trailing zeros. */
    static String plain(double v) {
        BigDecimal d = new BigDecimal(v).round(new java.math.MathContext(6)).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }
}

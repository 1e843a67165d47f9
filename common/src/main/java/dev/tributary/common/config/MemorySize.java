package dev.tributary.common.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A number of bytes, parsed from {@code 512b}, {@code 64kb}, {@code 128mb}, {@code 1gb}. */
public record MemorySize(long bytes) {
    private static final Pattern FORM = Pattern.compile("(\\d+)\\s*([a-z]*)");

    public MemorySize {
        if (bytes < 0) {
            throw new IllegalArgumentException("size must be >= 0");
        }
    }

    public static MemorySize ofMebiBytes(long mb) {
        return new MemorySize(mb << 20);
    }

    public static MemorySize parse(String text) {
        Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("not a size");
        }
        long n = Long.parseLong(m.group(1));
        switch (m.group(2)) {
            case "":
            case "b":
                return new MemorySize(n);
            case "k":
            case "kb":
                return new MemorySize(Math.multiplyExact(n, 1L << 10));
            case "m":
            case "mb":
                return new MemorySize(Math.multiplyExact(n, 1L << 20));
            case "g":
            case "gb":
                return new MemorySize(Math.multiplyExact(n, 1L << 30));
            default:
                throw new IllegalArgumentException("unknown unit '" + m.group(2) + "'");
        }
    }

    @Override
    public String toString() {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "gb";
        }
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "mb";
        }
        if (bytes != 0 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "kb";
        }
        return bytes + "b";
    }
}

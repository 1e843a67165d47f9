package dev.tributary.common.config;

import dev.tributary.common.exception.InvalidConfigException;
import java.util.Objects;
import java.util.function.Function;

/**
 * A typed configuration key with a default and a description. Declare options next to the component
 * that reads them, e.g. {@code static final ConfigOption<Duration> FRESHNESS =
 * ConfigOptions.key("table.datalake.freshness").durationType().defaultValue(...)
 * .withDescription("...")}.
 *
 * @param <T> the value type
 */
public final class ConfigOption<T> {
    private final String key;
    private final Class<?> type;
    private final T defaultValue;
    private final String description;
    private final String expectedForm;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;

    ConfigOption(
            String key,
            Class<?> type,
            T defaultValue,
            String description,
            String expectedForm,
            Function<String, T> parser,
            Function<T, String> formatter) {
        this.key = Objects.requireNonNull(key);
        this.type = type;
        this.defaultValue = defaultValue;
        this.description = description;
        this.expectedForm = expectedForm;
        this.parser = parser;
        this.formatter = formatter;
    }

    public String key() {
        return key;
    }

    public Class<?> type() {
        return type;
    }

    /** The default, or {@code null} when the option has none. */
    public T defaultValue() {
        return defaultValue;
    }

    public boolean hasDefault() {
        return defaultValue != null;
    }

    public String description() {
        return description;
    }

    /** Human-readable form of valid values, used in error messages. */
    public String expectedForm() {
        return expectedForm;
    }

    /** Parses a raw string value; errors name this option's key, the value and the form. */
    public T parse(String raw) {
        if (raw == null) {
            return defaultValue;
        }
        try {
            return parser.apply(raw.trim());
        } catch (RuntimeException e) {
            throw new InvalidConfigException(
                    "invalid value '"
                            + raw
                            + "' for '"
                            + key
                            + "': expected "
                            + expectedForm
                            + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                    e);
        }
    }

    public String format(T value) {
        return formatter.apply(value);
    }

    /** A copy with a new description (the last builder step). */
    public ConfigOption<T> withDescription(String newDescription) {
        return new ConfigOption<>(
                key, type, defaultValue, newDescription, expectedForm, parser, formatter);
    }

    @Override
    public String toString() {
        return key;
    }
}

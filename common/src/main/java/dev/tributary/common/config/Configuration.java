package dev.tributary.common.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * String key/value settings read through typed {@link ConfigOption}s. Values are parsed on read, so
 * an invalid value fails with an error naming the key, the value and the expected form. Not thread
 * safe for writes; share a fully built instance.
 */
public final class Configuration {
    private final Map<String, String> values;

    public Configuration() {
        this.values = new LinkedHashMap<>();
    }

    public Configuration(Map<String, String> values) {
        this.values = new LinkedHashMap<>(values);
    }

    public static Configuration fromMap(Map<String, String> values) {
        return new Configuration(values);
    }

    /** The value, or the option's default when unset. */
    public <T> T get(ConfigOption<T> option) {
        return option.parse(values.get(option.key()));
    }

    /** The value if set explicitly. */
    public <T> Optional<T> getOptional(ConfigOption<T> option) {
        String raw = values.get(option.key());
        return raw == null ? Optional.empty() : Optional.of(option.parse(raw));
    }

    public boolean contains(ConfigOption<?> option) {
        return values.containsKey(option.key());
    }

    public <T> Configuration set(ConfigOption<T> option, T value) {
        values.put(option.key(), option.format(value));
        return this;
    }

    public Configuration setString(String key, String value) {
        values.put(key, value);
        return this;
    }

    public Configuration remove(ConfigOption<?> option) {
        values.remove(option.key());
        return this;
    }

    /** Validates the value of each given option that is set; throws on the first invalid one. */
    public void validate(Iterable<ConfigOption<?>> options) {
        for (ConfigOption<?> option : options) {
            get(option);
        }
    }

    public Map<String, String> toMap() {
        return Collections.unmodifiableMap(values);
    }

    /** The settings with every credential masked ({@link Secrets}): safe for a message or a log. */
    @Override
    public String toString() {
        return Secrets.redact(values).toString();
    }
}

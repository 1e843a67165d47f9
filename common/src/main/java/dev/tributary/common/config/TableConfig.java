package dev.tributary.common.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table's {@link TableOptions}, parsed once: immutable, built from the table's properties when
 * the table's metadata is built, then read without parsing. Lenient, because it also reads tables
 * stored before a check existed: an unknown {@code table.*} key or a value that no longer parses is
 * ignored (the option keeps its default) and reported in {@link #warnings()}; new properties are
 * checked strictly by {@link TableOptionsValidator} before they are stored.
 */
public final class TableConfig {
    private static final TableConfig DEFAULTS = new TableConfig(Map.of(), List.of());

    private final Map<ConfigOption<?>, Object> explicit;
    private final List<String> warnings;

    private TableConfig(Map<ConfigOption<?>, Object> explicit, List<String> warnings) {
        this.explicit = explicit;
        this.warnings = warnings;
    }

    /** Every option at its default. */
    public static TableConfig defaults() {
        return DEFAULTS;
    }

    /** Parses the table options among a table's properties; never throws for a bad property. */
    public static TableConfig of(Map<String, String> properties) {
        Map<ConfigOption<?>, Object> explicit = new HashMap<>();
        List<String> warnings = new ArrayList<>();
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String key = e.getKey();
            if (!key.startsWith(TableOptions.PREFIX) || TableOptions.isLakePassThrough(key)) {
                continue;
            }
            Optional<ConfigOption<?>> option = TableOptions.find(key);
            if (option.isEmpty()) {
                warnings.add(TableOptionsValidator.unknown(key) + "; it is ignored");
                continue;
            }
            try {
                Object value = option.get().parse(e.getValue());
                if (value != null) {
                    explicit.put(option.get(), value);
                }
            } catch (RuntimeException bad) {
                warnings.add(bad.getMessage() + "; the default is used");
            }
        }
        return warnings.isEmpty() && explicit.isEmpty()
                ? DEFAULTS
                : new TableConfig(Map.copyOf(explicit), List.copyOf(warnings));
    }

    /**
     * The option's value, or its default when unset.
     *
     * @throws IllegalArgumentException for an option that is not a table option
     */
    @SuppressWarnings("unchecked")
    public <T> T get(ConfigOption<T> option) {
        Object value = explicit.get(requireTableOption(option));
        return value == null ? option.defaultValue() : (T) value;
    }

    /** The option's value if the table sets it. */
    @SuppressWarnings("unchecked")
    public <T> Optional<T> getOptional(ConfigOption<T> option) {
        return Optional.ofNullable((T) explicit.get(requireTableOption(option)));
    }

    /** What was ignored when the properties were read; empty for a table created since T56. */
    public List<String> warnings() {
        return warnings;
    }

    private static ConfigOption<?> requireTableOption(ConfigOption<?> option) {
        if (TableOptions.find(option.key()).orElse(null) != option) {
            throw new IllegalArgumentException(option.key() + " is not a table option");
        }
        return option;
    }

    @Override
    public String toString() {
        return explicit.toString();
    }
}

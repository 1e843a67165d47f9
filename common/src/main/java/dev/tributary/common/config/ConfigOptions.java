package dev.tributary.common.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Builders for {@link ConfigOption}s. */
public final class ConfigOptions {
    private ConfigOptions() {}

    public static KeyBuilder key(String key) {
        return new KeyBuilder(key);
    }

    /** Chooses the option's type. */
    public static final class KeyBuilder {
        private final String key;

        KeyBuilder(String key) {
            this.key = key;
        }

        public TypedBuilder<String> stringType() {
            return new TypedBuilder<>(key, String.class, "a string", s -> s, s -> s);
        }

        public TypedBuilder<Integer> intType() {
            return new TypedBuilder<>(
                    key, Integer.class, "an integer", Integer::parseInt, String::valueOf);
        }

        public TypedBuilder<Long> longType() {
            return new TypedBuilder<>(
                    key, Long.class, "an integer", Long::parseLong, String::valueOf);
        }

        public TypedBuilder<Double> doubleType() {
            return new TypedBuilder<>(
                    key, Double.class, "a number", Double::parseDouble, String::valueOf);
        }

        public TypedBuilder<Boolean> booleanType() {
            return new TypedBuilder<>(
                    key,
                    Boolean.class,
                    "true or false",
                    ConfigOptions::parseBoolean,
                    String::valueOf);
        }

        public TypedBuilder<Duration> durationType() {
            return new TypedBuilder<>(
                    key,
                    Duration.class,
                    "a duration such as 500ms, 30s, 3min, 1h or 7d",
                    Durations::parse,
                    Durations::format);
        }

        public TypedBuilder<MemorySize> memoryType() {
            return new TypedBuilder<>(
                    key,
                    MemorySize.class,
                    "a size such as 512b, 64kb, 128mb or 1gb",
                    MemorySize::parse,
                    MemorySize::toString);
        }

        public <E extends Enum<E>> TypedBuilder<E> enumType(Class<E> enumClass) {
            String values =
                    Arrays.stream(enumClass.getEnumConstants())
                            .map(e -> e.name().toLowerCase(Locale.ROOT))
                            .collect(Collectors.joining(", "));
            return new TypedBuilder<>(
                    key,
                    enumClass,
                    "one of " + values,
                    s -> Enum.valueOf(enumClass, s.toUpperCase(Locale.ROOT).replace('-', '_')),
                    e -> e.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
    }

    /** Sets the default (or declares there is none). */
    public static final class TypedBuilder<T> {
        private final String key;
        private final Class<?> type;
        private final String form;
        private final Function<String, T> parser;
        private final Function<T, String> formatter;

        TypedBuilder(
                String key,
                Class<?> type,
                String form,
                Function<String, T> parser,
                Function<T, String> formatter) {
            this.key = key;
            this.type = type;
            this.form = form;
            this.parser = parser;
            this.formatter = formatter;
        }

        public ConfigOption<T> defaultValue(T value) {
            return new ConfigOption<>(key, type, value, "", form, parser, formatter);
        }

        public ConfigOption<T> noDefaultValue() {
            return defaultValue(null);
        }

        /** Narrows the accepted values; the check's message explains the rule. */
        public TypedBuilder<T> check(java.util.function.Predicate<T> valid, String rule) {
            Function<String, T> base = parser;
            return new TypedBuilder<>(
                    key,
                    type,
                    form + " (" + rule + ")",
                    s -> {
                        T v = base.apply(s);
                        if (!valid.test(v)) {
                            throw new IllegalArgumentException(rule);
                        }
                        return v;
                    },
                    formatter);
        }
    }

    private static boolean parseBoolean(String s) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new IllegalArgumentException("not a boolean");
        }
    }
}

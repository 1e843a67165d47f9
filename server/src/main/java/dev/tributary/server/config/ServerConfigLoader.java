package dev.tributary.server.config;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads {@code server.yaml} (nested maps or dotted keys, both flatten to dotted keys) and applies
 * {@code key=value} overrides on top. Values stay strings here; typed options parse them on read,
 * and {@link #validate} checks every known option up front so a typo fails at start, not later.
 */
public final class ServerConfigLoader {
    private ServerConfigLoader() {}

    /** Loads {@code file} (may be null: no file) and applies overrides of the form key=value. */
    public static Configuration load(Path file, List<String> overrides) {
        Map<String, String> values = new LinkedHashMap<>();
        if (file != null) {
            values.putAll(readYaml(file));
        }
        for (String o : overrides) {
            int eq = o.indexOf('=');
            if (eq <= 0) {
                throw new InvalidConfigException(
                        "invalid --set '" + o + "': expected key=value, e.g. server.rpc.port=0");
            }
            values.put(o.substring(0, eq).trim(), o.substring(eq + 1).trim());
        }
        return Configuration.fromMap(values);
    }

    static Map<String, String> readYaml(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new InvalidConfigException("configuration file " + file + " does not exist");
        }
        Object root;
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(r);
        } catch (IOException | YAMLException e) {
            throw new InvalidConfigException(
                    "cannot read configuration file " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (root == null) {
            return out;
        }
        if (!(root instanceof Map<?, ?> map)) {
            throw new InvalidConfigException(
                    "configuration file " + file + " must hold a map of keys to values");
        }
        flatten("", map, out);
        return out;
    }

    private static void flatten(String prefix, Map<?, ?> map, Map<String, String> out) {
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String key = prefix + e.getKey();
            Object v = e.getValue();
            if (v instanceof Map<?, ?> nested) {
                flatten(key + ".", nested, out);
            } else if (v != null) {
                out.put(key, String.valueOf(v));
            }
        }
    }
}

package dev.tributary.lake.api;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;

/** Finds {@link LakeStoragePlugin}s on the class path and opens {@link LakeStorage}s. */
public final class LakeStoragePlugins {
    private LakeStoragePlugins() {}

    /** Identifiers of every plugin on the class path of {@code classLoader}. */
    public static List<String> available(ClassLoader classLoader) {
        List<String> ids = new ArrayList<>();
        for (LakeStoragePlugin p : ServiceLoader.load(LakeStoragePlugin.class, classLoader)) {
            ids.add(p.identifier());
        }
        return ids;
    }

    /**
     * The plugin with the given identifier (case-insensitive).
     *
     * @throws InvalidConfigException naming the identifiers that are available
     */
    public static LakeStoragePlugin find(String identifier, ClassLoader classLoader) {
        String wanted = identifier == null ? "" : identifier.trim().toLowerCase(Locale.ROOT);
        for (LakeStoragePlugin p : ServiceLoader.load(LakeStoragePlugin.class, classLoader)) {
            if (p.identifier().equals(wanted)) {
                return p;
            }
        }
        throw new InvalidConfigException(
                "no lake format '"
                        + identifier
                        + "' on the class path; available: "
                        + available(classLoader)
                        + ". Set '"
                        + LakeStorageOptions.DATALAKE_FORMAT.key()
                        + "' to one of them or add the format's plugin jar");
    }

    /** {@link #find(String, ClassLoader)} with this class's class loader. */
    public static LakeStoragePlugin find(String identifier) {
        return find(identifier, LakeStoragePlugins.class.getClassLoader());
    }

    /**
     * Opens the lake storage chosen by a server-level configuration: reads {@code datalake.format}
     * and hands the plugin every {@code datalake.<format>.*} key with that prefix removed.
     */
    public static LakeStorage open(Configuration serverConfiguration) {
        String format = serverConfiguration.get(LakeStorageOptions.DATALAKE_FORMAT);
        LakeStoragePlugin plugin = find(format);
        return plugin.createLakeStorage(formatConfiguration(serverConfiguration, format));
    }

    /** The keys under {@code datalake.<format>.} with that prefix removed. */
    public static Configuration formatConfiguration(
            Configuration serverConfiguration, String format) {
        String prefix = "datalake." + format.toLowerCase(Locale.ROOT) + ".";
        Map<String, String> out = new LinkedHashMap<>();
        serverConfiguration
                .toMap()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith(prefix)) {
                                out.put(k.substring(prefix.length()), v);
                            }
                        });
        return Configuration.fromMap(out);
    }
}

package dev.tributary.union;

import dev.tributary.client.admin.Admin;
import dev.tributary.client.admin.LakeInfo;
import dev.tributary.common.config.Configuration;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.LakeStoragePlugins;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the lake a server tiers into, for union reads: the server says which format and warehouse
 * ({@link Admin#describeLake()}), so a reader needs only the server's address; a reader that sees
 * the warehouse elsewhere (another mount, another endpoint) overrides keys with the server's
 * vocabulary ({@code datalake.format}, {@code datalake.<format>.warehouse}, ...).
 */
public final class LakeAccess {
    private static final Logger LOG = LoggerFactory.getLogger(LakeAccess.class);

    private LakeAccess() {}

    /**
     * The server's lake with {@code overrides} applied.
     *
     * @param overrides {@code datalake.*} keys that replace the server's
     * @return empty when the server has no lake plugin for its format, or this class path has none
     *     (then tiered tables cannot be union-read; {@link UnionScan} says so per table)
     * @throws dev.tributary.common.exception.InvalidConfigException when the lake cannot be opened
     *     with the resulting settings
     */
    public static Optional<LakeStorage> open(Admin admin, Map<String, String> overrides) {
        LakeInfo info = admin.describeLake();
        Configuration conf = configuration(info, overrides);
        String format = conf.get(LakeStorageOptions.DATALAKE_FORMAT);
        ClassLoader cl = LakeAccess.class.getClassLoader();
        if (!info.available() && !overrides.containsKey(LakeStorageOptions.DATALAKE_FORMAT.key())) {
            LOG.warn("the server has no '{}' lake plugin: union reads use the store alone", format);
            return Optional.empty();
        }
        if (!LakeStoragePlugins.available(cl).contains(format)) {
            LOG.warn(
                    "no '{}' lake plugin on this class path: union reads use the store alone",
                    format);
            return Optional.empty();
        }
        return Optional.of(LakeStoragePlugins.open(conf));
    }

    /** The server's settings in server vocabulary, then the overrides. */
    static Configuration configuration(LakeInfo info, Map<String, String> overrides) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(LakeStorageOptions.DATALAKE_FORMAT.key(), info.format());
        info.properties().forEach((k, v) -> out.put("datalake." + info.format() + "." + k, v));
        out.putAll(overrides);
        return Configuration.fromMap(out);
    }
}

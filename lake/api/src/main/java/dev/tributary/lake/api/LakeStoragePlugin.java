package dev.tributary.lake.api;

import dev.tributary.common.config.Configuration;

/**
 * Entry point of a lake format, discovered with {@link java.util.ServiceLoader} (register the
 * implementation in {@code META-INF/services/dev.tributary.lake.api.LakeStoragePlugin}). Use {@link
 * LakeStoragePlugins} to find one by identifier.
 *
 * <p>Implementations must have a public no-argument constructor and be cheap to create; all real
 * work happens in {@link #createLakeStorage(Configuration)}.
 */
public interface LakeStoragePlugin {

    /**
     * The format's identifier, lower case, unique among plugins: {@code paimon} or {@code iceberg}.
     * It is the value of the {@code datalake.format} option.
     */
    String identifier();

    /**
     * Opens the lake storage of this format.
     *
     * @param formatConfiguration the format's own settings with the {@code datalake.<identifier>.}
     *     prefix already removed (see {@link LakeStorageOptions}): {@code warehouse} plus any
     *     format-native catalog option, which is passed through unchanged
     * @throws dev.tributary.common.exception.InvalidConfigException when a setting is missing or
     *     invalid
     */
    LakeStorage createLakeStorage(Configuration formatConfiguration);
}

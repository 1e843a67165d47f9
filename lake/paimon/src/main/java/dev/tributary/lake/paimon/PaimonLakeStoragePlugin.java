package dev.tributary.lake.paimon;

import dev.tributary.common.config.Configuration;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugin;

/**
 * The Apache Paimon lake format, Tributary's default. Configuration (under {@code datalake.paimon.}
 * at server level): {@code warehouse} (a local directory by default, or any URI Paimon's file IO
 * supports), {@code table.*} native table options, and every other key passed unchanged to Paimon's
 * {@code CatalogFactory} (e.g. {@code metastore}, {@code uri}, S3 keys).
 */
public final class PaimonLakeStoragePlugin implements LakeStoragePlugin {
    public static final String IDENTIFIER = "paimon";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public LakeStorage createLakeStorage(Configuration formatConfiguration) {
        return new PaimonLakeStorage(formatConfiguration);
    }
}

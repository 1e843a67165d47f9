package dev.tributary.lake.iceberg;

import dev.tributary.common.config.Configuration;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugin;

/**
 * The Apache Iceberg lake format. Configuration (under {@code datalake.iceberg.} at server level):
 * {@code warehouse}; {@code table.*} native table properties; every other key goes unchanged to
 * Iceberg's {@code CatalogUtil.buildIcebergCatalog}, so {@code type} ({@code hadoop} by default,
 * which needs no service; also {@code jdbc}, {@code rest}, {@code hive}, {@code glue}...), {@code
 * catalog-impl}, {@code uri}, {@code io-impl} and the rest of Iceberg's catalog properties work as
 * documented by Iceberg. {@code catalog-name} (default {@code tributary}) names the catalog.
 */
public final class IcebergLakeStoragePlugin implements LakeStoragePlugin {
    public static final String IDENTIFIER = "iceberg";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public LakeStorage createLakeStorage(Configuration formatConfiguration) {
        return new IcebergLakeStorage(formatConfiguration);
    }
}

package dev.tributary.server.status;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.Secrets;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.LakeStoragePlugins;
import java.util.Map;

/**
 * Where the server's lake tables live, as status shows it (T46): the format, the catalog other
 * engines must open to find the tables, and the warehouse. Built from the server's {@code
 * datalake.<format>.*} settings with every credential removed: no secret option, no password in a
 * catalog URI, no user info in the warehouse.
 *
 * @param format {@code datalake.format}
 * @param catalog the catalog kind ({@code type}, {@code metastore} or {@code catalog-impl}, else
 *     the format's filesystem catalog in the warehouse) and its {@code uri} when it has one
 * @param warehouse the warehouse location
 */
public record LakeLocation(String format, String catalog, String warehouse) {
    /** The catalog kind when none is configured: the format keeps its catalog in the warehouse. */
    static final String FILESYSTEM = "filesystem";

    private static final String[] CATALOG_KIND_KEYS = {"type", "metastore", "catalog-impl"};

    /** The lake of a server whose lake settings (warehouse resolved) are {@code lakeConf}. */
    public static LakeLocation of(Configuration lakeConf) {
        String format = lakeConf.get(LakeStorageOptions.DATALAKE_FORMAT);
        Map<String, String> settings =
                LakeStoragePlugins.formatConfiguration(lakeConf, format).toMap();
        String kind = FILESYSTEM;
        for (String key : CATALOG_KIND_KEYS) {
            String v = settings.get(key);
            if (v != null && !v.isBlank()) {
                kind = v;
                break;
            }
        }
        String uri = settings.get("uri");
        String catalog = uri == null || uri.isBlank() ? kind : kind + " " + Secrets.redactUri(uri);
        String warehouse = settings.getOrDefault(LakeStorageOptions.WAREHOUSE.key(), "");
        return new LakeLocation(format, catalog, Secrets.redactUri(warehouse));
    }

    /** One line for the CLI and logs. */
    public String describe() {
        return format + " lake, catalog " + catalog + ", warehouse " + warehouse;
    }
}

package dev.tributary.lake.api;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.types.TableDescriptor;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Options shared by every lake format.
 *
 * <p>At server level the format is chosen with {@code datalake.format} and each format reads its
 * settings under {@code datalake.<format>.}; for example {@code datalake.paimon.warehouse}. A
 * plugin receives those settings with the prefix removed. Inside that per-format configuration:
 *
 * <ul>
 *   <li>{@code warehouse} ({@link #WAREHOUSE}) is the warehouse location: a local directory or any
 *       URI the format's file IO understands;
 *   <li>every key starting with {@code table.} ({@link #TABLE_OPTION_PREFIX}) becomes a native
 *       table property of tables Tributary creates, with the prefix removed (e.g. {@code
 *       table.file.compression=zstd} for Paimon, {@code
 *       table.write.parquet.compression-codec=snappy} for Iceberg); a table overrides them with its
 *       own {@code table.datalake.<format>.*} properties ({@link #nativeTableProperties});
 *   <li>every other key is passed through unchanged to the format's own catalog (e.g. Paimon's
 *       {@code metastore}, Iceberg's {@code type}, {@code catalog-impl}, {@code uri}, {@code
 *       io-impl}).
 * </ul>
 */
public final class LakeStorageOptions {
    private LakeStorageOptions() {}

    /** Server-level choice of format. */
    public static final ConfigOption<String> DATALAKE_FORMAT =
            ConfigOptions.key("datalake.format")
                    .stringType()
                    .defaultValue("paimon")
                    .withDescription(
                            "The lake format tables are tiered into: 'paimon' (default) or"
                                    + " 'iceberg'. Its settings live under 'datalake.<format>.'.");

    /** Warehouse location, inside a format's configuration. */
    public static final ConfigOption<String> WAREHOUSE =
            ConfigOptions.key("warehouse")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Warehouse location of the lake catalog: a local directory (the"
                                    + " default deployment) or a URI the format supports, e.g."
                                    + " s3://bucket/path.");

    /** Prefix of keys that become native table properties of created tables. */
    public static final String TABLE_OPTION_PREFIX = "table.";

    /** The {@code table.*} keys of a format configuration, prefix removed. */
    public static Map<String, String> tableOptions(Configuration formatConfiguration) {
        Map<String, String> out = new LinkedHashMap<>();
        formatConfiguration
                .toMap()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith(TABLE_OPTION_PREFIX)) {
                                out.put(k.substring(TABLE_OPTION_PREFIX.length()), v);
                            }
                        });
        return out;
    }

    /**
     * The native table properties of the lake table of {@code table}: the server-wide {@code
     * datalake.<format>.table.*} defaults, overridden by the table's own {@code
     * table.datalake.<format>.*} properties ({@link TableOptions#lakePassThroughPrefix}), both with
     * their prefix removed. Read when the lake table is created; changing them later does not
     * change an existing lake table.
     */
    public static Map<String, String> nativeTableProperties(
            Map<String, String> serverDefaults, TableDescriptor table, String format) {
        Map<String, String> out = new LinkedHashMap<>(serverDefaults);
        out.putAll(TableOptions.lakePassThrough(table.properties(), format));
        return out;
    }

    /** Every key of a format configuration that is neither {@code table.*} nor Tributary's own. */
    public static Map<String, String> catalogOptions(Configuration formatConfiguration) {
        Map<String, String> out = new LinkedHashMap<>();
        formatConfiguration
                .toMap()
                .forEach(
                        (k, v) -> {
                            if (!k.startsWith(TABLE_OPTION_PREFIX)) {
                                out.put(k, v);
                            }
                        });
        return out;
    }

    /** The warehouse as a URI: a bare local path becomes a {@code file:} URI, URIs pass through. */
    public static String warehouseUri(String warehouse) {
        try {
            java.net.URI u = new java.net.URI(warehouse);
            // a one-letter scheme is a Windows drive, not a file system
            if (u.getScheme() != null && u.getScheme().length() > 1) {
                return warehouse;
            }
        } catch (java.net.URISyntaxException ignored) {
            // not a URI: a local path
        }
        return new java.io.File(warehouse).getAbsoluteFile().toURI().toString();
    }
}

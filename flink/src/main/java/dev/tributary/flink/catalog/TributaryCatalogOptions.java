package dev.tributary.flink.catalog;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Options of {@code CREATE CATALOG t WITH ('type' = 'tributary', ...)}. Besides these, keys
 * starting with {@code client.} configure the connection and keys starting with {@code datalake.}
 * override the lake settings the server announces (a reader that mounts the warehouse elsewhere).
 */
public final class TributaryCatalogOptions {
    private TributaryCatalogOptions() {}

    public static final String IDENTIFIER = "tributary";

    public static final ConfigOption<String> ADDRESS =
            ConfigOptions.key("address")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "host:port of a Tributary server's gRPC endpoint, or several"
                                    + " separated by commas, tried in order.");

    public static final ConfigOption<String> TOKEN =
            ConfigOptions.key("token")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("The server's security.token, when it has one.");

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOptions.key("default-database")
                    .stringType()
                    .defaultValue("default")
                    .withDescription(
                            "The database USE CATALOG starts in; created on the server when"
                                    + " missing.");

    public static final String CLIENT_PREFIX = "client.";
    public static final String DATALAKE_PREFIX = "datalake.";
}

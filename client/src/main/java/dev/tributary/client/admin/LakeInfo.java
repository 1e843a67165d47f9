package dev.tributary.client.admin;

import java.util.Map;

/**
 * The lake a server tiers into.
 *
 * @param format the server's {@code datalake.format}: {@code paimon} or {@code iceberg}
 * @param properties the server's {@code datalake.<format>.*} settings with that prefix removed
 *     ({@code warehouse} resolved to where the server's lake is, plus catalog options)
 * @param available false when the server has no plugin for the format, so no table is tiered
 */
public record LakeInfo(String format, Map<String, String> properties, boolean available) {
    public LakeInfo {
        properties = Map.copyOf(properties);
    }
}

package dev.tributary.flink.catalog;

import dev.tributary.client.Connection;
import dev.tributary.common.config.Configuration;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.union.LakeAccess;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How tasks reach the server and its lake: what a catalog's options say, shipped to every source,
 * sink and lookup task (serializable, strings only).
 *
 * @param address {@code host:port} of the server's gRPC endpoint
 * @param token the bearer token, null for none
 * @param clientOptions {@code client.*} options of the connection
 * @param lakeOverrides {@code datalake.*} keys that replace the server's lake settings
 */
public record ConnectionConfig(
        String address,
        String token,
        Map<String, String> clientOptions,
        Map<String, String> lakeOverrides)
        implements Serializable {

    public ConnectionConfig {
        clientOptions = new LinkedHashMap<>(clientOptions);
        lakeOverrides = new LinkedHashMap<>(lakeOverrides);
    }

    public Connection connect() {
        return Connection.builder()
                .address(address)
                .token(token)
                .options(Configuration.fromMap(clientOptions))
                .build();
    }

    /** The server's lake with the overrides; empty when it has none this class path can open. */
    public Optional<LakeStorage> openLake(Connection connection) {
        return LakeAccess.open(connection.admin(), lakeOverrides);
    }
}

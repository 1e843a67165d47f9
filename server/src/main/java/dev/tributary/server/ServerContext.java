package dev.tributary.server;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.time.Clock;
import dev.tributary.storage.BucketStore;
import java.nio.file.Path;

/**
 * What an extension may use: the configuration (with the lake warehouse resolved to where the
 * server's lake is), the address clients (and an embedded tiering job) connect to, the data
 * directory, and the store.
 *
 * @param rpcTarget {@code host:port} of the gRPC endpoint
 * @param token the bearer token clients must send, empty when security is off
 */
public record ServerContext(
        Configuration configuration,
        String rpcTarget,
        String token,
        Path dataDir,
        Clock clock,
        BucketStore store) {}

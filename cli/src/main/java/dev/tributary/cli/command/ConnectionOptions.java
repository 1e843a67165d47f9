package dev.tributary.cli.command;

import dev.tributary.client.Connection;
import picocli.CommandLine.Option;

/** Where the server is and how to authenticate; shared by every client command. */
public final class ConnectionOptions {
    @Option(
            names = {"-a", "--address"},
            defaultValue = "${env:TRIBUTARY_ADDRESS:-127.0.0.1:9123}",
            description =
                    "Server gRPC address host:port, or several separated by commas, tried in order"
                            + " (default: ${DEFAULT-VALUE}, env TRIBUTARY_ADDRESS).")
    String address;

    @Option(
            names = "--token",
            defaultValue = "${env:TRIBUTARY_TOKEN}",
            description = "Bearer token (env TRIBUTARY_TOKEN).")
    String token;

    public Connection connect() {
        return Connection.builder().address(address).token(token).build();
    }
}

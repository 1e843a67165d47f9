package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.common.config.Configuration;
import dev.tributary.server.TributaryServer;
import dev.tributary.server.config.ServerConfigLoader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server started from the shipped conf/server.yaml, as {@code tributary server} does: every value
 * passes the server's, the embedded extension's and the tiering job's validation, and the embedded
 * job registers.
 */
class ShippedConfigITCase {
    @TempDir Path dataDir;

    @Test
    void aServerStartsFromTheShippedYamlWithItsEmbeddedTieringJob() throws Exception {
        Configuration conf =
                ServerConfigLoader.load(
                        Paths.get("..", "conf", "server.yaml"),
                        List.of(
                                "data.dir=" + dataDir,
                                "server.rpc.port=0",
                                "server.http.port=0",
                                "tiering.embedded.parallelism=1"));
        try (TributaryServer server = TributaryServer.start(conf);
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("shop", false);
            assertThat(conn.admin().listDatabases()).contains("shop");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(
                            () -> assertThat(conn.admin().tieringStatus().liveJobs()).isEqualTo(1));
        }
    }
}

package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.server.config.ServerConfigLoader;
import dev.tributary.server.config.ServerOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigLoaderTest {
    @TempDir Path dir;

    @Test
    void nestedAndDottedKeysFlattenAndSetOverrides() throws Exception {
        Path yaml = dir.resolve("server.yaml");
        Files.writeString(
                yaml,
                "server:\n  rpc:\n    port: 7000\n  maintenance.interval: 3s\n"
                        + "security.token: abc\n");
        Configuration conf = ServerConfigLoader.load(yaml, List.of("server.rpc.port=0"));
        assertThat(conf.get(ServerOptions.RPC_PORT)).isZero();
        assertThat(conf.get(ServerOptions.MAINTENANCE_INTERVAL)).isEqualTo(Duration.ofSeconds(3));
        assertThat(conf.get(ServerOptions.SECURITY_TOKEN)).isEqualTo("abc");
        assertThat(conf.get(ServerOptions.BIND_HOST)).isEqualTo("127.0.0.1");
    }

    @Test
    void badInputNamesTheProblem() throws Exception {
        assertThatThrownBy(() -> ServerConfigLoader.load(dir.resolve("missing.yaml"), List.of()))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> ServerConfigLoader.load(null, List.of("novalue")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("key=value");
        Path list = dir.resolve("list.yaml");
        Files.writeString(list, "- a\n- b\n");
        assertThatThrownBy(() -> ServerConfigLoader.load(list, List.of()))
                .isInstanceOf(InvalidConfigException.class);
        Configuration conf = ServerConfigLoader.load(null, List.of("server.rpc.port=99999"));
        assertThatThrownBy(() -> conf.validate(ServerOptions.all()))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("server.rpc.port");
    }

    @Test
    void serverRefusesAnInvalidOptionBeforeStartingAnything() {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dir.resolve("d").toString());
        conf.setString("tiering.heartbeat.interval", "soon");
        assertThatThrownBy(
                        () ->
                                TestServers.start(
                                        dir.resolve("d"),
                                        java.util.Map.of("tiering.heartbeat.interval", "soon")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("tiering.heartbeat.interval");
        assertThat(Files.exists(dir.resolve("d"))).isFalse();
    }
}

package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.Configuration;
import dev.tributary.coordinator.CoordinatorOptions;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.server.config.ServerConfigLoader;
import dev.tributary.server.config.ServerOptions;
import dev.tributary.storage.kv.KvOptions;
import dev.tributary.storage.log.LogOptions;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shipped conf/server.yaml names only typed options, each with a valid value. */
class DistributionConfigTest {

    @Test
    void everyKeyOfTheShippedServerYamlIsAKnownOptionWithAValidValue() {
        Path yaml = Paths.get("..", "conf", "server.yaml");
        Configuration conf = ServerConfigLoader.load(yaml, List.of("server.rpc.port=0"));
        List<ConfigOption<?>> known = new ArrayList<>();
        known.addAll(ServerOptions.all());
        known.addAll(CoordinatorOptions.all());
        known.addAll(
                List.of(
                        LogOptions.SEGMENT_SIZE,
                        LogOptions.INDEX_INTERVAL,
                        LogOptions.FLUSH_POLICY,
                        KvOptions.SNAPSHOT_INTERVAL,
                        KvOptions.SNAPSHOT_NUM_RETAINED,
                        KvOptions.LEASE_TIMEOUT,
                        LakeStorageOptions.DATALAKE_FORMAT));
        Map<String, ConfigOption<?>> byKey = new HashMap<>();
        known.forEach(o -> byKey.put(o.key(), o));
        assertThat(conf.toMap()).isNotEmpty();
        for (String key : conf.toMap().keySet()) {
            assertThat(byKey).as("unknown key %s in conf/server.yaml", key).containsKey(key);
            assertThat(byKey.get(key).description()).isNotBlank();
            conf.get(byKey.get(key));
        }
        assertThat(conf.get(ServerOptions.RPC_PORT)).isZero();
        assertThat(conf.get(ServerOptions.BIND_HOST)).isEqualTo("127.0.0.1");
    }
}

package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.embedded.EmbeddedTieringExtension;
import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.Configuration;
import dev.tributary.coordinator.CoordinatorOptions;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.server.config.ServerConfigLoader;
import dev.tributary.server.config.ServerOptions;
import dev.tributary.storage.kv.KvOptions;
import dev.tributary.storage.log.LogOptions;
import dev.tributary.tiering.job.TieringOptions;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shipped conf/server.yaml names only typed options, each with a valid value. */
class DistributionConfigTest {

    @Test
    void everyKeyOfTheShippedServerYamlIsAKnownOptionWithAValidValue() {
        Path yaml = Paths.get("..", "conf", "server.yaml");
        Configuration conf = ServerConfigLoader.load(yaml, List.of("server.rpc.port=0"));
        List<ConfigOption<?>> known = new ArrayList<>();
        known.addAll(ServerOptions.all());
        known.add(dev.tributary.server.partition.PartitionOptions.CHECK_INTERVAL);
        known.addAll(CoordinatorOptions.all());
        known.addAll(TieringOptions.all());
        known.addAll(EmbeddedTieringExtension.options());
        known.addAll(
                List.of(
                        LogOptions.SEGMENT_SIZE,
                        LogOptions.INDEX_INTERVAL,
                        LogOptions.FLUSH_POLICY,
                        LogOptions.WRITER_STATE_EXPIRATION,
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

    @Test
    void everyTieringOptionIsListedWithItsDefault() {
        Configuration conf =
                ServerConfigLoader.load(Paths.get("..", "conf", "server.yaml"), List.of());
        List<ConfigOption<?>> tiering = new ArrayList<>();
        tiering.addAll(CoordinatorOptions.all());
        tiering.addAll(TieringOptions.all());
        tiering.addAll(EmbeddedTieringExtension.options());
        // no fixed default (the machine's cores, a random id or seed): documented as comments
        Set<String> commentedOut =
                Set.of(
                        TieringOptions.EMBEDDED_PARALLELISM.key(),
                        TieringOptions.JOB_ID.key(),
                        TieringOptions.SHUFFLE_SEED.key());
        for (ConfigOption<?> o : tiering) {
            if (commentedOut.contains(o.key())) {
                assertThat(conf.toMap())
                        .as("%s has no fixed default", o.key())
                        .doesNotContainKey(o.key());
                continue;
            }
            assertThat(conf.toMap()).as("conf/server.yaml lists %s", o.key()).containsKey(o.key());
            assertThat((Object) conf.get(o))
                    .as("conf/server.yaml shows the default of %s", o.key())
                    .isEqualTo(o.defaultValue());
        }
    }
}

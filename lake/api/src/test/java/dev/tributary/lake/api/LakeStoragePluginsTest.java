package dev.tributary.lake.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LakeStoragePluginsTest {

    @Test
    void unknownFormatNamesTheOption() {
        assertThatThrownBy(() -> LakeStoragePlugins.find("delta"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'delta'")
                .hasMessageContaining("datalake.format");
    }

    @Test
    void formatConfigurationStripsThePrefixAndSplitsTableOptions() {
        Configuration server =
                Configuration.fromMap(
                        Map.of(
                                "datalake.paimon.warehouse", "/w",
                                "datalake.paimon.table.file.compression", "zstd",
                                "datalake.paimon.metastore", "filesystem",
                                "datalake.iceberg.warehouse", "/other",
                                "bind.port", "1"));
        Configuration paimon = LakeStoragePlugins.formatConfiguration(server, "paimon");
        assertThat(paimon.get(LakeStorageOptions.WAREHOUSE)).isEqualTo("/w");
        assertThat(LakeStorageOptions.tableOptions(paimon))
                .containsExactly(Map.entry("file.compression", "zstd"));
        assertThat(LakeStorageOptions.catalogOptions(paimon))
                .containsOnlyKeys("warehouse", "metastore");
    }
}

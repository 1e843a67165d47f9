package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table's {@code table.datalake.iceberg.*} properties become its Iceberg table properties. */
class IcebergTablePassThroughTest {
    @TempDir Path warehouse;

    @Test
    void t56_tablePropertiesUnderThePrefixReachTheIcebergTable() throws Exception {
        TableDescriptor table =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT().notNull())
                                        .column("v", DataTypes.STRING())
                                        .build())
                        .bucketCount(2)
                        .bucketKeys("id")
                        .property("table.datalake.iceberg.write.parquet.compression-codec", "gzip")
                        .property("table.datalake.iceberg.commit.retry.num-retries", "7")
                        .property("table.datalake.paimon.file.format", "orc")
                        .property("table.datalake.freshness", "10s")
                        .build();
        Map<String, String> conf =
                Map.of(
                        "warehouse", warehouse.toString(),
                        // a server-wide default that the table's own property overrides
                        "table.write.parquet.compression-codec", "zstd",
                        "table.write.metadata.previous-versions-max", "5");
        try (LakeStorage storage =
                new IcebergLakeStoragePlugin().createLakeStorage(Configuration.fromMap(conf))) {
            storage.catalog().createTable(TablePath.of("shop", "orders"), table);
        }
        Map<String, String> props =
                new HadoopCatalog(
                                new org.apache.hadoop.conf.Configuration(),
                                warehouse.toUri().toString())
                        .loadTable(TableIdentifier.of("shop", "orders"))
                        .properties();
        assertThat(props)
                .containsEntry("write.parquet.compression-codec", "gzip")
                .containsEntry("commit.retry.num-retries", "7")
                .containsEntry("write.metadata.previous-versions-max", "5")
                .doesNotContainKey("file.format")
                .doesNotContainKey("freshness")
                .doesNotContainKey("table.datalake.freshness");
    }
}

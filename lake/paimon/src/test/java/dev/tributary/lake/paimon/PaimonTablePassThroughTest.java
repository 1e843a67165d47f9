package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import java.nio.file.Path;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table's {@code table.datalake.paimon.*} properties become its Paimon table options (T56). */
class PaimonTablePassThroughTest {
    @TempDir Path warehouse;

    private static TableDescriptor table(String... props) {
        TableDescriptor.Builder b =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT().notNull())
                                        .column("v", DataTypes.STRING())
                                        .primaryKey("id")
                                        .build())
                        .bucketCount(2);
        for (int i = 0; i < props.length; i += 2) {
            b.property(props[i], props[i + 1]);
        }
        return b.build();
    }

    @Test
    void t56_tablePropertiesUnderThePrefixReachThePaimonTable() throws Exception {
        Map<String, String> conf =
                Map.of(
                        "warehouse", warehouse.toString(),
                        "table.file.compression", "zstd",
                        "table.file.format", "parquet");
        try (LakeStorage storage =
                        LakeStoragePlugins.find("paimon")
                                .createLakeStorage(Configuration.fromMap(conf));
                Catalog paimon =
                        CatalogFactory.createCatalog(
                                CatalogContext.create(
                                        Options.fromMap(
                                                Map.of(
                                                        "warehouse",
                                                        warehouse.toUri().toString()))))) {
            TablePath path = TablePath.of("shop", "orders");
            storage.catalog()
                    .createTable(
                            path,
                            table(
                                    "table.datalake.paimon.file.format", "orc",
                                    "table.datalake.iceberg.write.format.default", "avro",
                                    "table.datalake.freshness", "10s"));
            Map<String, String> options =
                    paimon.getTable(Identifier.create("shop", "orders")).options();
            assertThat(options)
                    .containsEntry("file.format", "orc")
                    .containsEntry("file.compression", "zstd")
                    .doesNotContainKey("write.format.default")
                    .doesNotContainKey("freshness");

            assertThatThrownBy(
                            () ->
                                    storage.catalog()
                                            .createTable(
                                                    TablePath.of("shop", "layout"),
                                                    table("table.datalake.paimon.bucket", "7")))
                    .isInstanceOf(InvalidConfigException.class)
                    .hasMessageContaining("table.datalake.paimon.bucket");
            assertThat(storage.catalog().tableExists(TablePath.of("shop", "layout"))).isFalse();
        }
    }
}

package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.WriteResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergWriteFilesTest {
    @TempDir Path warehouse;

    @Test
    void payloadRoundTripsDataAndDeleteFilesAndRejectsOtherVersions() {
        TablePath path = TablePath.of("db", "t");
        TableDescriptor table =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT())
                                        .column("v", DataTypes.STRING())
                                        .primaryKey("id")
                                        .build())
                        // a retraction of a key the split did not write is an equality delete
                        .property("table.datalake.pk-deletes", "equality")
                        .build();
        try (LakeStorage storage =
                new IcebergLakeStoragePlugin()
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", warehouse.toString())))) {
            storage.catalog().createTable(path, table);
            LakeWriteResult result;
            try (LakeWriter w =
                    storage.createWriter(new LakeWriterContext(path, 1, table, 0, 1, 1))) {
                w.write(Row.of(1, "a"), ChangeType.INSERT, 0, 0, 0);
                w.write(Row.of(2, "b"), ChangeType.DELETE, 0, 1, 0);
                result = w.complete();
            }
            Map<Integer, PartitionSpec> specs =
                    CatalogUtil.buildIcebergCatalog(
                                    "tributary",
                                    Map.of(
                                            CatalogProperties.WAREHOUSE_LOCATION,
                                            warehouse.toUri().toString(),
                                            CatalogUtil.ICEBERG_CATALOG_TYPE,
                                            CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP),
                                    new org.apache.hadoop.conf.Configuration())
                            .loadTable(TableIdentifier.of("db", "t"))
                            .specs();
            WriteResult files = IcebergWriteFiles.decode(result.payload(), specs);
            assertThat(files.dataFiles()).hasSize(1);
            assertThat(files.deleteFiles()).hasSize(1);
            WriteResult again =
                    IcebergWriteFiles.decode(IcebergWriteFiles.encode(files, specs), specs);
            assertThat(locations(again.dataFiles())).isEqualTo(locations(files.dataFiles()));
            assertThat(locations(again.deleteFiles())).isEqualTo(locations(files.deleteFiles()));
            assertThat(again.dataFiles()[0].recordCount()).isEqualTo(1);
            assertThat(result.files())
                    .containsExactly(
                            files.dataFiles()[0].location(), files.deleteFiles()[0].location());

            byte[] future = result.payload();
            future[0] = 4;
            assertThatThrownBy(() -> IcebergWriteFiles.decode(future, specs))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("version 4");
        }
    }

    private static Object[] locations(ContentFile<?>[] files) {
        return Arrays.stream(files).map(ContentFile::location).toArray();
    }
}

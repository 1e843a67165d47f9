package dev.tributary.lake.iceberg;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeMaintenanceContractTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/** Lake maintenance on real Iceberg tables, read back with Iceberg's own generic reader. */
class IcebergLakeMaintenanceTest extends LakeMaintenanceContractTest {

    @Override
    protected LakeStorage createStorage(Path warehouse) {
        return LakeStoragePlugins.find("iceberg")
                .createLakeStorage(
                        Configuration.fromMap(Map.of("warehouse", warehouse.toString())));
    }

    @Override
    protected String format() {
        return "iceberg";
    }

    @Override
    protected List<Map<String, Object>> readRows(TablePath path) throws Exception {
        Catalog catalog =
                CatalogUtil.buildIcebergCatalog(
                        "tributary",
                        Map.of(
                                CatalogProperties.WAREHOUSE_LOCATION,
                                warehouse.toUri().toString(),
                                CatalogUtil.ICEBERG_CATALOG_TYPE,
                                CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP),
                        new org.apache.hadoop.conf.Configuration());
        return IcebergReads.readNamed(
                catalog.loadTable(TableIdentifier.of(path.database(), path.table())));
    }

    @Override
    protected List<String> normalized(List<String> paths) {
        return paths.stream().map(IcebergOrphanFiles::normalize).toList();
    }
}

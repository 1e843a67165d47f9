package dev.tributary.lake.iceberg;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeMaintenanceContractTest;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;

/** Lake maintenance on real Iceberg tables, read back with Iceberg's own generic reader. */
class IcebergLakeMaintenanceTest extends LakeMaintenanceContractTest {

    /** Iceberg catalog properties beyond the warehouse; empty: the Hadoop catalog. */
    protected Map<String, String> catalogProperties() {
        return Map.of();
    }

    /** The warehouse Tributary is given: the local directory unless a subclass moves it. */
    protected String warehouseLocation() {
        return warehouse.toString();
    }

    @Override
    protected LakeStorage createStorage(Path warehouse) {
        Map<String, String> conf = new HashMap<>(catalogProperties());
        conf.put("warehouse", warehouseLocation());
        return LakeStoragePlugins.find("iceberg").createLakeStorage(Configuration.fromMap(conf));
    }

    @Override
    protected String format() {
        return "iceberg";
    }

    @Override
    protected List<Map<String, Object>> readRows(TablePath path) throws Exception {
        return IcebergNativeCatalog.withTable(
                catalogProperties(),
                warehouseLocation(),
                TableIdentifier.of(path.database(), path.table()),
                IcebergReads::readNamed);
    }

    @Override
    protected List<String> normalized(List<String> paths) {
        return paths.stream().map(IcebergOrphanFiles::normalize).toList();
    }
}

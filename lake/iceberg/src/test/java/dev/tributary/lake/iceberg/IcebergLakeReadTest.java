package dev.tributary.lake.iceberg;

import dev.tributary.common.config.Configuration;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeReadContractTest;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The read contract on real Iceberg tables (Hadoop catalog unless a subclass moves it). */
class IcebergLakeReadTest extends LakeReadContractTest {

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
}

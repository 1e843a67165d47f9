package dev.tributary.lake.iceberg;

import dev.tributary.common.config.Configuration;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeReadContractTest;
import java.nio.file.Path;
import java.util.Map;

/** The read contract on real Iceberg tables (Hadoop catalog). */
class IcebergLakeReadTest extends LakeReadContractTest {
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
}

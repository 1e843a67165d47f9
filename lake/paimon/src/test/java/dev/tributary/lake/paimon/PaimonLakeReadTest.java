package dev.tributary.lake.paimon;

import dev.tributary.common.config.Configuration;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeReadContractTest;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The read contract on real Paimon tables. */
class PaimonLakeReadTest extends LakeReadContractTest {
    /** Paimon catalog options beyond the warehouse; empty means the filesystem catalog. */
    protected Map<String, String> catalogOptions() {
        return Map.of();
    }

    /** The warehouse Tributary is given: the local directory unless a subclass moves it. */
    protected String warehouseLocation() {
        return warehouse.toString();
    }

    @Override
    protected LakeStorage createStorage(Path warehouse) {
        Map<String, String> conf = new HashMap<>(catalogOptions());
        conf.put("warehouse", warehouseLocation());
        return LakeStoragePlugins.find("paimon").createLakeStorage(Configuration.fromMap(conf));
    }

    @Override
    protected String format() {
        return "paimon";
    }
}

package dev.tributary.lake.paimon;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeMaintenanceContractTest;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.options.Options;

/** Lake maintenance on real Paimon tables, read back with Paimon's own reader. */
class PaimonLakeMaintenanceTest extends LakeMaintenanceContractTest {

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
        // merge-on-read PK tables: the contract counts the files and snapshots of write-only
        // rounds, and a deletion-vector table's rounds compact their own level-0 files (T48).
        // Maintenance of deletion-vector tables: PaimonDeletionVectorTest.
        conf.put("table.deletion-vectors.enabled", "false");
        return LakeStoragePlugins.find("paimon").createLakeStorage(Configuration.fromMap(conf));
    }

    @Override
    protected String format() {
        return "paimon";
    }

    @Override
    protected List<Map<String, Object>> readRows(TablePath path) throws Exception {
        Map<String, String> options = new HashMap<>(catalogOptions());
        options.put("warehouse", LakeStorageOptions.warehouseUri(warehouseLocation()));
        try (Catalog catalog =
                CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(options)))) {
            return PaimonReads.readNamed(catalog, path);
        }
    }
}

package dev.tributary.lake.paimon;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.contract.LakeMaintenanceContractTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.options.Options;

/** Lake maintenance on real Paimon tables, read back with Paimon's own reader. */
class PaimonLakeMaintenanceTest extends LakeMaintenanceContractTest {

    @Override
    protected LakeStorage createStorage(Path warehouse) {
        return LakeStoragePlugins.find("paimon")
                .createLakeStorage(
                        Configuration.fromMap(Map.of("warehouse", warehouse.toString())));
    }

    @Override
    protected String format() {
        return "paimon";
    }

    @Override
    protected List<Map<String, Object>> readRows(TablePath path) throws Exception {
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(
                                Options.fromMap(
                                        Map.of("warehouse", warehouse.toUri().toString()))))) {
            return PaimonReads.readNamed(catalog, path);
        }
    }
}

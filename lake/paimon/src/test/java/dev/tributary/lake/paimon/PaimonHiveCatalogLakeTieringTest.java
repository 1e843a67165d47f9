package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.testing.HiveMetastoreServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole lake contract through a real Hive Metastore (T46): Hive's standalone metastore server
 * on embedded Derby in its own JVM, reached over Thrift by Paimon's Hive catalog ({@code
 * metastore=hive}), configured only with Paimon's own catalog options. The warehouse is a local
 * directory; the metastore registers each database and table. The format's own reader still opens
 * the table files directly from the warehouse, as another engine would.
 */
class PaimonHiveCatalogLakeTieringTest extends PaimonLakeTieringTest {
    @TempDir static Path servers;
    private static HiveMetastoreServer metastore;

    @BeforeAll
    static void startMetastore() {
        metastore = HiveMetastoreServer.start(servers.resolve("hms"));
    }

    @AfterAll
    static void stopMetastore() {
        if (metastore != null) {
            metastore.close();
        }
    }

    private Map<String, String> hiveOptions() {
        return Map.of(
                "metastore",
                "hive",
                "uri",
                metastore.thriftUri(),
                "warehouse",
                warehouse.toString());
    }

    @Override
    protected LakeStorage createStorage(Path warehouse) {
        return LakeStoragePlugins.find("paimon")
                .createLakeStorage(Configuration.fromMap(hiveOptions()));
    }

    /**
     * The table Tributary creates is registered in the metastore: another engine's Hive catalog,
     * given a different (empty) warehouse, still finds it by asking the metastore.
     */
    @Test
    void t46_aTableCreatedThroughTheHiveCatalogIsRegisteredInTheMetastore() throws Exception {
        TablePath path = TablePath.of("db", "registered");
        storage.catalog().createTable(path, logTable(2));
        Map<String, String> elsewhere = new HashMap<>(hiveOptions());
        elsewhere.put("warehouse", Files.createDirectories(servers.resolve("empty")).toString());
        try (Catalog other =
                CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(elsewhere)))) {
            assertThat(other.listTables("db")).containsExactly("registered");
            String location =
                    other.getTable(Identifier.create("db", "registered")).options().get("path");
            assertThat(Path.of(URI.create(location)))
                    .isEqualTo(warehouse.resolve("db.db").resolve("registered"));
        }
    }

    /**
     * The metastore outlives each test's warehouse: unregister what a test left, so the next test
     * starts from an empty catalog as the filesystem catalog's tests do.
     */
    @AfterEach
    void dropEverything() throws Exception {
        try (Catalog catalog =
                CatalogFactory.createCatalog(
                        CatalogContext.create(Options.fromMap(hiveOptions())))) {
            for (String db : catalog.listDatabases()) {
                if (!db.equals("default")) {
                    catalog.dropDatabase(db, true, true);
                }
            }
        }
    }
}

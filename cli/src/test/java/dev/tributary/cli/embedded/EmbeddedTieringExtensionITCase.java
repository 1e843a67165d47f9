package dev.tributary.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.server.TributaryServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server found the extension through its service file (no explicit list) and keeps lake tables
 * in step with DDL; the tiering job itself is off here (DemoITCase runs it).
 */
class EmbeddedTieringExtensionITCase {
    private static final Schema SCHEMA =
            Schema.of(List.of(new Column("id", DataTypes.BIGINT(), null)), List.of());

    @TempDir Path dataDir;
    private TributaryServer server;
    private Connection conn;

    @BeforeEach
    void start() {
        Configuration conf = new Configuration();
        conf.setString("data.dir", dataDir.toString());
        conf.setString("server.rpc.port", "0");
        conf.setString("server.http.port", "-1");
        conf.setString("tiering.embedded.enabled", "false");
        server = TributaryServer.start(conf);
        conn = Connection.open(server.rpcTarget());
        conn.admin().createDatabase("shop", true);
    }

    @AfterEach
    void stop() {
        conn.close();
        server.close();
    }

    private static TableDescriptor table(boolean lake) {
        TableDescriptor.Builder b = TableDescriptor.builder(SCHEMA).bucketCount(2);
        if (lake) {
            b.property("table.datalake.enabled", "true");
        }
        return b.build();
    }

    private org.apache.paimon.table.Table paimonTable(TablePath path) throws Exception {
        Options options =
                Options.fromMap(
                        java.util.Map.of(
                                "warehouse",
                                dataDir.resolve("lake").toUri().toString(),
                                "cache-enabled",
                                "false"));
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            return catalog.getTable(Identifier.create(path.database(), path.table()));
        }
    }

    @Test
    void lakeTableFollowsCreateEnableAndAddColumn() throws Exception {
        TablePath created = TablePath.of("shop", "created");
        conn.admin().createTable(created, table(true), false);
        assertThat(paimonTable(created).rowType().getFieldNames()).contains("id");

        TablePath later = TablePath.of("shop", "later");
        conn.admin().createTable(later, table(false), false);
        try (LakeStorage lake = paimonStorage()) {
            assertThat(lake.catalog().tableExists(later)).isFalse();
        }
        conn.admin()
                .alterTable(
                        later,
                        TableAlteration.create().setProperty("table.datalake.enabled", "true"));
        conn.admin()
                .alterTable(later, TableAlteration.create().addColumn("name", DataTypes.STRING()));
        assertThat(paimonTable(later).rowType().getFieldNames()).contains("id", "name");
    }

    @Test
    void droppingATableKeepsItsLakeTableUnlessAskedToDropItToo() throws Exception {
        TablePath kept = TablePath.of("shop", "kept");
        TablePath purged = TablePath.of("shop", "purged");
        conn.admin().createTable(kept, table(true), false);
        conn.admin().createTable(purged, table(true), false);

        conn.admin().dropTable(kept, false);
        conn.admin().dropTable(purged, false, true);
        try (LakeStorage lake = paimonStorage()) {
            assertThat(lake.catalog().tableExists(kept)).isTrue();
            assertThat(lake.catalog().tableExists(purged)).isFalse();
        }
        assertThat(conn.admin().listTables("shop")).doesNotContain("kept", "purged");
    }

    @Test
    void aLakeTableThatCannotBeCreatedLeavesNoTributaryTable() throws Exception {
        // a plain file where the lake database directory must go: the lake create fails
        Files.createDirectories(dataDir.resolve("lake"));
        Files.writeString(dataDir.resolve("lake").resolve("shop.db"), "in the way");
        TablePath broken = TablePath.of("shop", "broken");
        assertThatThrownBy(() -> conn.admin().createTable(broken, table(true), false))
                .hasMessageContaining("could not create the lake table of shop.broken")
                .hasMessageContaining("the table was not created");
        assertThat(conn.admin().listTables("shop")).doesNotContain("broken");

        Files.delete(dataDir.resolve("lake").resolve("shop.db"));
        conn.admin().createTable(broken, table(true), false);
        assertThat(conn.admin().listTables("shop")).contains("broken");
        assertThat(paimonTable(broken).rowType().getFieldNames()).contains("id");
    }

    @Test
    void aTableAskingForAnotherFormatIsRefusedAndNotCreated() {
        TablePath other = TablePath.of("shop", "other");
        TableDescriptor iceberg =
                TableDescriptor.builder(SCHEMA)
                        .bucketCount(1)
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.format", "iceberg")
                        .build();
        assertThatThrownBy(() -> conn.admin().createTable(other, iceberg, false))
                .hasMessageContaining("table.datalake.format=iceberg")
                .hasMessageContaining("tiers into 'paimon'");
        assertThat(conn.admin().listTables("shop")).doesNotContain("other");
    }

    private LakeStorage paimonStorage() {
        return LakeStoragePlugins.open(
                new Configuration()
                        .setString("datalake.format", "paimon")
                        .setString(
                                "datalake.paimon.warehouse", dataDir.resolve("lake").toString()));
    }
}

package dev.tributary.tiering.server;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.server.ServerContext;
import dev.tributary.server.ServerExtension;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.service.GatewayTieringService;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of tiering as a {@link ServerExtension}: creates (and evolves) the lake table of
 * every lake-enabled table, and runs the tiering job on an embedded MiniCluster that connects back
 * to the server through the client gateway. Lives in tiering's tests because tiering must not
 * depend on the server; it belongs in a module that sees both (cli), registered in {@code
 * META-INF/services/dev.tributary.server.ServerExtension}.
 */
public final class EmbeddedTieringExtension implements ServerExtension {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedTieringExtension.class);

    public static final ConfigOption<Boolean> EMBEDDED_ENABLED =
            ConfigOptions.key("tiering.embedded.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Run the tiering job inside the server on a Flink MiniCluster.");

    private LakeStorage lake;
    private EmbeddedTiering tiering;

    @Override
    public void start(ServerContext ctx) throws Exception {
        Configuration conf = new Configuration(ctx.configuration().toMap());
        String format = conf.get(LakeStorageOptions.DATALAKE_FORMAT);
        String warehouseKey = "datalake." + format + ".warehouse";
        if (!conf.toMap().containsKey(warehouseKey)) {
            // the server's own default, so job and coordinator write the same warehouse
            conf.setString(warehouseKey, ctx.dataDir().resolve("lake").toUri().toString());
        }
        lake = LakeStoragePlugins.open(conf);
        // tables recovered at start may predate this extension: make their lake tables exist
        for (DatabaseInfo db : ctx.coordinator().listDatabases().get()) {
            for (TablePath path : ctx.coordinator().listTables(db.name()).get()) {
                onTableCreated(ctx.coordinator().describeTable(path).get());
            }
        }
        if (conf.get(EMBEDDED_ENABLED)) {
            String token = ctx.token() == null || ctx.token().isEmpty() ? null : ctx.token();
            tiering =
                    EmbeddedTiering.start(
                            GatewayTieringService.factory(ctx.rpcTarget(), token, Map.of()), conf);
        }
    }

    @Override
    public void onTableCreated(TableInfo table) {
        if (table.lakeEnabled()) {
            lake.catalog().createTable(table.path(), table.descriptor());
        }
    }

    @Override
    public void onTableAltered(TableInfo before, TableInfo after) {
        if (!after.lakeEnabled()) {
            return;
        }
        if (!before.lakeEnabled() || !lake.catalog().tableExists(after.path())) {
            lake.catalog().createTable(after.path(), after.descriptor());
        } else if (!before.schema().equals(after.schema())) {
            lake.catalog().alterTable(after.path(), after.descriptor());
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (tiering != null) {
                tiering.close();
            }
        } finally {
            if (lake != null) {
                lake.close();
            }
            LOG.info("embedded tiering stopped");
        }
    }
}

package dev.tributary.cli.embedded;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.server.ServerContext;
import dev.tributary.server.ServerExtension;
import dev.tributary.tiering.job.EmbeddedTiering;
import dev.tributary.tiering.job.TieringOptions;
import dev.tributary.tiering.service.GatewayTieringService;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of tiering, found by the server through {@code
 * META-INF/services/dev.tributary.server.ServerExtension}: keeps a lake table for every
 * lake-enabled table (created with the table, or when the lake is enabled later; columns added
 * follow; dropped only when the user asks) and runs the tiering job on an embedded Flink
 * MiniCluster that connects back to the server through the client gateway. Lives in the cli module
 * because it needs both the server and the tiering job, and neither of those may depend on the
 * other.
 */
public final class EmbeddedTieringExtension implements ServerExtension {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedTieringExtension.class);

    public static final ConfigOption<Boolean> EMBEDDED_ENABLED =
            ConfigOptions.key("tiering.embedded.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Run the tiering job inside the server on a Flink MiniCluster (with"
                                    + " tiering.embedded.parallelism readers). Turn off when"
                                    + " 'tributary tiering-job' runs on a Flink cluster instead.");

    /** Options this extension reads (the parallelism option belongs to the job). */
    public static List<ConfigOption<?>> options() {
        return List.of(EMBEDDED_ENABLED, TieringOptions.EMBEDDED_PARALLELISM);
    }

    private static final String TABLE_FORMAT_KEY = "table.datalake.format";

    private ServerContext context;
    private LakeStorage lake;
    private EmbeddedTiering tiering;

    @Override
    public void start(ServerContext ctx) throws Exception {
        this.context = ctx;
        Configuration conf = lakeConfiguration(ctx);
        conf.validate(options());
        lake = LakeStoragePlugins.open(conf);
        // tables recovered at start may predate this extension or a lost create: make them exist
        for (DatabaseInfo db : ctx.coordinator().listDatabases().get()) {
            for (TablePath path : ctx.coordinator().listTables(db.name()).get()) {
                TableInfo t = ctx.coordinator().describeTable(path).get();
                if (t.lakeEnabled() && sameFormat(t) && !lake.catalog().tableExists(t.path())) {
                    lake.catalog().createTable(t.path(), t.descriptor());
                }
            }
        }
        if (conf.get(EMBEDDED_ENABLED)) {
            String token = ctx.token() == null || ctx.token().isEmpty() ? null : ctx.token();
            tiering =
                    EmbeddedTiering.start(
                            GatewayTieringService.factory(ctx.rpcTarget(), token, Map.of()), conf);
        } else {
            LOG.info("embedded tiering disabled (tiering.embedded.enabled=false)");
        }
    }

    /**
     * The server's configuration with the lake warehouse defaulted to {@code <data.dir>/lake}, so
     * the job and the coordinator's commit step write the same warehouse.
     */
    static Configuration lakeConfiguration(ServerContext ctx) {
        Configuration conf = new Configuration(ctx.configuration().toMap());
        String format = conf.get(LakeStorageOptions.DATALAKE_FORMAT);
        String warehouseKey = "datalake." + format + ".warehouse";
        if (!conf.toMap().containsKey(warehouseKey)) {
            conf.setString(warehouseKey, ctx.dataDir().resolve("lake").toUri().toString());
        }
        return conf;
    }

    @Override
    public void onTableCreated(TableInfo table) {
        if (!table.lakeEnabled()) {
            return;
        }
        try {
            checkFormat(table);
            lake.catalog().createTable(table.path(), table.descriptor());
        } catch (InvalidInputException e) {
            rollBackCreate(table, e);
            throw e;
        } catch (RuntimeException e) {
            // the table is already durable in the coordinator and the store: take it back so the
            // user can fix the cause and create it again, instead of a table that never tiers
            rollBackCreate(table, e);
            throw new StorageException(
                    "could not create the lake table of "
                            + table.path()
                            + " ("
                            + describe(e)
                            + "); the table was not created. Fix the lake settings (datalake.*) or"
                            + " create it without table.datalake.enabled",
                    e);
        }
    }

    /**
     * One server tiers into one format ({@code datalake.format}); a table that explicitly asks for
     * another would silently land in the wrong lake.
     */
    private void checkFormat(TableInfo table) {
        String asked = table.descriptor().properties().get(TABLE_FORMAT_KEY);
        if (asked != null && !asked.equals(lake.identifier())) {
            throw new InvalidInputException(
                    "table "
                            + table.path()
                            + " asks for "
                            + TABLE_FORMAT_KEY
                            + "="
                            + asked
                            + " but this server tiers into '"
                            + lake.identifier()
                            + "' (datalake.format); drop the property or run a server with"
                            + " datalake.format="
                            + asked);
        }
    }

    /**
     * A recovered table of another format (the data directory was served with another
     * datalake.format) gets no lake table here: it would hold a second, diverging copy.
     */
    private boolean sameFormat(TableInfo table) {
        String asked = table.descriptor().properties().get(TABLE_FORMAT_KEY);
        if (asked == null || asked.equals(lake.identifier())) {
            return true;
        }
        LOG.warn(
                "table {} asks for {}={} but this server tiers into '{}'; no lake table is created"
                        + " for it and its rounds fail until the server runs with"
                        + " datalake.format={}",
                table.path(),
                TABLE_FORMAT_KEY,
                asked,
                lake.identifier(),
                asked);
        return false;
    }

    private void rollBackCreate(TableInfo table, RuntimeException cause) {
        try {
            context.coordinator().dropTable(table.path(), true).get();
            context.store().dropTable(table.tableId());
        } catch (Exception e) {
            cause.addSuppressed(e);
            LOG.error("could not roll back table {} after its lake table failed", table.path(), e);
        }
    }

    @Override
    public void onTableAltered(TableInfo before, TableInfo after) {
        if (!after.lakeEnabled()) {
            return;
        }
        checkFormat(after);
        try {
            if (!before.lakeEnabled() || !lake.catalog().tableExists(after.path())) {
                lake.catalog().createTable(after.path(), after.descriptor());
            } else if (!before.schema().equals(after.schema())) {
                lake.catalog().alterTable(after.path(), after.descriptor());
            }
        } catch (RuntimeException e) {
            throw new StorageException(
                    "could not create or alter the lake table of "
                            + after.path()
                            + " ("
                            + describe(e)
                            + "); the table change is stored and the lake table is retried at the"
                            + " next server start",
                    e);
        }
    }

    /**
     * The lake table outlives its Tributary table (lake engines keep reading it) unless the user
     * asked to drop it too.
     */
    @Override
    public void onTableDropped(TableInfo table, boolean dropLakeTable) {
        if (!dropLakeTable || !table.lakeEnabled() || !sameFormat(table)) {
            return;
        }
        try {
            boolean dropped = lake.catalog().dropTable(table.path());
            LOG.info("dropped table {} with its lake table (existed: {})", table.path(), dropped);
        } catch (RuntimeException e) {
            throw new StorageException(
                    "table "
                            + table.path()
                            + " was dropped but its lake table could not be ("
                            + describe(e)
                            + "); drop it with the lake format's own tools",
                    e);
        }
    }

    private static String describe(Throwable e) {
        Throwable t = e;
        while (!(t instanceof TributaryException) && t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
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

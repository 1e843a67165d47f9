package dev.tributary.server.lake;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TablePath;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.lake.api.LakeStorage;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a lake table for every lake-enabled table, through the server's one {@link LakeStorage}:
 * created with the table (or when the lake is enabled later), evolved with its columns, and dropped
 * only when the user asks (engines keep reading a lake table after its Tributary table is gone).
 * The server owns this whether or not a tiering job runs inside it, so a remote job never commits
 * into a lake table nobody created.
 */
public final class LakeTables {
    private static final Logger LOG = LoggerFactory.getLogger(LakeTables.class);

    private static final String FORMAT_KEY = TableOptions.DATALAKE_FORMAT.key();
    private static final String ENABLED_KEY = TableOptions.DATALAKE_ENABLED.key();

    private final LakeStorage lake;

    /**
     * @param lake the server's lake, or {@code null} when no lake plugin is on the class path
     *     (lake-enabled tables are then refused)
     */
    public LakeTables(LakeStorage lake) {
        this.lake = lake;
    }

    /** Creates the missing lake tables of recovered tables (a lost create, an older server). */
    public void recover(Iterable<TableInfo> tables) {
        if (lake == null) {
            return;
        }
        for (TableInfo t : tables) {
            if (t.lakeEnabled() && sameFormat(t) && !lake.catalog().tableExists(t.path())) {
                lake.catalog().createTable(t.path(), t.descriptor());
                LOG.info("created the missing lake table of {}", t.path());
            }
        }
    }

    /**
     * Creates the lake table of a new lake-enabled table.
     *
     * @throws InvalidInputException when the table cannot be tiered here (another format, no lake)
     * @throws StorageException when the lake refused; the caller takes the table back
     */
    public void onCreated(TableInfo table) {
        if (!table.lakeEnabled()) {
            return;
        }
        checkTierable(table);
        try {
            lake.catalog().createTable(table.path(), table.descriptor());
        } catch (InvalidInputException e) {
            throw e;
        } catch (RuntimeException e) {
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

    /** Follows an ALTER: enabling the lake creates the lake table, added columns are added. */
    public void onAltered(TableInfo before, TableInfo after) {
        if (!after.lakeEnabled()) {
            return;
        }
        checkTierable(after);
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

    /** Drops the lake table too, when the user asked for it. */
    public void onDropped(TableInfo table, boolean dropLakeTable) {
        if (!dropLakeTable || !table.lakeEnabled() || lake == null || !sameFormat(table)) {
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

    /**
     * Drops a partition of the table's lake table (the user asked for it with the partition's drop,
     * T33). A no-op without a lake table.
     */
    public void dropPartition(TableInfo table, dev.tributary.common.id.PartitionSpec partition) {
        if (lake == null || !sameFormat(table) || !lake.catalog().tableExists(table.path())) {
            return;
        }
        try {
            lake.catalog().dropPartition(table.path(), table.descriptor(), partition);
            LOG.info("dropped lake partition {} of {}", partition, table.path());
        } catch (RuntimeException e) {
            throw new StorageException(
                    "could not drop lake partition "
                            + partition
                            + " of "
                            + table.path()
                            + " ("
                            + describe(e)
                            + "); the partition stays dropping and is retried",
                    e);
        }
    }

    private void checkTierable(TableInfo table) {
        checkTierable(table.path(), table.descriptor().properties());
    }

    /**
     * Refuses a table (or an ALTER giving it these properties) that enables the lake where it
     * cannot be tiered: no lake plugin, or another format than this server's. One server tiers into
     * one format ({@code datalake.format}); a table that explicitly asks for another would silently
     * land in the wrong lake.
     *
     * @throws InvalidInputException naming the problem and what to do
     */
    public void checkTierable(TablePath path, Map<String, String> properties) {
        if (!Boolean.parseBoolean(properties.getOrDefault(ENABLED_KEY, "false"))) {
            return;
        }
        if (lake == null) {
            throw new InvalidInputException(
                    "table "
                            + path
                            + " enables the lake, but this server has no lake plugin for its"
                            + " datalake.format on the class path; start the server from the"
                            + " Tributary distribution or leave table.datalake.enabled off");
        }
        String asked = properties.get(FORMAT_KEY);
        if (asked != null && !asked.equals(lake.identifier())) {
            throw new InvalidInputException(
                    "table "
                            + path
                            + " asks for "
                            + FORMAT_KEY
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
        String asked = table.descriptor().properties().get(FORMAT_KEY);
        if (asked == null || asked.equals(lake.identifier())) {
            return true;
        }
        LOG.warn(
                "table {} asks for {}={} but this server tiers into '{}'; no lake table is created"
                        + " for it and its rounds fail until the server runs with"
                        + " datalake.format={}",
                table.path(),
                FORMAT_KEY,
                asked,
                lake.identifier(),
                asked);
        return false;
    }

    private static String describe(Throwable e) {
        Throwable t = e;
        while (!(t instanceof TributaryException) && t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}

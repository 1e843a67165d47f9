package dev.tributary.client.admin;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.util.List;

/**
 * Creates, alters, lists and drops databases and tables, and reads the tiering status. Obtained
 * from {@link dev.tributary.client.Connection#admin()}; thread safe. Every method is a blocking
 * call and throws the typed exception the server raised, e.g. {@link
 * dev.tributary.common.exception.NotFoundException} for an unknown table or {@link
 * dev.tributary.common.exception.InvalidInputException} for an invalid property.
 */
public interface Admin {

    void createDatabase(String name, boolean ignoreIfExists);

    /**
     * Drops a database.
     *
     * @param cascade also drop its tables; without it a non-empty database is refused
     */
    void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade);

    List<String> listDatabases();

    /** Creates a table and returns its description (with the assigned table id). */
    TableInfo createTable(TablePath path, TableDescriptor descriptor, boolean ignoreIfExists);

    /** Applies the alteration atomically and returns the new description. */
    TableInfo alterTable(TablePath path, TableAlteration alteration);

    /** Drops a table; its lake table (if any) stays, readable by lake engines. */
    default void dropTable(TablePath path, boolean ignoreIfNotExists) {
        dropTable(path, ignoreIfNotExists, false);
    }

    /**
     * Drops a table.
     *
     * @param dropLakeTable also drop its lake table and the lake data; without it the lake table
     *     stays, and a table created later under the same name that tiers to the same format
     *     continues it only if the schemas match (otherwise its creation is refused)
     */
    void dropTable(TablePath path, boolean ignoreIfNotExists, boolean dropLakeTable);

    /** Table names (without the database) of one database, sorted. */
    List<String> listTables(String database);

    TableInfo describeTable(TablePath path);

    /** Tiering status of every lake-enabled table (T28). */
    TieringOverview tieringStatus();

    /** Tiering status of one table (T28). */
    TableTieringStatus tieringStatus(TablePath path);

    /**
     * The lake the server tiers into: its format and the format's settings, for readers that open
     * the lake themselves (union read, T40).
     */
    LakeInfo describeLake();
}

package dev.tributary.lake.api.catalog;

import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;

/**
 * Creates and evolves the lake table of a Tributary table. The Tributary table {@code db.t} maps to
 * lake database {@code db} and lake table {@code t}. The lake table has the Tributary columns in
 * order, then the system columns of {@link LakeSystemColumns}, and the same primary key; a
 * partitioned Tributary table (T30) gives a lake table partitioned by the same columns (T32).
 *
 * <p>Thread safe. Every method is safe to retry.
 */
public interface LakeCatalog {

    /**
     * Creates the lake table (and its database when missing). Idempotent: when a lake table that
     * already matches the descriptor exists, nothing happens.
     *
     * @throws dev.tributary.common.exception.InvalidInputException when a column uses a reserved
     *     system column name or a type the format cannot hold
     * @throws LakeTableMismatchException when a different lake table of that name exists
     */
    void createTable(TablePath tablePath, TableDescriptor table);

    /**
     * Brings the lake table to a new Tributary descriptor. The only supported evolution is
     * appending nullable columns (Tributary's add-column); they are added before the system
     * columns, and rows written before read NULL there. Idempotent: columns already present with
     * the right type are skipped.
     *
     * @throws dev.tributary.common.exception.NotFoundException when the lake table is missing
     * @throws LakeTableMismatchException when the lake table differs in other ways than missing
     *     trailing columns and the changes {@link #validateTable} tolerates
     */
    void alterTable(TablePath tablePath, TableDescriptor newTable);

    /** Drops the lake table and its data. Returns false when there was nothing to drop. */
    boolean dropTable(TablePath tablePath);

    /**
     * Drops one partition of a partitioned lake table and its data (a user dropped the Tributary
     * partition and asked for its lake data to go too, T33). Commits a snapshot that is not a
     * tiering snapshot. Idempotent: dropping a partition that holds no data does nothing.
     *
     * @param table the Tributary descriptor (its partition columns and their types)
     * @param partition the partition's values, in the table's canonical form
     * @throws dev.tributary.common.exception.NotFoundException when the lake table is missing
     */
    void dropPartition(TablePath tablePath, TableDescriptor table, PartitionSpec partition);

    /** True when the lake table exists. */
    boolean tableExists(TablePath tablePath);

    /**
     * Describes the lake table as it is in the lake.
     *
     * @throws dev.tributary.common.exception.NotFoundException when the lake table is missing
     */
    LakeTableInfo describeTable(TablePath tablePath);

    /**
     * Checks that Tributary can still tier {@code table} into the lake table: every Tributary
     * column and system column is there by name with its type, the primary key and the layout
     * (bucket count and key, merge engine) are Tributary's. What other engines may safely do is
     * tolerated (see {@link LakeSchemaDiff}): extra nullable columns, which tiering leaves NULL,
     * moved columns, comments and other table options. Callers run it before tiering a table so a
     * table changed in a way that would corrupt data fails that table with a clear error rather
     * than with a format-internal exception on every round.
     *
     * @throws dev.tributary.common.exception.NotFoundException when the lake table is missing
     * @throws LakeTableMismatchException naming the table and every difference
     */
    void validateTable(TablePath tablePath, TableDescriptor table);
}

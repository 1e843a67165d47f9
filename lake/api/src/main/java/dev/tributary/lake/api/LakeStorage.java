package dev.tributary.lake.api;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.catalog.LakeCatalog;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.index.LakeRowScanner;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.maintenance.LakeCompactor;
import dev.tributary.lake.api.maintenance.LakeMaintainer;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.util.Optional;

/**
 * One lake warehouse of one format: its catalog, writers and committers. Thread safe; writers and
 * committers it creates are each used by one thread at a time. Close it when the process stops.
 *
 * <p>Typical round (T4, T6, T8): the tiering job creates one {@link LakeWriter} per split with
 * {@link #createWriter}, writes the split's records and ships {@link LakeWriter#complete()}'s
 * result (as bytes through {@link dev.tributary.lake.api.write.LakeWriteResultSerializer}) to the
 * coordinator, which commits all results of the round with one {@link LakeCommitter#commit} call.
 */
public interface LakeStorage extends AutoCloseable {

    /** The format identifier, same as {@link LakeStoragePlugin#identifier()}. */
    String identifier();

    /** The catalog (create, alter, drop, describe, validate lake tables). */
    LakeCatalog catalog();

    /**
     * Creates the writer of one split. The lake table must exist and match {@link
     * LakeWriterContext#table()}.
     *
     * @throws dev.tributary.common.exception.NotFoundException when the lake table is missing
     * @throws dev.tributary.lake.api.catalog.LakeTableMismatchException when the lake table was
     *     changed outside Tributary
     */
    LakeWriter createWriter(LakeWriterContext context);

    /**
     * Creates a committer for one lake table. Cheap; it may be cached per table and reused for many
     * rounds by one thread at a time.
     *
     * @throws dev.tributary.common.exception.NotFoundException when the lake table is missing
     */
    LakeCommitter createCommitter(TablePath tablePath);

    /**
     * Creates the maintainer of one lake table (statistics, compaction plans and commits, snapshot
     * expiry; T38, T39). Cheap; used by one thread at a time.
     *
     * @throws dev.tributary.common.exception.NotFoundException when the lake table is missing
     */
    LakeMaintainer createMaintainer(TablePath tablePath);

    /**
     * Creates the compactor of one lake bucket, for the tiering job (T38).
     *
     * @throws dev.tributary.common.exception.NotFoundException when the lake table is missing
     * @throws dev.tributary.lake.api.catalog.LakeTableMismatchException when the lake table can no
     *     longer be tiered into
     */
    LakeCompactor createCompactor(CompactionTask task);

    /**
     * Opens a reader of one lake table, for union reads (T40). Cheap; close it when done.
     *
     * @throws dev.tributary.common.exception.NotFoundException when the lake table is missing
     * @throws UnsupportedOperationException when the format cannot read (plugins written before the
     *     read SPI)
     */
    default LakeReader createReader(TablePath tablePath) {
        throw new UnsupportedOperationException(
                "the '" + identifier() + "' lake plugin cannot read tables");
    }

    /**
     * Opens a scanner of where the live rows of a primary-key lake table are, for the store's lake
     * row index (T48); empty when the table retracts rows by key or the format keeps its own index
     * (Paimon's deletion vectors).
     *
     * @param table the table's current descriptor (its key columns, its {@code
     *     table.datalake.pk-deletes})
     * @throws dev.tributary.common.exception.NotFoundException when the lake table is missing
     */
    default Optional<LakeRowScanner> createRowScanner(TablePath tablePath, TableDescriptor table) {
        return Optional.empty();
    }

    @Override
    void close();
}

package dev.tributary.lake.iceberg;

import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.util.StructLikeSet;

/**
 * Finds where the live lake rows of primary keys are (T48): the data file and row position of each
 * key's row in the table's current snapshot, so a round can retract it by position instead of by
 * key. {@link IcebergLakeRowLocator} reads the bucket's rows from the lake; a per-bucket index kept
 * by the store can replace it.
 */
interface LiveRowLocator {

    /**
     * Locates the live rows of {@code keys}.
     *
     * @param keys the keys, as Iceberg internal values of the table's key schema (days for a DATE,
     *     microseconds for a TIMESTAMP)
     */
    LiveRows locate(StructLikeSet keys);

    /**
     * The located rows.
     *
     * @param baseSnapshotId the snapshot the rows were found in (null: the table has none): the
     *     round's commit is validated from it
     * @param files the data files holding located rows, each with its rows' positions
     * @param keysNotFound how many keys had no live row (nothing to retract for them)
     */
    record LiveRows(Long baseSnapshotId, List<FileRows> files, long keysNotFound) {
        public LiveRows {
            files = List.copyOf(files);
        }
    }

    /**
     * Located rows of one data file.
     *
     * @param file the data file (its spec and partition are the deletes')
     * @param positions file-absolute positions of the rows, ascending
     * @param existingDeletes the file's deletes already in the table (with the delete files they
     *     came from), null when it has none: a deletion vector for the file must merge them
     */
    record FileRows(DataFile file, long[] positions, PositionDeleteIndex existingDeletes) {}
}

package dev.tributary.lake.iceberg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * Where a compaction of one bucket put the rows of the files it replaced (T48): {@link
 * IcebergCompactor} writes the live rows (at its base snapshot) of the replaced files one file
 * after another in position order, so row {@code p} of a replaced file is row {@code offset + p -
 * (rows of that file deleted before p at the base)} of the new files read in order. Deletes of rows
 * of the replaced files made after the base, by the rounds that commit while the compaction runs or
 * by a round whose writers read the files before the compaction committed, are moved onto the new
 * files with it.
 */
final class CompactionRowMap {
    /**
     * Set on a compaction snapshot whose replaced and new files, each in location order, are the
     * order it read and wrote them: the snapshot id its rows were read at.
     */
    static final String BASE_SNAPSHOT_PROPERTY = "tributary.compaction.base-snapshot-id";

    private static final Schema POSITIONS = new Schema(MetadataColumns.ROW_POSITION);

    private final Map<String, Integer> replacedIndex = new HashMap<>();
    private final long[] offsets;
    private final List<long[]> deletedAtBase;
    private final List<DataFile> added;
    private final long[] starts;

    private CompactionRowMap(
            List<DataFile> replaced, List<long[]> deletedAtBase, List<DataFile> added) {
        this.deletedAtBase = deletedAtBase;
        this.added = List.copyOf(added);
        this.offsets = new long[replaced.size()];
        long offset = 0;
        for (int i = 0; i < replaced.size(); i++) {
            replacedIndex.put(replaced.get(i).location(), i);
            offsets[i] = offset;
            offset += replaced.get(i).recordCount() - deletedAtBase.get(i).length;
        }
        this.starts = new long[added.size() + 1];
        for (int i = 0; i < added.size(); i++) {
            starts[i + 1] = starts[i] + added.get(i).recordCount();
        }
    }

    /**
     * The map of a compaction that replaced {@code replaced} by {@code added}, both in the order it
     * read and wrote them; null when the new files do not hold exactly the replaced files' live
     * rows at the base (then nothing can be mapped).
     *
     * @param deletedAtBase per replaced file, its positions deleted at the compaction's base,
     *     sorted
     */
    static CompactionRowMap of(
            List<DataFile> replaced, List<long[]> deletedAtBase, List<DataFile> added) {
        long live = 0;
        for (int i = 0; i < replaced.size(); i++) {
            live += replaced.get(i).recordCount() - deletedAtBase.get(i).length;
        }
        long written = 0;
        for (DataFile f : added) {
            written += f.recordCount();
        }
        return live == written ? new CompactionRowMap(replaced, deletedAtBase, added) : null;
    }

    boolean replaces(String location) {
        return replacedIndex.containsKey(location);
    }

    /** The new files, in order. */
    List<DataFile> added() {
        return added;
    }

    /**
     * A row of one of the new files: the index of the file in {@link #added()} and its position.
     */
    record Target(int file, long position) {}

    /**
     * Where row {@code position} of the replaced file {@code replaced} is in the new files.
     *
     * @return null when the position is not a live row of the replaced file at the base
     */
    Target target(String replaced, long position) {
        int i = replacedIndex.get(replaced);
        long[] deleted = deletedAtBase.get(i);
        if (position < 0 || Arrays.binarySearch(deleted, position) >= 0) {
            return null;
        }
        int below = -Arrays.binarySearch(deleted, position) - 1;
        long row = offsets[i] + position - below;
        if (row >= starts[starts.length - 1]) {
            return null;
        }
        int file = Arrays.binarySearch(starts, row);
        if (file >= 0) {
            while (file + 1 < starts.length && starts[file + 1] == row) {
                file++; // an empty new file holds no row
            }
        } else {
            file = -file - 2;
        }
        return new Target(file, row - starts[file]);
    }

    /**
     * Positions in the new files: collects mapped rows per new file.
     *
     * @return false when a position is not a live row of the replaced file at the base
     */
    boolean map(String replaced, long position, Positions into) {
        Target t = target(replaced, position);
        if (t == null) {
            return false;
        }
        into.add(t.file(), t.position());
        return true;
    }

    /** Mapped rows, per new file. */
    final class Positions {
        private final long[][] positions = new long[added.size()][];
        private final int[] counts = new int[added.size()];

        void add(int file, long position) {
            long[] p = positions[file];
            if (p == null) {
                p = positions[file] = new long[16];
            } else if (counts[file] == p.length) {
                p = positions[file] = Arrays.copyOf(p, p.length * 2);
            }
            p[counts[file]++] = position;
        }

        /** The rows to delete, per new file that has any, positions ascending. */
        List<LiveRowLocator.FileRows> rows(Map<String, PositionDeleteIndex> existingDeletes) {
            List<LiveRowLocator.FileRows> out = new ArrayList<>();
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] > 0) {
                    long[] p = Arrays.copyOf(positions[i], counts[i]);
                    Arrays.sort(p);
                    DataFile f = added.get(i);
                    out.add(new LiveRowLocator.FileRows(f, p, existingDeletes.get(f.location())));
                }
            }
            return out;
        }
    }

    /** The task's positions deleted by its position deletes; null when it has none. */
    static PositionDeleteIndex deletedPositions(Table table, FileScanTask task) {
        if (task.deletes().isEmpty()) {
            return null;
        }
        return new GenericDeleteFilter(table.io(), task, table.schema(), POSITIONS)
                .deletedRowPositions();
    }

    /** The positions, sorted; empty for null. */
    static long[] sorted(PositionDeleteIndex deletes) {
        if (deletes == null) {
            return new long[0];
        }
        long[] out = new long[(int) deletes.cardinality()];
        int[] n = {0};
        deletes.forEach(p -> out[n[0]++] = p);
        Arrays.sort(out);
        return out;
    }
}

package dev.tributary.lake.iceberg;

import dev.tributary.lake.api.write.AttemptFileNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Carries the rows tiering deleted by position after a compaction's base snapshot into the
 * compaction's new files, so the compaction commits instead of giving way (T48): on a PK table with
 * position deletes nearly every round retracts rows of nearly every data file, so a compaction that
 * gave way to each such round would never commit while rounds come more often than it takes.
 *
 * <p>A compaction writes the live rows (at its base) of the files it replaces in order, so the row
 * at position {@code p} of a replaced file is row {@code offset + p - (rows deleted before p at the
 * base)} of the new files, read in order. The deletes committed since the base for a replaced file
 * are mapped that way onto the new files and written as their deletion vectors (format v3) or
 * file-scoped position deletes (v2); the replaced file's own new deletes go with it. Only deletes
 * that name one data file can be carried: an equality delete, or a position delete file of several
 * data files, leaves the compaction to give way as before.
 */
final class IcebergCompactionDeletes {
    /**
     * What the compaction's commit does besides replacing its data files.
     *
     * @param validFromSnapshotId the snapshot whose deletes the commit accounts for: it is
     *     validated from there
     * @param added the new files' deletes carried over
     * @param removed the delete files that go with the replaced data files (those still live)
     */
    record Carried(long validFromSnapshotId, List<DeleteFile> added, List<DeleteFile> removed) {}

    private IcebergCompactionDeletes() {}

    /** Nothing carried: the commit is validated from the base and removes what the parts name. */
    static Carried none(long baseSnapshotId, List<IcebergCompaction> parts) {
        List<DeleteFile> removed = new ArrayList<>();
        parts.forEach(c -> removed.addAll(c.removedDeletes()));
        return new Carried(baseSnapshotId, List.of(), removed);
    }

    /**
     * The deletes to carry from {@code base} (every part's base snapshot) to {@code current}; null
     * when some cannot be carried. New delete files are created through {@code io}.
     */
    static Carried carry(
            Table table,
            Snapshot base,
            Snapshot current,
            List<IcebergCompaction> parts,
            AttemptFileIO io,
            long tableId,
            long maintenanceId)
            throws IOException {
        if (current.snapshotId() == base.snapshotId() || noDeletes(current)) {
            return none(base.snapshotId(), parts);
        }
        List<DeleteFile> removed = new ArrayList<>();
        Set<String> liveDeletes = new HashSet<>();
        IcebergBuckets.liveDeleteFiles(table, current).forEach(d -> liveDeletes.add(key(d)));
        for (IcebergCompaction c : parts) {
            for (DeleteFile d : c.removedDeletes()) {
                if (liveDeletes.contains(key(d))) {
                    removed.add(d); // a round may have replaced a DV of the base by a merged one
                }
            }
        }
        Set<String> replaced = new HashSet<>();
        parts.forEach(c -> c.replaced().forEach(f -> replaced.add(f.location())));
        Map<String, FileScanTask> atBase = tasks(table, base, replaced);
        Map<String, FileScanTask> atCurrent = tasks(table, current, replaced);
        List<LiveRowLocator.FileRows> carried = new ArrayList<>();
        for (IcebergCompaction c : parts) {
            List<LiveRowLocator.FileRows> rows = carry(table, c, atBase, atCurrent, removed);
            if (rows == null) {
                return null;
            }
            carried.addAll(rows);
        }
        if (carried.isEmpty()) {
            return new Carried(current.snapshotId(), List.of(), removed);
        }
        DeleteWriteResult written =
                LakeRowDeletes.writeAtCommit(
                        table,
                        carried,
                        io,
                        AttemptFileNames.maintenanceTag(tableId, maintenanceId));
        return new Carried(current.snapshotId(), written.deleteFiles(), removed);
    }

    /** The rows of one part's new files deleted since its base; null when they cannot be mapped. */
    private static List<LiveRowLocator.FileRows> carry(
            Table table,
            IcebergCompaction c,
            Map<String, FileScanTask> atBase,
            Map<String, FileScanTask> atCurrent,
            List<DeleteFile> removed) {
        List<long[]> deletedAtBase = new ArrayList<>();
        for (DataFile f : c.replaced()) {
            FileScanTask before = atBase.get(f.location());
            if (before == null || hasEqualityDeletes(before)) {
                return null; // rows the base's equality deletes hid: no row order to map
            }
            deletedAtBase.add(
                    CompactionRowMap.sorted(CompactionRowMap.deletedPositions(table, before)));
        }
        CompactionRowMap map = CompactionRowMap.of(c.replaced(), deletedAtBase, c.added());
        if (map == null) {
            return null;
        }
        CompactionRowMap.Positions positions = map.new Positions();
        for (int i = 0; i < c.replaced().size(); i++) {
            DataFile f = c.replaced().get(i);
            FileScanTask before = atBase.get(f.location());
            FileScanTask now = atCurrent.get(f.location());
            if (now == null) {
                return null; // gone
            }
            Set<String> old = new HashSet<>();
            before.deletes().forEach(d -> old.add(key(d)));
            boolean changed = false;
            for (DeleteFile d : now.deletes()) {
                if (old.contains(key(d))) {
                    continue;
                }
                if (d.content() != FileContent.POSITION_DELETES
                        || !f.location().equals(ContentFileUtil.referencedDataFileLocation(d))) {
                    return null;
                }
                removed.add(d);
                changed = true;
            }
            if (changed) {
                long[] deletedBefore = deletedAtBase.get(i);
                boolean[] unmapped = {false};
                CompactionRowMap.deletedPositions(table, now)
                        .forEach(
                                p -> {
                                    if (Arrays.binarySearch(deletedBefore, p) < 0
                                            && !map.map(f.location(), p, positions)) {
                                        unmapped[0] = true;
                                    }
                                });
                if (unmapped[0]) {
                    return null;
                }
            }
        }
        return positions.rows(Map.of());
    }

    /** The scan tasks, with their deletes, of the given data files at {@code snapshot}. */
    private static Map<String, FileScanTask> tasks(
            Table table, Snapshot snapshot, Set<String> locations) {
        Map<String, FileScanTask> out = new HashMap<>();
        for (FileScanTask t : IcebergSnapshotFiles.of(table, snapshot.snapshotId())) {
            if (locations.contains(t.file().location())) {
                out.put(t.file().location(), t);
            }
        }
        return out;
    }

    /** Whether the snapshot has no delete file at all (a log table's, say). */
    private static boolean noDeletes(Snapshot snapshot) {
        return "0".equals(snapshot.summary().get(SnapshotSummary.TOTAL_DELETE_FILES_PROP));
    }

    private static boolean hasEqualityDeletes(FileScanTask task) {
        return task.deletes().stream().anyMatch(d -> d.content() == FileContent.EQUALITY_DELETES);
    }

    /** Identifies a delete file, a deletion vector by its blob within the Puffin file too. */
    private static String key(DeleteFile d) {
        return d.location() + "#" + d.contentOffset();
    }
}

package dev.tributary.lake.iceberg;

import dev.tributary.common.id.LakeBucket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Moves a round's deletes of rows in data files that a compaction replaced after the round's
 * writers found the rows onto the compaction's new files (T48), so the round commits instead of
 * failing and being written again: at 100 ms rounds with compaction after every round, about one
 * round in ten failed that way. Only a Tributary compaction that wrote its files in location order
 * ({@link CompactionRowMap#BASE_SNAPSHOT_PROPERTY}) can be mapped. Rows are followed through a
 * chain of such compactions (F compacted into G, then G into H while the round's commit waited for
 * the catalog), each link's map applied to the previous one's positions, to files still live; any
 * other change to the files the round's rows went through still fails the round (retriable).
 */
final class CompactedRowDeletes {

    /**
     * The round's deletes after the move.
     *
     * @param validFromSnapshotId the snapshot the commit is validated from
     * @param deletes the delete files to add
     * @param rewritten the delete files to remove (merged into added ones)
     * @param referenced the data files the deletes point at, which must still exist
     * @param dropped the round's delete files no longer committed
     */
    record Deletes(
            long validFromSnapshotId,
            List<DeleteFile> deletes,
            List<DeleteFile> rewritten,
            List<CharSequence> referenced,
            List<DeleteFile> dropped) {}

    private CompactedRowDeletes() {}

    /**
     * The round's deletes, moved where files they point at were compacted since {@code lakeBase}
     * ({@code data} are the round's new data files); unchanged (validated from {@code lakeBase})
     * when none was; null when a file is gone in a way that cannot be mapped.
     */
    static Deletes of(
            Table table,
            Snapshot lakeBase,
            List<DataFile> data,
            List<DeleteFile> deletes,
            List<DeleteFile> rewritten,
            List<CharSequence> referenced,
            AttemptFileIO io,
            String tag)
            throws IOException {
        Snapshot current = table.currentSnapshot();
        Map<String, FileScanTask> live = new HashMap<>();
        for (FileScanTask t : IcebergSnapshotFiles.of(table, current.snapshotId())) {
            live.put(t.file().location(), t);
        }
        Set<String> missing = new HashSet<>();
        referenced.forEach(f -> missing.add(f.toString()));
        missing.removeIf(live::containsKey);
        data.forEach(f -> missing.remove(f.location())); // the round's own, with in-split deletes
        if (missing.isEmpty()) {
            return new Deletes(lakeBase.snapshotId(), deletes, rewritten, referenced, List.of());
        }
        Map<String, CompactionRowMap> maps = maps(table, lakeBase, current, missing, live);
        if (maps == null) {
            return null;
        }
        BaseDeleteLoader loader = new BaseDeleteLoader(d -> table.io().newInputFile(d));
        Map<String, Moved> moved = new LinkedHashMap<>();
        List<DeleteFile> kept = new ArrayList<>();
        List<DeleteFile> dropped = new ArrayList<>();
        for (DeleteFile d : deletes) {
            String file = ContentFileUtil.referencedDataFileLocation(d);
            if (file == null || !missing.contains(file)) {
                if (file == null && d.content() == FileContent.POSITION_DELETES) {
                    return null; // a position delete of several files: not ours to split
                }
                kept.add(d);
                continue;
            }
            List<DeleteFile> before = new ArrayList<>();
            for (DeleteFile r : rewritten) {
                if (file.equals(ContentFileUtil.referencedDataFileLocation(r))) {
                    before.add(r);
                }
            }
            PositionDeleteIndex old =
                    before.isEmpty() ? null : loader.loadPositionDeletes(before, file);
            boolean[] unmapped = {false};
            loader.loadPositionDeletes(List.of(d), file)
                    .forEach(
                            p -> {
                                if ((old == null || !old.isDeleted(p))
                                        && !follow(maps, live, file, p, moved)) {
                                    unmapped[0] = true;
                                }
                            });
            if (unmapped[0]) {
                return null;
            }
            dropped.add(d);
        }
        List<DeleteFile> keptRewritten = new ArrayList<>();
        for (DeleteFile r : rewritten) {
            if (!missing.contains(ContentFileUtil.referencedDataFileLocation(r))) {
                keptRewritten.add(r); // the compaction removed the others with their files
            }
        }
        List<CharSequence> keptReferenced = new ArrayList<>();
        for (CharSequence f : referenced) {
            if (!missing.contains(f.toString())) {
                keptReferenced.add(f);
            }
        }
        List<LiveRowLocator.FileRows> rows = new ArrayList<>();
        for (Moved m : moved.values()) {
            long[] p = Arrays.copyOf(m.positions, m.count);
            Arrays.sort(p);
            rows.add(
                    new LiveRowLocator.FileRows(
                            m.file,
                            p,
                            CompactionRowMap.deletedPositions(table, live.get(m.file.location()))));
        }
        List<DeleteFile> added = new ArrayList<>(kept);
        List<DeleteFile> removed = new ArrayList<>(keptRewritten);
        if (!rows.isEmpty()) {
            DeleteWriteResult written = LakeRowDeletes.writeAtCommit(table, rows, io, tag);
            added.addAll(written.deleteFiles());
            removed.addAll(written.rewrittenDeleteFiles());
            for (LiveRowLocator.FileRows r : rows) {
                keptReferenced.add(r.file().location());
            }
        }
        return new Deletes(current.snapshotId(), added, removed, keptReferenced, dropped);
    }

    /**
     * Follows row {@code position} of {@code file} through the compactions that replaced it, one
     * after another, to the live file that holds it now, and collects it there.
     *
     * @return false when a link does not hold the row or the last file is not live
     */
    private static boolean follow(
            Map<String, CompactionRowMap> maps,
            Map<String, FileScanTask> live,
            String file,
            long position,
            Map<String, Moved> into) {
        String at = file;
        long p = position;
        DataFile holder = null;
        // each link replaces its files by new ones, so a chain ends within maps.size() links
        for (int links = 0; links <= maps.size(); links++) {
            CompactionRowMap map = maps.get(at);
            if (map == null) {
                if (holder == null || !live.containsKey(at)) {
                    return false;
                }
                into.computeIfAbsent(at, f -> new Moved(live.get(f).file())).add(p);
                return true;
            }
            CompactionRowMap.Target t = map.target(at, p);
            if (t == null) {
                return false;
            }
            holder = map.added().get(t.file());
            at = holder.location();
            p = t.position();
        }
        return false;
    }

    /** The rows moved onto one live file. */
    private static final class Moved {
        private final DataFile file;
        private long[] positions = new long[16];
        private int count;

        Moved(DataFile file) {
            this.file = file;
        }

        void add(long position) {
            if (count == positions.length) {
                positions = Arrays.copyOf(positions, count * 2);
            }
            positions[count++] = position;
        }
    }

    /**
     * The row maps of the compactions since {@code lakeBase} that replaced the missing files, or
     * the files an earlier such compaction wrote them into (a chain: F compacted into G, then G
     * into H), by replaced file; null when a file the rows went through is gone for another reason,
     * or a compaction's map cannot be built (not ours, its base expired, ...).
     */
    private static Map<String, CompactionRowMap> maps(
            Table table,
            Snapshot lakeBase,
            Snapshot current,
            Set<String> missing,
            Map<String, FileScanTask> live) {
        List<Snapshot> since = new ArrayList<>();
        for (Snapshot s = current; s.snapshotId() != lakeBase.snapshotId(); ) {
            since.add(s);
            if (s.parentId() == null) {
                return null; // the writers' snapshot is not an ancestor: rolled back meanwhile
            }
            s = table.snapshot(s.parentId());
            if (s == null) {
                return null;
            }
        }
        Collections.reverse(since);
        Map<String, CompactionRowMap> maps = new HashMap<>();
        // the files the round's rows are in, as the compactions since moved them
        Set<String> followed = new HashSet<>(missing);
        Map<Integer, PartitionSpec> specs = table.specs();
        for (Snapshot s : since) {
            String base = s.summary().get(CompactionRowMap.BASE_SNAPSHOT_PROPERTY);
            if (base == null) {
                continue;
            }
            Map<LakeBucket, List<DataFile>> replaced =
                    byUnit(s.removedDataFiles(table.io()), specs);
            Map<LakeBucket, List<DataFile>> added = byUnit(s.addedDataFiles(table.io()), specs);
            for (Map.Entry<LakeBucket, List<DataFile>> unit : replaced.entrySet()) {
                if (unit.getValue().stream().noneMatch(f -> followed.contains(f.location()))) {
                    continue;
                }
                CompactionRowMap map =
                        map(table, Long.parseLong(base), unit.getValue(), added.get(unit.getKey()));
                if (map == null) {
                    return null;
                }
                unit.getValue().forEach(f -> maps.put(f.location(), map));
                map.added().forEach(g -> followed.add(g.location()));
            }
        }
        for (String f : followed) {
            if (!maps.containsKey(f) && !live.containsKey(f)) {
                return null; // removed by something other than our compaction
            }
        }
        return maps;
    }

    private static CompactionRowMap map(
            Table table, long baseSnapshotId, List<DataFile> replaced, List<DataFile> added) {
        if (added == null || table.snapshot(baseSnapshotId) == null) {
            return null;
        }
        Map<String, FileScanTask> atBase = new HashMap<>();
        for (FileScanTask t : IcebergSnapshotFiles.of(table, baseSnapshotId)) {
            atBase.put(t.file().location(), t);
        }
        List<long[]> deletedAtBase = new ArrayList<>();
        for (DataFile f : replaced) {
            FileScanTask t = atBase.get(f.location());
            if (t == null
                    || t.deletes().stream()
                            .anyMatch(d -> d.content() == FileContent.EQUALITY_DELETES)) {
                return null;
            }
            deletedAtBase.add(CompactionRowMap.sorted(CompactionRowMap.deletedPositions(table, t)));
        }
        return CompactionRowMap.of(replaced, deletedAtBase, added);
    }

    /** The files per (partition, bucket), each unit's in location order. */
    private static Map<LakeBucket, List<DataFile>> byUnit(
            Iterable<DataFile> files, Map<Integer, PartitionSpec> specs) {
        Map<LakeBucket, List<DataFile>> out = new HashMap<>();
        for (DataFile f : files) {
            out.computeIfAbsent(IcebergBuckets.unitOf(f, specs), u -> new ArrayList<>())
                    .add(f.copy());
        }
        out.values().forEach(l -> l.sort(Comparator.comparing(DataFile::location)));
        return out;
    }
}

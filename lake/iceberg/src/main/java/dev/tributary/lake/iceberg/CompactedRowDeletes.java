package dev.tributary.lake.iceberg;

import dev.tributary.common.id.LakeBucket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
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
 * ({@link CompactionRowMap#BASE_SNAPSHOT_PROPERTY}) can be mapped, and only when its new files are
 * still live; any other change to the files the round points at still fails the round (retriable).
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
        Map<CompactionRowMap, CompactionRowMap.Positions> moved = new HashMap<>();
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
            CompactionRowMap map = maps.get(file);
            List<DeleteFile> before = new ArrayList<>();
            for (DeleteFile r : rewritten) {
                if (file.equals(ContentFileUtil.referencedDataFileLocation(r))) {
                    before.add(r);
                }
            }
            PositionDeleteIndex old =
                    before.isEmpty() ? null : loader.loadPositionDeletes(before, file);
            CompactionRowMap.Positions into = moved.computeIfAbsent(map, m -> m.new Positions());
            boolean[] unmapped = {false};
            loader.loadPositionDeletes(List.of(d), file)
                    .forEach(
                            p -> {
                                if ((old == null || !old.isDeleted(p)) && !map.map(file, p, into)) {
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
        Map<String, PositionDeleteIndex> existing = new HashMap<>();
        for (Map.Entry<CompactionRowMap, CompactionRowMap.Positions> e : moved.entrySet()) {
            for (DataFile g : e.getKey().added()) {
                existing.put(
                        g.location(),
                        CompactionRowMap.deletedPositions(table, live.get(g.location())));
            }
            rows.addAll(e.getValue().rows(existing));
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
     * The row maps of the compactions since {@code lakeBase} that replaced the missing files, by
     * replaced file; null when a file is missing for another reason, or a compaction's map cannot
     * be built or its new files are no longer live.
     */
    private static Map<String, CompactionRowMap> maps(
            Table table,
            Snapshot lakeBase,
            Snapshot current,
            Set<String> missing,
            Map<String, FileScanTask> live) {
        Map<String, CompactionRowMap> maps = new HashMap<>();
        Map<Integer, PartitionSpec> specs = table.specs();
        for (Snapshot s = current; s.snapshotId() != lakeBase.snapshotId(); ) {
            String base = s.summary().get(CompactionRowMap.BASE_SNAPSHOT_PROPERTY);
            if (base != null) {
                Map<LakeBucket, List<DataFile>> replaced =
                        byUnit(s.removedDataFiles(table.io()), specs);
                Map<LakeBucket, List<DataFile>> added = byUnit(s.addedDataFiles(table.io()), specs);
                for (Map.Entry<LakeBucket, List<DataFile>> unit : replaced.entrySet()) {
                    if (unit.getValue().stream().noneMatch(f -> missing.contains(f.location()))) {
                        continue;
                    }
                    CompactionRowMap map =
                            map(
                                    table,
                                    Long.parseLong(base),
                                    unit.getValue(),
                                    added.get(unit.getKey()),
                                    live);
                    if (map == null) {
                        return null;
                    }
                    unit.getValue().forEach(f -> maps.put(f.location(), map));
                }
            }
            if (s.parentId() == null) {
                return null; // the writers' snapshot is not an ancestor: rolled back meanwhile
            }
            s = table.snapshot(s.parentId());
            if (s == null) {
                return null;
            }
        }
        return maps.keySet().containsAll(missing) ? maps : null;
    }

    private static CompactionRowMap map(
            Table table,
            long baseSnapshotId,
            List<DataFile> replaced,
            List<DataFile> added,
            Map<String, FileScanTask> live) {
        if (added == null || table.snapshot(baseSnapshotId) == null) {
            return null;
        }
        for (DataFile g : added) {
            if (!live.containsKey(g.location())) {
                return null; // compacted again since
            }
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

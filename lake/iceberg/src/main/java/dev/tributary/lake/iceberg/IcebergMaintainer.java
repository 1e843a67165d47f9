package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.maintenance.CompactionPlan;
import dev.tributary.lake.api.maintenance.CompactionPolicy;
import dev.tributary.lake.api.maintenance.CompactionResults;
import dev.tributary.lake.api.maintenance.ExpiryPolicy;
import dev.tributary.lake.api.maintenance.ExpiryResult;
import dev.tributary.lake.api.maintenance.LakeCompactionResult;
import dev.tributary.lake.api.maintenance.LakeMaintainer;
import dev.tributary.lake.api.maintenance.LakeTableStats;
import dev.tributary.lake.api.maintenance.MaintenanceCommitResult;
import dev.tributary.lake.api.maintenance.MaintenanceSnapshotProperties;
import dev.tributary.lake.api.write.AttemptFileNames;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Maintenance of one Iceberg table: statistics from the current snapshot's manifests, compaction
 * commits as one {@code RewriteFiles} that carries the position deletes rounds committed since the
 * grant's base snapshot into the new files ({@link IcebergCompactionDeletes}) and is validated from
 * the snapshot it carried them from (Iceberg refuses it when a file it replaces is gone or a delete
 * for one was added since: it is carried again, up to {@value #COMMIT_ATTEMPTS} times, or gives
 * way; a tiering commit is never refused because of it), and snapshot expiry with Iceberg's own
 * {@code ExpireSnapshots}, told to keep the newest tiering snapshot and the Puffin files of
 * deletion vectors a retained snapshot still reads.
 */
final class IcebergMaintainer implements LakeMaintainer {
    /** Commits of one compaction, each after carrying the deletes rounds committed meanwhile. */
    private static final int COMMIT_ATTEMPTS = 3;

    private final Catalog catalog;
    private final TablePath tablePath;

    IcebergMaintainer(Catalog catalog, TablePath tablePath) {
        this.catalog = catalog;
        this.tablePath = tablePath;
    }

    private Table table() {
        return IcebergLakeStorage.loadTable(catalog, tablePath);
    }

    @Override
    public LakeTableStats stats() {
        return stats(table(), new TreeMap<>());
    }

    /**
     * Statistics; fills {@code deletesPerUnit} with the live delete files per (partition, bucket).
     */
    private static LakeTableStats stats(Table t, Map<LakeBucket, Integer> deletesPerUnit) {
        Snapshot current = t.currentSnapshot();
        if (current == null) {
            return LakeTableStats.EMPTY;
        }
        int snapshots = 0;
        long oldest = Long.MAX_VALUE;
        for (Snapshot s : t.snapshots()) {
            snapshots++;
            oldest = Math.min(oldest, s.timestampMillis());
        }
        Map<Integer, PartitionSpec> specs = t.specs();
        // a partition's bucket b is its own set of files: counted, and compacted, on its own
        SortedMap<String, SortedMap<Integer, Integer>> perPartition = new TreeMap<>();
        long bytes = 0;
        for (DataFile f : IcebergBuckets.liveDataFiles(t, current)) {
            perPartition
                    .computeIfAbsent(IcebergBuckets.partitionOf(f, specs), p -> new TreeMap<>())
                    .merge(IcebergBuckets.bucketOf(f, specs), 1, Integer::sum);
            bytes += f.fileSizeInBytes();
        }
        int deletes = 0;
        for (DeleteFile f : IcebergBuckets.liveDeleteFiles(t, current)) {
            deletesPerUnit.merge(IcebergBuckets.unitOf(f, specs), 1, Integer::sum);
            deletes++;
        }
        return LakeTableStats.of(
                current.snapshotId(), snapshots, oldest, perPartition, deletes, bytes);
    }

    @Override
    public CompactionPlan planCompaction(CompactionPolicy policy) {
        Map<LakeBucket, Integer> deletes = new TreeMap<>();
        LakeTableStats stats = stats(table(), deletes);
        // Iceberg's delete files count against max-files too: they slow every read of the unit
        Map<LakeBucket, Integer> files = new TreeMap<>(stats.dataFilesPerUnit());
        deletes.forEach((unit, n) -> files.merge(unit, n, Integer::sum));
        return CompactionPlan.select(stats, files, policy);
    }

    @Override
    public MaintenanceCommitResult commitCompaction(
            long tableId, long maintenanceId, List<LakeCompactionResult> results) {
        CompactionResults in =
                CompactionResults.of(
                        IcebergLakeStoragePlugin.IDENTIFIER,
                        tablePath,
                        tableId,
                        maintenanceId,
                        results);
        if (in.payloads().isEmpty()) {
            return MaintenanceCommitResult.nothingToCommit();
        }
        Table table =
                TaggedCommitTable.of(
                        table(), AttemptFileNames.maintenanceTag(tableId, maintenanceId));
        List<IcebergCompaction> parts =
                in.payloads().stream()
                        .map(p -> IcebergCompaction.decode(p, table.specs()))
                        .toList();
        IcebergCompaction first = parts.get(0);
        for (IcebergCompaction c : parts) {
            if (c.baseSnapshotId() != first.baseSnapshotId()) {
                throw new InvalidInputException(
                        "compaction "
                                + maintenanceId
                                + " of '"
                                + tablePath
                                + "' read buckets at different snapshots ("
                                + first.baseSnapshotId()
                                + " and "
                                + c.baseSnapshotId()
                                + "); one grant commits against one base snapshot");
            }
        }
        for (int attempt = 1; ; attempt++) {
            AttemptFileIO io = new AttemptFileIO(table.io());
            String what = "compaction " + maintenanceId + " of '" + tablePath + "'";
            try {
                IcebergCompactionDeletes.Carried carriable =
                        carriedDeletes(table, first, parts, io, tableId, maintenanceId);
                IcebergCompactionDeletes.Carried carried =
                        carriable != null
                                ? carriable
                                : IcebergCompactionDeletes.none(first.baseSnapshotId(), parts);
                RewriteFiles rewrite =
                        table.newRewrite()
                                .validateFromSnapshot(carried.validFromSnapshotId())
                                .dataSequenceNumber(first.baseSequenceNumber());
                for (IcebergCompaction c : parts) {
                    c.replaced().forEach(rewrite::deleteFile);
                    c.added().forEach(rewrite::addFile);
                }
                carried.removed().forEach(rewrite::deleteFile);
                carried.added().forEach(rewrite::addFile);
                MaintenanceSnapshotProperties.compaction(tableId, maintenanceId)
                        .toProperties()
                        .forEach(rewrite::set);
                if (!table.schema().identifierFieldIds().isEmpty()
                        && parts.stream().allMatch(IcebergMaintainer::inLocationOrder)) {
                    // a round that found rows in the replaced files before this commit can move
                    // its deletes onto the new files (IcebergLakeCommitter). Only a primary-key
                    // table's rounds retract rows: on a log table expiry need not keep the base
                    rewrite.set(
                            CompactionRowMap.BASE_SNAPSHOT_PROPERTY,
                            Long.toString(first.baseSnapshotId()));
                }
                try {
                    rewrite.commit();
                    break;
                } catch (ValidationException | CommitFailedException e) {
                    io.discard("the carried deletes of " + what);
                    // a round committed deletes since they were carried: carry them again. Also
                    // when none were to carry yet (nothing committed since the base): a round
                    // that commits meanwhile is carried like any other
                    if (carriable == null || attempt >= COMMIT_ATTEMPTS) {
                        return MaintenanceCommitResult.conflict(e.getMessage());
                    }
                    table.refresh();
                }
            } catch (CommitStateUnknownException e) {
                throw new StorageException(
                        "the outcome of " + what + " is unknown: " + e.getMessage(), e);
            } catch (IOException | RuntimeException e) {
                io.discard("the carried deletes of " + what);
                throw new StorageException(
                        "committing compaction "
                                + maintenanceId
                                + " of Iceberg table '"
                                + tablePath
                                + "' failed: "
                                + e.getMessage(),
                        e);
            }
        }
        table.refresh();
        long snapshotId = -1;
        for (Snapshot s = table.currentSnapshot();
                s != null;
                s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
            Optional<MaintenanceSnapshotProperties> p =
                    MaintenanceSnapshotProperties.fromProperties(s.summary());
            if (p.isPresent() && p.get().maintenanceId() == maintenanceId) {
                snapshotId = s.snapshotId();
                break;
            }
        }
        return in.committed(snapshotId);
    }

    private static boolean inLocationOrder(IcebergCompaction c) {
        return sortedByLocation(c.replaced()) && sortedByLocation(c.added());
    }

    private static boolean sortedByLocation(List<DataFile> files) {
        for (int i = 1; i < files.size(); i++) {
            if (files.get(i - 1).location().compareTo(files.get(i).location()) > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The deletes the commit carries into the new files; null when they cannot be carried (the base
     * is gone, or deletes that name no single data file): the commit is then validated from the
     * base as before and gives way to any round that retracted rows of its files.
     */
    private static IcebergCompactionDeletes.Carried carriedDeletes(
            Table table,
            IcebergCompaction first,
            List<IcebergCompaction> parts,
            AttemptFileIO io,
            long tableId,
            long maintenanceId)
            throws IOException {
        Snapshot base = table.snapshot(first.baseSnapshotId());
        Snapshot current = table.currentSnapshot();
        IcebergCompactionDeletes.Carried carried =
                base == null || current == null
                        ? null
                        : IcebergCompactionDeletes.carry(
                                table, base, current, parts, io, tableId, maintenanceId);
        return carried;
    }

    @Override
    public void abortCompaction(List<LakeCompactionResult> results) {
        Table table = table();
        Set<String> live = new HashSet<>();
        Snapshot current = table.currentSnapshot();
        if (current != null) {
            for (DataFile f : IcebergBuckets.liveDataFiles(table, current)) {
                live.add(IcebergOrphanFiles.normalize(f.location()));
            }
        }
        for (LakeCompactionResult r : results) {
            if (!r.tablePath().equals(tablePath)) {
                continue;
            }
            for (String path : r.newFiles()) {
                if (!live.contains(IcebergOrphanFiles.normalize(path))) {
                    table.io().deleteFile(path);
                }
            }
        }
    }

    @Override
    public ExpiryResult expireSnapshots(ExpiryPolicy policy) {
        Table table = table();
        Snapshot current = table.currentSnapshot();
        if (current == null) {
            return ExpiryResult.nothing(0);
        }
        // the newest tiering snapshot and every later one stay (T21 reads it), and so does the
        // base of every compaction committed after it: the round under way may have found its
        // rows in files those compactions replaced, one after another, and moves its deletes by
        // each one's base (CompactedRowDeletes). A later round makes them unneeded.
        int retain = policy.numRetained();
        int depth = 0;
        boolean tieringSeen = false;
        Set<Long> compactionBases = new HashSet<>();
        for (Snapshot s = current;
                s != null;
                s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
            depth++;
            String base = s.summary().get(CompactionRowMap.BASE_SNAPSHOT_PROPERTY);
            if (!tieringSeen && base != null) {
                compactionBases.add(Long.parseLong(base));
            }
            Optional<TieringSnapshotProperties> p =
                    TieringSnapshotProperties.fromProperties(s.summary());
            if (!tieringSeen && p.isPresent() && p.get().tableId() == policy.tableId()) {
                tieringSeen = true;
                retain = Math.max(retain, depth);
            }
            if (compactionBases.remove(s.snapshotId())) {
                retain = Math.max(retain, depth);
            }
            if (tieringSeen && compactionBases.isEmpty()) {
                break;
            }
        }
        int before = count(table.snapshots());
        Map<String, Long> filesBefore = dataFilesOnDisk(table);
        try {
            ExpireSnapshots expire =
                    table.expireSnapshots()
                            .expireOlderThan(
                                    System.currentTimeMillis() - policy.timeRetained().toMillis())
                            .retainLast(retain)
                            .cleanExpiredFiles(true);
            if (TableUtil.formatVersion(table) >= 3) {
                // only v3 tables have deletion vectors; others keep the FileIO's bulk delete
                expire.deleteWith(new KeepLivePuffinFiles(table)::delete);
            }
            expire.commit();
        } catch (RuntimeException e) {
            throw new StorageException(
                    "expiring snapshots of Iceberg table '"
                            + tablePath
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
        table.refresh();
        int after = count(table.snapshots());
        Map<String, Long> filesAfter = dataFilesOnDisk(table);
        int deleted = 0;
        long bytes = 0;
        for (Map.Entry<String, Long> f : filesBefore.entrySet()) {
            if (!filesAfter.containsKey(f.getKey())) {
                deleted++;
                bytes += f.getValue();
            }
        }
        return new ExpiryResult(Math.max(0, before - after), after, deleted, bytes);
    }

    /**
     * Deletes what expiry found expired, except Puffin files a retained snapshot still reads. One
     * Puffin file holds the deletion vectors of several data files (T48); when a round replaces one
     * of them, Iceberg's cleanup of the expired snapshot that removed it deletes the file by path,
     * and with it the deletion vectors of the other data files, which are still live.
     */
    private static final class KeepLivePuffinFiles {
        private final Table table;
        private Set<String> live;

        KeepLivePuffinFiles(Table table) {
            this.table = table;
        }

        synchronized void delete(String location) {
            if (live == null) {
                // called once the expiry committed: the table's snapshots are the retained ones
                table.refresh();
                live = new HashSet<>();
                for (Snapshot s : table.snapshots()) {
                    for (DeleteFile d : IcebergBuckets.liveDeleteFiles(table, s)) {
                        if (d.format() == FileFormat.PUFFIN) {
                            live.add(IcebergOrphanFiles.normalize(d.location()));
                        }
                    }
                }
            }
            if (!live.contains(IcebergOrphanFiles.normalize(location))) {
                table.io().deleteFile(location);
            }
        }
    }

    private static int count(Iterable<Snapshot> snapshots) {
        int n = 0;
        for (Snapshot ignored : snapshots) {
            n++;
        }
        return n;
    }

    /** Path -> size of every file under the table's data location. */
    static Map<String, Long> dataFilesOnDisk(Table table) {
        Map<String, Long> out = new TreeMap<>();
        if (!(table.io() instanceof SupportsPrefixOperations io)) {
            return out;
        }
        try {
            for (FileInfo f : io.listPrefix(IcebergOrphanFiles.listingPrefix(table))) {
                out.put(IcebergOrphanFiles.normalize(f.location()), f.size());
            }
        } catch (RuntimeException e) {
            if (!(e.getCause() instanceof java.io.FileNotFoundException)) {
                throw e;
            }
        }
        return out;
    }

    @Override
    public void close() {}
}

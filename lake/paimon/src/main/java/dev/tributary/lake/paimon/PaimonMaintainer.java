package dev.tributary.lake.paimon;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.commit.LakeSnapshot;
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
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.manifest.ManifestCommittable;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.apache.paimon.utils.InternalRowPartitionComputer;
import org.apache.paimon.utils.SnapshotManager;

/**
 * Maintenance of one Paimon table: statistics from the latest snapshot's manifests, compaction
 * commits under their own commit user (Paimon's conflict check makes a compaction give way to
 * anything that changed its files, while tiering commits, which only add files, are never checked
 * against it; a round into a deletion-vector table also compacts its own level-0 files, and its
 * compact snapshot is checked like any other), and snapshot expiry with Paimon's own {@code
 * ExpireSnapshots}, bounded so the newest tiering snapshot stays.
 */
final class PaimonMaintainer implements LakeMaintainer {
    /** The commit user of compaction snapshots (its commit identifiers are maintenance ids). */
    static final String COMMIT_USER = "__tributary_maintenance";

    /** At most this many snapshots are expired per call: bounded work per maintenance pass. */
    static final int EXPIRE_LIMIT = 100;

    private final Catalog catalog;
    private final TablePath tablePath;

    PaimonMaintainer(Catalog catalog, TablePath tablePath) {
        this.catalog = catalog;
        this.tablePath = tablePath;
    }

    private FileStoreTable table() {
        return PaimonLakeStorage.loadTable(catalog, tablePath);
    }

    @Override
    public LakeTableStats stats() {
        FileStoreTable t = table();
        SnapshotManager snapshots = t.snapshotManager();
        Snapshot latest = snapshots.latestSnapshot();
        Long earliest = snapshots.earliestSnapshotId();
        if (latest == null || earliest == null) {
            return LakeTableStats.EMPTY;
        }
        long oldest = -1;
        try {
            oldest = snapshots.tryGetSnapshot(earliest).timeMillis();
        } catch (FileNotFoundException expiredMeanwhile) {
            // an expiry raced us: the time is only for status
        }
        // a partition's bucket b is its own set of files: counted, and compacted, on its own
        SortedMap<String, SortedMap<Integer, Integer>> perPartition = new TreeMap<>();
        Map<BinaryRow, String> names = new HashMap<>();
        long bytes = 0;
        for (ManifestEntry e : liveFiles(t, latest)) {
            String partition = names.computeIfAbsent(e.partition(), p -> partitionName(t, p));
            perPartition
                    .computeIfAbsent(partition, p -> new TreeMap<>())
                    .merge(e.bucket(), 1, Integer::sum);
            bytes += e.file().fileSize();
        }
        return LakeTableStats.of(
                latest.id(), (int) (latest.id() - earliest + 1), oldest, perPartition, 0, bytes);
    }

    /** {@code k1=v1/k2=v2} of a partition, {@link LakeTableStats#UNPARTITIONED} for none. */
    static String partitionName(FileStoreTable t, BinaryRow partition) {
        if (t.partitionKeys().isEmpty()) {
            return LakeTableStats.UNPARTITIONED;
        }
        InternalRowPartitionComputer computer =
                new InternalRowPartitionComputer(
                        t.coreOptions().partitionDefaultName(),
                        t.schema().logicalPartitionType(),
                        t.partitionKeys().toArray(new String[0]),
                        t.coreOptions().legacyPartitionName());
        StringBuilder name = new StringBuilder();
        computer.generatePartValues(partition)
                .forEach(
                        (k, v) -> {
                            if (name.length() > 0) {
                                name.append('/');
                            }
                            name.append(k).append('=').append(v);
                        });
        return name.toString();
    }

    static List<ManifestEntry> liveFiles(FileStoreTable t, Snapshot snapshot) {
        return t.store().newScan().withSnapshot(snapshot).plan().files();
    }

    /**
     * The units over {@code max-files}, and in a table with deletion vectors also every unit with a
     * live level-0 file: its readers skip level 0, so such rows (a round whose compact snapshot
     * failed after its append snapshot landed, or another engine's write-only writer) stay
     * invisible until a compaction moves them up (T48).
     */
    @Override
    public CompactionPlan planCompaction(CompactionPolicy policy) {
        LakeTableStats stats = stats();
        Map<LakeBucket, Integer> files = stats.dataFilesPerUnit();
        FileStoreTable t = table();
        if (hidesLevelZero(t)) {
            Snapshot latest = t.snapshotManager().latestSnapshot();
            if (latest != null && latest.id() == stats.snapshotId()) {
                Map<LakeBucket, Integer> counted = new HashMap<>(files);
                for (LakeBucket unit : levelZeroUnits(t, latest)) {
                    counted.merge(unit, policy.maxFiles() + 1, Math::max);
                }
                files = counted;
            }
        }
        return CompactionPlan.select(stats, files, policy);
    }

    /**
     * Whether {@code t}'s readers skip level-0 files: a primary-key table with deletion vectors.
     */
    static boolean hidesLevelZero(FileStoreTable t) {
        return !t.primaryKeys().isEmpty() && t.coreOptions().deletionVectorsEnabled();
    }

    /** The (partition, bucket) units holding a live level-0 file at {@code snapshot}. */
    static Set<LakeBucket> levelZeroUnits(FileStoreTable t, Snapshot snapshot) {
        Set<LakeBucket> out = new HashSet<>();
        Map<BinaryRow, String> names = new HashMap<>();
        for (ManifestEntry e :
                t.store()
                        .newScan()
                        .withSnapshot(snapshot)
                        .withLevelFilter(level -> level == 0)
                        .plan()
                        .files()) {
            if (e.file().level() == 0) {
                out.add(
                        new LakeBucket(
                                names.computeIfAbsent(e.partition(), p -> partitionName(t, p)),
                                e.bucket()));
            }
        }
        return out;
    }

    @Override
    public MaintenanceCommitResult commitCompaction(
            long tableId, long maintenanceId, List<LakeCompactionResult> results) {
        CompactionResults in =
                CompactionResults.of(
                        PaimonLakeStoragePlugin.IDENTIFIER,
                        tablePath,
                        tableId,
                        maintenanceId,
                        results);
        FileStoreTable t = table().copy(PaimonSchemas.WRITE_ONLY);
        List<CommitMessage> messages = new ArrayList<>();
        in.payloads().forEach(p -> messages.addAll(PaimonCommitMessages.decode(p, t)));
        if (messages.isEmpty()) {
            return MaintenanceCommitResult.nothingToCommit();
        }
        String gone = missingInputs(t, messages);
        if (gone != null) {
            return MaintenanceCommitResult.conflict(gone);
        }
        ManifestCommittable committable = new ManifestCommittable(maintenanceId);
        messages.forEach(committable::addFileCommittable);
        MaintenanceSnapshotProperties.compaction(tableId, maintenanceId)
                .toProperties()
                .forEach(committable::addProperty);
        try (TableCommitImpl commit = t.newCommit(COMMIT_USER)) {
            commit.commit(committable);
        } catch (Exception e) {
            if (isConflict(e)) {
                return MaintenanceCommitResult.conflict(firstLine(e.getMessage()));
            }
            throw new StorageException(
                    "committing compaction "
                            + maintenanceId
                            + " of Paimon table '"
                            + tablePath
                            + "' failed: "
                            + firstLine(e.getMessage()),
                    e);
        }
        long snapshotId = committedSnapshot(t.snapshotManager(), maintenanceId);
        return in.committed(snapshotId);
    }

    /**
     * Why the compaction can no longer apply (a file it replaces is not live any more), or null.
     * Paimon would refuse it too; checking first keeps the refusal a plain outcome.
     */
    private static String missingInputs(FileStoreTable t, List<CommitMessage> messages) {
        Snapshot latest = t.snapshotManager().latestSnapshot();
        if (latest == null) {
            return "the table has no snapshot any more";
        }
        for (CommitMessage m : messages) {
            CommitMessageImpl msg = (CommitMessageImpl) m;
            Set<String> live = new HashSet<>();
            for (ManifestEntry e :
                    t.store()
                            .newScan()
                            .withSnapshot(latest)
                            .withPartitionBucket(msg.partition(), msg.bucket())
                            .plan()
                            .files()) {
                live.add(e.file().fileName());
            }
            for (DataFileMeta f : msg.compactIncrement().compactBefore()) {
                if (!live.contains(f.fileName())) {
                    return "file "
                            + f.fileName()
                            + " of bucket "
                            + msg.bucket()
                            + " is no longer live (compacted or removed since)";
                }
            }
        }
        return null;
    }

    private static boolean isConflict(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("Give up committing")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static long committedSnapshot(SnapshotManager snapshots, long maintenanceId) {
        Long latest = snapshots.latestSnapshotId();
        Long earliest = snapshots.earliestSnapshotId();
        if (latest == null || earliest == null) {
            return -1;
        }
        // the compaction is among the newest: tiering commits may have landed after it
        for (long id = latest; id >= Math.max(earliest, latest - 20); id--) {
            try {
                Snapshot s = snapshots.tryGetSnapshot(id);
                Optional<MaintenanceSnapshotProperties> p =
                        MaintenanceSnapshotProperties.fromProperties(s.properties());
                if (p.isPresent() && p.get().maintenanceId() == maintenanceId) {
                    return id;
                }
            } catch (FileNotFoundException expired) {
                break;
            }
        }
        return -1;
    }

    @Override
    public void abortCompaction(List<LakeCompactionResult> results) {
        FileStoreTable t = table();
        Snapshot latest = t.snapshotManager().latestSnapshot();
        Set<String> live = new HashSet<>();
        if (latest != null) {
            for (ManifestEntry e : liveFiles(t, latest)) {
                live.add(e.file().fileName());
            }
        }
        for (LakeCompactionResult r : results) {
            if (r.isEmpty() || !r.tablePath().equals(tablePath)) {
                continue;
            }
            String tag = AttemptFileNames.maintenanceTag(r.tableId(), r.maintenanceId());
            for (CommitMessage m : PaimonCommitMessages.decode(r.payload(), t)) {
                CommitMessageImpl msg = (CommitMessageImpl) m;
                DataFilePathFactory paths =
                        t.store()
                                .pathFactory()
                                .createDataFilePathFactory(msg.partition(), msg.bucket());
                for (DataFileMeta f : msg.compactIncrement().compactAfter()) {
                    // only files this grant wrote: an upgraded file keeps its old, live name
                    if (f.fileName().contains(tag) && !live.contains(f.fileName())) {
                        t.fileIO().deleteQuietly(paths.toPath(f));
                    }
                }
            }
        }
    }

    @Override
    public ExpiryResult expireSnapshots(ExpiryPolicy policy) {
        FileStoreTable t = table();
        SnapshotManager snapshots = t.snapshotManager();
        Long latest = snapshots.latestSnapshotId();
        if (latest == null) {
            return ExpiryResult.nothing(0);
        }
        int retainMin = policy.numRetained();
        Optional<LakeSnapshot> tiering =
                new PaimonLakeCommitter(catalog, tablePath).latestTieringSnapshot(policy.tableId());
        if (tiering.isPresent()) {
            // the newest tiering snapshot and everything after it stay (T21 reads it)
            retainMin = (int) Math.max(retainMin, latest - tiering.get().snapshotId() + 1);
        }
        Map<String, Long> before = PaimonFiles.dataFilesOnDisk(t);
        int expired;
        try {
            expired =
                    t.newExpireSnapshots()
                            .config(
                                    ExpireConfig.builder()
                                            .snapshotRetainMin(retainMin)
                                            .snapshotRetainMax(Integer.MAX_VALUE)
                                            .snapshotTimeRetain(policy.timeRetained())
                                            .snapshotMaxDeletes(EXPIRE_LIMIT)
                                            .build())
                            .expire();
        } catch (RuntimeException e) {
            throw new StorageException(
                    "expiring snapshots of Paimon table '"
                            + tablePath
                            + "' failed: "
                            + firstLine(e.getMessage()),
                    e);
        }
        Map<String, Long> after = PaimonFiles.dataFilesOnDisk(t);
        int deleted = 0;
        long bytes = 0;
        for (Map.Entry<String, Long> f : before.entrySet()) {
            if (!after.containsKey(f.getKey())) {
                deleted++;
                bytes += f.getValue();
            }
        }
        Long earliest = snapshots.earliestSnapshotId();
        Long newest = snapshots.latestSnapshotId();
        int retained = earliest == null || newest == null ? 0 : (int) (newest - earliest + 1);
        return new ExpiryResult(expired, retained, deleted, bytes);
    }

    static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    @Override
    public void close() {}
}

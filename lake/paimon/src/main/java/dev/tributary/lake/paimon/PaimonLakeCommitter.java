package dev.tributary.lake.paimon;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.RoundResults;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.DelegateCatalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.jdbc.JdbcCatalog;
import org.apache.paimon.manifest.ManifestCommittable;
import org.apache.paimon.operation.CleanOrphanFilesResult;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.apache.paimon.utils.SnapshotManager;

/**
 * Commits a round as one Paimon snapshot. The Paimon commit identifier is the round's epoch (epochs
 * only grow per table, T17) and the commit goes through {@code filterAndCommit}, so Paimon itself
 * refuses to commit the same identifier twice for the commit user; before that, the latest tiering
 * snapshot's properties are checked for the same round, which covers a different commit user too.
 * With the JDBC catalog that check and the commit run under a lock of the catalog, so committers of
 * the same round racing on one table land it once (T46); a commit that fails because the round
 * landed meanwhile anyway (another catalog's committer) is reported as already committed.
 */
final class PaimonLakeCommitter implements LakeCommitter {
    /** Names the lock row of Tributary's commits of a table (see {@link #underCommitLock}). */
    static final String COMMIT_LOCK_SUFFIX = "__tributary_commit";

    private final Catalog catalog;
    private final TablePath tablePath;

    PaimonLakeCommitter(Catalog catalog, TablePath tablePath) {
        this.catalog = catalog;
        this.tablePath = tablePath;
    }

    private FileStoreTable table() {
        return PaimonLakeStorage.loadTable(catalog, tablePath);
    }

    @Override
    public LakeCommitResult commit(
            List<LakeWriteResult> results, TieringSnapshotProperties properties, TieredRound base) {
        RoundResults round =
                RoundResults.check(
                        PaimonLakeStoragePlugin.IDENTIFIER, tablePath, results, properties);
        if (round.isEmpty()) {
            return LakeCommitResult.nothingToCommit();
        }
        return underCommitLock(() -> commitOnce(round, properties, base));
    }

    /**
     * Runs {@code work} holding the table's Tributary commit lock, so that checking which round the
     * lake holds (the same round: T46; a newer one: the fence, T19) and committing are one step for
     * every committer of the table. Paimon checks a commit identifier only before its own lock and
     * rebases a commit that lost a race onto the newer snapshot, so without this two committers of
     * one round could both add its files, and a coordinator paused between the check and the commit
     * could land a round its successor tiers again. The JDBC catalog: a lock row of its own, next
     * to the one Paimon takes per snapshot, which is not reentrant. A warehouse on a local file
     * system: a file lock ({@link LocalCommitLock}). Other catalogs (Hive, REST): no lock here; the
     * check runs just before the commit.
     */
    private LakeCommitResult underCommitLock(Callable<LakeCommitResult> work) {
        try {
            if (DelegateCatalog.rootCatalog(catalog) instanceof JdbcCatalog jdbc) {
                return jdbc.runWithLock(
                        Identifier.create(
                                tablePath.database(), tablePath.table() + COMMIT_LOCK_SUFFIX),
                        work);
            }
            Optional<java.nio.file.Path> local = LocalCommitLock.lockFile(table());
            if (local.isPresent()) {
                return LocalCommitLock.run(local.get(), work);
            }
            return work.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new StorageException(
                    "the commit lock of Paimon table '" + tablePath + "' failed: " + e.getMessage(),
                    e);
        }
    }

    private LakeCommitResult commitOnce(
            RoundResults round, TieringSnapshotProperties properties, TieredRound base) {
        Optional<LakeSnapshot> latest = latestTieringSnapshot(properties::sameTable);
        if (latest.isPresent() && latest.get().properties().sameRound(properties)) {
            // a committer that died between the round's two snapshots (deletion vectors)
            if (PaimonLevelZeroRepair.run(table(), tablePath, properties)) {
                latest = latestTieringSnapshot(properties::sameTable);
            }
            return LakeCommitResult.alreadyCommitted(latest.orElseThrow().snapshotId());
        }
        base.checkNotOvertaken(tablePath, properties, latest);
        // write-only: no snapshot expiry inside the tiering commit; maintenance expires snapshots
        // by the table's own retention, off the commit path (T39)
        FileStoreTable table = table().copy(PaimonSchemas.WRITE_ONLY);
        ManifestCommittable committable = new ManifestCommittable(properties.epoch());
        for (LakeWriteResult r : round.nonEmpty()) {
            for (CommitMessage m : PaimonCommitMessages.decode(r.payload(), table)) {
                committable.addFileCommittable(m);
            }
        }
        properties.toProperties().forEach(committable::addProperty);
        int committed;
        try (TableCommitImpl commit =
                (TableCommitImpl)
                        table.newStreamWriteBuilder()
                                .withCommitUser(properties.commitUser())
                                .newCommit()) {
            committed = commit.filterAndCommitMultiple(List.of(committable));
        } catch (Exception e) {
            Optional<LakeSnapshot> landed = landedMeanwhile(properties);
            if (landed.isPresent()) {
                // another committer landed this very round first (T46: two committers racing
                // through the catalog lock); Paimon refused to add the same files twice. Or,
                // with deletion vectors, the round's files landed and the compaction of them
                // conflicted with another compaction: compact them now
                if (PaimonLevelZeroRepair.run(table(), tablePath, properties)) {
                    landed = landedMeanwhile(properties);
                }
                return LakeCommitResult.alreadyCommitted(landed.orElseThrow().snapshotId());
            }
            throw new StorageException(
                    "committing round "
                            + properties.roundId()
                            + " (epoch "
                            + properties.epoch()
                            + ") to Paimon table '"
                            + tablePath
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
        Optional<LakeSnapshot> now = latestTieringSnapshot(properties::sameTable);
        if (now.isEmpty() || !now.get().properties().sameRound(properties)) {
            throw new StorageException(
                    "Paimon did not commit round "
                            + properties.roundId()
                            + " of '"
                            + tablePath
                            + "': commit identifier (epoch) "
                            + properties.epoch()
                            + " is not above the last one committed by user '"
                            + properties.commitUser()
                            + "' (committed "
                            + committed
                            + "). Epochs must only grow per table.");
        }
        return committed == 0
                ? LakeCommitResult.alreadyCommitted(now.get().snapshotId())
                : LakeCommitResult.committed(
                        now.get().snapshotId(),
                        round.rowCount(),
                        round.fileCount(),
                        round.fileBytes());
    }

    /** The snapshot of this round if it is the table's latest tiering snapshot now. */
    private Optional<LakeSnapshot> landedMeanwhile(TieringSnapshotProperties properties) {
        try {
            return latestTieringSnapshot(properties::sameTable)
                    .filter(s -> s.properties().sameRound(properties));
        } catch (RuntimeException unreadable) {
            // the commit's own failure is the one to report
            return Optional.empty();
        }
    }

    @Override
    public void abort(List<LakeWriteResult> results) {
        FileStoreTable table = table();
        List<CommitMessage> messages = new ArrayList<>();
        for (LakeWriteResult r : results) {
            if (r.isEmpty() || RoundResults.committedBy(r, latestTieringSnapshot(r.tableId()))) {
                continue;
            }
            messages.addAll(PaimonCommitMessages.decode(r.payload(), table));
        }
        if (messages.isEmpty()) {
            return;
        }
        try {
            // not Paimon's abort: a compacting round (T48) may move committed files up a level
            PaimonWrittenFiles.delete(table, messages);
        } catch (RuntimeException e) {
            throw new StorageException(
                    "deleting aborted files of Paimon table '"
                            + tablePath
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public Optional<LakeSnapshot> latestTieringSnapshot() {
        return latestTieringSnapshot(p -> true);
    }

    @Override
    public Optional<LakeSnapshot> latestTieringSnapshot(long tableId) {
        return latestTieringSnapshot(p -> p.tableId() == tableId);
    }

    /**
     * The newest tiering snapshot of table {@code tableId} whose round's rows readers of the table
     * see: on a table whose readers skip level 0 (deletion vectors, T48) Paimon commits a round as
     * two snapshots, its files at level 0 and then the compaction of them, both with the round's
     * properties; a reader must not take the round's offsets from the first while the second is
     * still to come (its rows would be missing from the union read, T40), so a snapshot holding
     * live level-0 files is passed over for an older one. Other tables: {@link
     * #latestTieringSnapshot(long)}.
     */
    Optional<LakeSnapshot> latestReadableTieringSnapshot(long tableId) {
        FileStoreTable table = table();
        if (!PaimonMaintainer.hidesLevelZero(table)) {
            return latestTieringSnapshot(tableId);
        }
        return latestTieringSnapshot(
                table,
                p -> p.tableId() == tableId,
                s ->
                        s.commitKind() != Snapshot.CommitKind.APPEND
                                || PaimonMaintainer.levelZeroUnits(table, s).isEmpty());
    }

    private Optional<LakeSnapshot> latestTieringSnapshot(
            Predicate<TieringSnapshotProperties> wanted) {
        return latestTieringSnapshot(table(), wanted, s -> true);
    }

    private static Optional<LakeSnapshot> latestTieringSnapshot(
            FileStoreTable table,
            Predicate<TieringSnapshotProperties> wanted,
            Predicate<Snapshot> readable) {
        SnapshotManager snapshots = table.snapshotManager();
        Long latest = snapshots.latestSnapshotId();
        Long earliest = snapshots.earliestSnapshotId();
        if (latest == null || earliest == null) {
            return Optional.empty();
        }
        for (long id = latest; id >= earliest; id--) {
            Snapshot s;
            try {
                s = snapshots.tryGetSnapshot(id);
            } catch (java.io.FileNotFoundException expired) {
                continue;
            }
            Optional<TieringSnapshotProperties> p =
                    TieringSnapshotProperties.fromProperties(s.properties());
            if (p.isPresent() && wanted.test(p.get()) && readable.test(s)) {
                return Optional.of(new LakeSnapshot(s.id(), s.timeMillis(), p.get()));
            }
        }
        return Optional.empty();
    }

    @Override
    public List<String> listOrphanFiles(OrphanPolicy policy) {
        return orphans(policy, true);
    }

    @Override
    public List<String> deleteOrphanFiles(OrphanPolicy policy) {
        return orphans(policy, false);
    }

    private List<String> orphans(OrphanPolicy policy, boolean dryRun) {
        try {
            CleanOrphanFilesResult r = new PolicyOrphanFilesClean(table(), policy, dryRun).clean();
            List<String> out = new ArrayList<>();
            if (r.getDeletedFilesPath() != null) {
                r.getDeletedFilesPath().forEach(p -> out.add(p.toString()));
            }
            out.sort(null);
            return out;
        } catch (Exception e) {
            throw new StorageException(
                    "orphan file cleanup of Paimon table '"
                            + tablePath
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Paimon's own orphan cleanup (it knows every file any snapshot, tag or branch references),
     * with Tributary's rule of which unreferenced files may go instead of a plain age limit.
     */
    private static final class PolicyOrphanFilesClean extends LocalOrphanFilesClean {
        private final OrphanPolicy policy;

        PolicyOrphanFilesClean(FileStoreTable table, OrphanPolicy policy, boolean dryRun) {
            super(table, policy.olderThan().toEpochMilli(), dryRun);
            this.policy = policy;
        }

        @Override
        protected boolean oldEnough(FileStatus status) {
            return policy.deletable(status.getPath().getName(), status.getModificationTime());
        }
    }

    @Override
    public void close() {}
}

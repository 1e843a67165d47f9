package dev.tributary.lake.iceberg;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.RoundResults;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.AttemptFileNames;
import dev.tributary.lake.api.write.LakeWriteResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.WriteResult;

/**
 * Commits a round as one Iceberg snapshot: an append when the round has no deletes, otherwise one
 * row delta with the data and delete files, removing the deletion vectors the round's merged ones
 * replace. Deletes of rows in committed files (T48) are validated from the snapshot the writers
 * found the rows in; deletes of rows in files our compaction replaced since are first moved onto
 * its new files ({@link CompactedRowDeletes}), and a commit that a compaction overtook is tried
 * again, up to {@value #COMMIT_ATTEMPTS} times. Any other data file removed or rewritten since, a
 * deletion vector added for one since, or a replaced deletion vector that is gone fails the commit
 * as retriable. Retries are made safe by checking the latest tiering snapshot's properties for the
 * same round first (Iceberg has no commit identifiers).
 */
final class IcebergLakeCommitter implements LakeCommitter {
    /** Attempts of a round whose deletes point at files compactions replace meanwhile. */
    private static final int COMMIT_ATTEMPTS = 3;

    private final Catalog catalog;
    private final TablePath tablePath;

    IcebergLakeCommitter(Catalog catalog, TablePath tablePath) {
        this.catalog = catalog;
        this.tablePath = tablePath;
    }

    private Table table() {
        return IcebergLakeStorage.loadTable(catalog, tablePath);
    }

    @Override
    public LakeCommitResult commit(
            List<LakeWriteResult> results, TieringSnapshotProperties properties, TieredRound base) {
        for (int attempt = 1; ; attempt++) {
            LakeCommitResult r = commitOnce(results, properties, base, attempt == COMMIT_ATTEMPTS);
            if (r != null) {
                return r;
            }
        }
    }

    /**
     * One attempt; null when a compaction committed during it and replaced files its deletes point
     * at (unless {@code last}): the next attempt moves those deletes too.
     */
    private LakeCommitResult commitOnce(
            List<LakeWriteResult> results,
            TieringSnapshotProperties properties,
            TieredRound base,
            boolean last) {
        RoundResults round =
                RoundResults.check(
                        IcebergLakeStoragePlugin.IDENTIFIER, tablePath, results, properties);
        if (round.isEmpty()) {
            return LakeCommitResult.nothingToCommit();
        }
        Table table =
                TaggedCommitTable.of(
                        table(), AttemptFileNames.tag(properties.tableId(), properties.epoch()));
        Optional<LakeSnapshot> latest = latestTieringSnapshot(table, properties::sameTable);
        if (latest.isPresent() && latest.get().properties().sameRound(properties)) {
            return LakeCommitResult.alreadyCommitted(latest.get().snapshotId());
        }
        base.checkNotOvertaken(tablePath, properties, latest);
        List<DataFile> data = new ArrayList<>();
        List<DeleteFile> deletes = new ArrayList<>();
        List<DeleteFile> rewritten = new ArrayList<>();
        List<CharSequence> referenced = new ArrayList<>();
        Snapshot lakeBase = null;
        for (LakeWriteResult r : round.nonEmpty()) {
            IcebergWriteFiles.Payload payload =
                    IcebergWriteFiles.decodePayload(r.payload(), table.specs());
            WriteResult files = payload.files();
            data.addAll(List.of(files.dataFiles()));
            deletes.addAll(List.of(files.deleteFiles()));
            rewritten.addAll(List.of(files.rewrittenDeleteFiles()));
            referenced.addAll(List.of(files.referencedDataFiles()));
            if (payload.lakeBaseSnapshotId() != null) {
                lakeBase = older(table, lakeBase, payload.lakeBaseSnapshotId(), properties);
            }
        }
        // deletes of rows in files our compaction replaced since the writers found them move onto
        // its new files (null: nothing to move, or a change they cannot follow: validation fails)
        AttemptFileIO moves = new AttemptFileIO(table.io());
        CompactedRowDeletes.Deletes moved = null;
        if (lakeBase != null) {
            try {
                moved =
                        CompactedRowDeletes.of(
                                table,
                                lakeBase,
                                data,
                                deletes,
                                rewritten,
                                referenced,
                                moves,
                                AttemptFileNames.tag(properties.tableId(), properties.epoch()));
            } catch (IOException | RuntimeException e) {
                moves.discard("the moved deletes of round " + properties.roundId());
                throw new StorageException(
                        "moving the deletes of round "
                                + properties.roundId()
                                + " of Iceberg table '"
                                + tablePath
                                + "' onto compacted files failed: "
                                + e.getMessage(),
                        e);
            }
            if (moved != null) {
                deletes = moved.deletes();
                rewritten = moved.rewritten();
                referenced = moved.referenced();
            }
        }
        SnapshotUpdate<?> update;
        if (deletes.isEmpty()) {
            AppendFiles append = table.newAppend();
            data.forEach(append::appendFile);
            update = append;
        } else {
            // Tiering is the only writer of this table's rows and the coordinator serializes
            // commits per table; but deletes of rows in committed files (T48) point at files our
            // compaction or another engine may have rewritten, or given a deletion vector, since
            // the writers found the rows: such a commit fails (and the round is redone) rather
            // than lose a delete
            RowDelta delta = table.newRowDelta();
            data.forEach(delta::addRows);
            deletes.forEach(delta::addDeletes);
            rewritten.forEach(delta::removeDeletes);
            if (lakeBase != null) {
                delta.validateFromSnapshot(
                                moved == null ? lakeBase.snapshotId() : moved.validFromSnapshotId())
                        .validateDataFilesExist(referenced)
                        .validateDeletedFiles();
            }
            update = delta;
        }
        Map<String, String> props = properties.toProperties();
        props.forEach(update::set);
        // Iceberg retries a commit the catalog refused as stale (a REST catalog checks the
        // commit's requirements) on the table's new version: that retry must not land on top of
        // a tiering commit made meanwhile, which could hold this very round (T46) or one of a
        // coordinator that lost its role (T19). The validator runs on the version the commit
        // replaces, so the check and the commit are one step
        NoTieringCommitSince validator = new NoTieringCommitSince(properties, base);
        update.validateWith(validator);
        try {
            update.commit();
        } catch (CommitFailedException e) {
            moves.discard("the moved deletes of round " + properties.roundId());
            throw concurrentChange(properties, e);
        } catch (RuntimeException e) {
            if (!(e instanceof CommitStateUnknownException)) {
                // (an unknown outcome may have committed them)
                moves.discard("the moved deletes of round " + properties.roundId());
            }
            if (e instanceof ValidationException
                    && !validator.refused()
                    && lakeBase != null
                    && !last) {
                return null;
            }
            if (e instanceof ValidationException) {
                base.checkNotOvertaken(
                        tablePath, properties, Optional.ofNullable(validator.refusedBy()));
            }
            if (e instanceof ValidationException && (validator.refused() || lakeBase != null)) {
                throw concurrentChange(properties, e);
            }
            throw new StorageException(
                    "committing round "
                            + properties.roundId()
                            + " (epoch "
                            + properties.epoch()
                            + ") to Iceberg table '"
                            + tablePath
                            + "' failed: "
                            + e.getMessage(),
                    e);
        }
        table.refresh();
        LakeSnapshot committed =
                latestTieringSnapshot(table, properties::sameTable)
                        .filter(s -> s.properties().sameRound(properties))
                        .orElseThrow(
                                () ->
                                        new StorageException(
                                                "Iceberg committed round "
                                                        + properties.roundId()
                                                        + " of '"
                                                        + tablePath
                                                        + "' but its snapshot is not the latest"
                                                        + " tiering snapshot"));
        return LakeCommitResult.committed(
                committed.snapshotId(), round.rowCount(), round.fileCount(), round.fileBytes());
    }

    /**
     * Of the snapshot {@code current} and snapshot {@code id}, the older (by sequence number): the
     * round's lake deletes are validated from the oldest snapshot any of its writers read.
     */
    private Snapshot older(
            Table table, Snapshot current, long id, TieringSnapshotProperties properties) {
        Snapshot s = table.snapshot(id);
        if (s == null) {
            throw new RetriableException(
                    "snapshot "
                            + id
                            + " of Iceberg table '"
                            + tablePath
                            + "' that round "
                            + properties.roundId()
                            + " found its retracted rows in is gone; the round is written again");
        }
        return current == null || s.sequenceNumber() < current.sequenceNumber() ? s : current;
    }

    private RetriableException concurrentChange(
            TieringSnapshotProperties properties, RuntimeException e) {
        return new RetriableException(
                "Iceberg table '"
                        + tablePath
                        + "' changed concurrently while committing round "
                        + properties.roundId()
                        + "; committing again is safe: "
                        + e.getMessage(),
                e);
    }

    @Override
    public void abort(List<LakeWriteResult> results) {
        Table table = table();
        for (LakeWriteResult r : results) {
            Optional<LakeSnapshot> latest =
                    latestTieringSnapshot(table, p -> p.tableId() == r.tableId());
            if (!r.isEmpty() && !RoundResults.committedBy(r, latest)) {
                deleteFiles(table.io(), IcebergWriteFiles.decode(r.payload(), table.specs()));
            }
        }
    }

    static void deleteFiles(FileIO io, WriteResult files) {
        for (DataFile f : files.dataFiles()) {
            io.deleteFile(f.location());
        }
        for (DeleteFile f : files.deleteFiles()) {
            io.deleteFile(f.location());
        }
    }

    @Override
    public Optional<LakeSnapshot> latestTieringSnapshot() {
        return latestTieringSnapshot(table(), p -> true);
    }

    @Override
    public Optional<LakeSnapshot> latestTieringSnapshot(long tableId) {
        return latestTieringSnapshot(table(), p -> p.tableId() == tableId);
    }

    /** Walks the current snapshot's ancestry newest first (Iceberg ids are random, not ordered). */
    private static Optional<LakeSnapshot> latestTieringSnapshot(
            Table table, Predicate<TieringSnapshotProperties> wanted) {
        Snapshot s = table.currentSnapshot();
        while (s != null) {
            Optional<TieringSnapshotProperties> p =
                    TieringSnapshotProperties.fromProperties(s.summary());
            if (p.isPresent() && wanted.test(p.get())) {
                return Optional.of(new LakeSnapshot(s.snapshotId(), s.timestampMillis(), p.get()));
            }
            s = s.parentId() == null ? null : table.snapshot(s.parentId());
        }
        return Optional.empty();
    }

    /**
     * Holds when the newest tiering snapshot of the table in the ancestry a commit attempt is based
     * on holds no round newer than the one the commit builds on.
     */
    private static final class NoTieringCommitSince implements SnapshotAncestryValidator {
        private final TieringSnapshotProperties round;
        private final TieredRound base;
        private LakeSnapshot refusedBy;

        NoTieringCommitSince(TieringSnapshotProperties round, TieredRound base) {
            this.round = round;
            this.base = base;
        }

        @Override
        public boolean validate(Iterable<Snapshot> ancestry) {
            refusedBy = null;
            for (Snapshot s : ancestry) {
                Optional<TieringSnapshotProperties> p =
                        TieringSnapshotProperties.fromProperties(s.summary());
                if (p.isPresent() && round.sameTable(p.get())) {
                    if (base.isBefore(p.get())) {
                        refusedBy = new LakeSnapshot(s.snapshotId(), s.timestampMillis(), p.get());
                    }
                    break;
                }
            }
            return refusedBy == null;
        }

        /** Whether an attempt was refused because of a tiering commit made meanwhile. */
        boolean refused() {
            return refusedBy != null;
        }

        /** The tiering snapshot that refused the last attempt, or null. */
        LakeSnapshot refusedBy() {
            return refusedBy;
        }

        @Override
        public String errorMessage() {
            return "another tiering commit (snapshot "
                    + (refusedBy == null ? null : refusedBy.snapshotId())
                    + ", round "
                    + (refusedBy == null ? null : refusedBy.properties().roundId())
                    + ") landed while round "
                    + round.roundId()
                    + " was committed on top of round "
                    + base.roundId();
        }
    }

    @Override
    public List<String> listOrphanFiles(OrphanPolicy policy) {
        return IcebergOrphanFiles.list(table(), policy);
    }

    @Override
    public List<String> deleteOrphanFiles(OrphanPolicy policy) {
        Table table = table();
        List<String> orphans = IcebergOrphanFiles.list(table, policy);
        orphans.forEach(table.io()::deleteFile);
        return orphans;
    }

    @Override
    public void close() {}
}

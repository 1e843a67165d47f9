package dev.tributary.lake.paimon;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.maintenance.LakeCompactionResult;
import dev.tributary.lake.api.maintenance.LakeCompactor;
import dev.tributary.lake.api.write.AttemptFileNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.paimon.Snapshot;
import org.apache.paimon.append.AppendCompactCoordinator;
import org.apache.paimon.append.AppendCompactTask;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.operation.BaseAppendFileStoreWrite;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.TableWriteImpl;

/**
 * Compacts one bucket of a Paimon table with Paimon's own compaction, as Paimon's dedicated
 * compaction job does next to write-only writers: a PK bucket by universal compaction of its sorted
 * runs (at most {@code max-files} runs remain), a fixed-bucket append bucket by merging its small
 * files, a bucket-unaware append table by Paimon's append compaction coordinator. The result is
 * Paimon's compaction commit messages; nothing is visible until the coordinator commits them.
 */
final class PaimonCompactor implements LakeCompactor {
    private final FileStoreTable table;
    private final CompactionTask task;
    private final String tag;
    private final ExecutorService executor;

    /** See {@link HadoopXmlFreeClassLoader}; null for warehouses on Hadoop-backed file systems. */
    private final ClassLoader loader;

    private List<CommitMessage> written = List.of();

    PaimonCompactor(FileStoreTable table, CompactionTask task) {
        this.table = table.copy(PaimonSchemas.compactionOptions(task, table));
        this.task = task;
        this.tag = AttemptFileNames.maintenanceTag(task.tableId(), task.maintenanceId());
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        this.loader =
                table.fileIO() instanceof LocalFileIO
                        ? new HadoopXmlFreeClassLoader(
                                context != null ? context : PaimonCompactor.class.getClassLoader())
                        : null;
        this.executor =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "paimon-compaction-" + task.tablePath());
                            t.setDaemon(true);
                            if (loader != null) {
                                t.setContextClassLoader(loader);
                            }
                            return t;
                        });
    }

    @Override
    public LakeCompactionResult compact() {
        List<CommitMessage> messages;
        try {
            messages =
                    HadoopXmlFreeClassLoader.callWith(
                            loader,
                            () -> {
                                try {
                                    return table.bucketMode() == BucketMode.BUCKET_UNAWARE
                                            ? compactUnaware()
                                            : compactBucket();
                                } catch (Exception e) {
                                    throw new Wrapped(e);
                                }
                            });
        } catch (Wrapped w) {
            Exception e = w.cause;
            if (e instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                Thread.currentThread().interrupt();
                throw new RetriableException(
                        "compaction of "
                                + task.unit()
                                + " of Paimon table '"
                                + task.tablePath()
                                + "' was interrupted",
                        e);
            }
            throw new StorageException(
                    "compacting "
                            + task.unit()
                            + " of Paimon table '"
                            + task.tablePath()
                            + "' failed: "
                            + PaimonMaintainer.firstLine(e.getMessage()),
                    e);
        }
        List<CommitMessage> nonEmpty = new ArrayList<>();
        for (CommitMessage m : messages) {
            CommitMessageImpl msg = (CommitMessageImpl) m;
            if (!msg.compactIncrement().isEmpty()) {
                nonEmpty.add(m);
            }
        }
        written = nonEmpty;
        return result(nonEmpty);
    }

    private List<CommitMessage> compactBucket() throws Exception {
        boolean primaryKey = !table.primaryKeys().isEmpty();
        List<BinaryRow> partitions = partitionsToCompact();
        if (partitions.isEmpty()) {
            return List.of();
        }
        // the disk outlives the writer, which drops its lookup files when it closes
        try (IOManager lookupDisk = IOManager.create(System.getProperty("java.io.tmpdir"));
                TableWriteImpl<?> write = table.newWrite(PaimonMaintainer.COMMIT_USER)) {
            write.withCompactExecutor(executor);
            // deletion vectors (T48): Paimon's lookup compaction keeps local files of the runs
            // it looks keys up in, and writes the bucket's new deletion-vector index file
            write.withIOManager(lookupDisk);
            // PK: universal compaction picks runs so that at most max-files remain; append: merge
            // every small file of the bucket (files at the target size stay as they are).
            for (BinaryRow partition : partitions) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException();
                }
                write.compact(partition, task.bucket(), !primaryKey);
            }
            return write.prepareCommit(true, task.maintenanceId());
        }
    }

    /**
     * The task's partition if its bucket {@code task.bucket()} holds more than {@code max-files}
     * live files at the latest snapshot (a later compaction may have done it already), or, in a
     * table with deletion vectors, a level-0 file ({@link PaimonMaintainer#planCompaction}); the
     * empty partition of an unpartitioned table always (its plan already counted it).
     */
    private List<BinaryRow> partitionsToCompact() {
        if (table.partitionKeys().isEmpty()) {
            return List.of(BinaryRow.EMPTY_ROW);
        }
        Snapshot latest = table.snapshotManager().latestSnapshot();
        if (latest == null) {
            return List.of();
        }
        boolean hidesLevelZero = PaimonMaintainer.hidesLevelZero(table);
        Map<BinaryRow, Integer> files = new HashMap<>();
        Set<BinaryRow> levelZero = new HashSet<>();
        for (ManifestEntry e :
                table.store()
                        .newScan()
                        .withSnapshot(latest)
                        .withBucket(task.bucket())
                        .plan()
                        .files()) {
            if (e.bucket() == task.bucket()) {
                files.merge(e.partition(), 1, Integer::sum);
                if (hidesLevelZero && e.file().level() == 0) {
                    levelZero.add(e.partition());
                }
            }
        }
        List<BinaryRow> out = new ArrayList<>();
        files.forEach(
                (partition, n) -> {
                    if ((n > task.maxFiles() || levelZero.contains(partition))
                            && PaimonMaintainer.partitionName(table, partition)
                                    .equals(task.partition())) {
                        out.add(partition);
                    }
                });
        return out;
    }

    private List<CommitMessage> compactUnaware() throws Exception {
        List<AppendCompactTask> tasks = new AppendCompactCoordinator(table, false).run();
        List<CommitMessage> out = new ArrayList<>();
        if (tasks.isEmpty()) {
            return out;
        }
        BaseAppendFileStoreWrite write =
                (BaseAppendFileStoreWrite) table.store().newWrite(PaimonMaintainer.COMMIT_USER);
        try {
            for (AppendCompactTask t : tasks) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException();
                }
                // Paimon plans every partition; the grant is for one
                if (PaimonMaintainer.partitionName(table, t.partition()).equals(task.partition())) {
                    out.add(t.doCompact(table, write));
                }
            }
        } finally {
            write.close();
        }
        return out;
    }

    private LakeCompactionResult result(List<CommitMessage> messages) {
        if (messages.isEmpty()) {
            return LakeCompactionResult.empty(
                    PaimonLakeStoragePlugin.IDENTIFIER,
                    task.tablePath(),
                    task.tableId(),
                    task.maintenanceId(),
                    task.bucket());
        }
        int filesBefore = 0;
        int filesAfter = 0;
        long bytesBefore = 0;
        long bytesAfter = 0;
        List<String> newFiles = new ArrayList<>();
        for (CommitMessage m : messages) {
            CommitMessageImpl msg = (CommitMessageImpl) m;
            DataFilePathFactory paths =
                    table.store()
                            .pathFactory()
                            .createDataFilePathFactory(msg.partition(), msg.bucket());
            Set<String> before = new HashSet<>();
            Set<String> after = new HashSet<>();
            msg.compactIncrement().compactBefore().forEach(f -> before.add(f.fileName()));
            msg.compactIncrement().compactAfter().forEach(f -> after.add(f.fileName()));
            for (DataFileMeta f : msg.compactIncrement().compactBefore()) {
                // an upgraded file only changes level: neither rewritten nor new
                if (!after.contains(f.fileName())) {
                    filesBefore++;
                    bytesBefore += f.fileSize();
                }
            }
            for (DataFileMeta f : msg.compactIncrement().compactAfter()) {
                if (!before.contains(f.fileName())) {
                    filesAfter++;
                    bytesAfter += f.fileSize();
                }
                if (f.fileName().contains(tag)) {
                    newFiles.add(paths.toPath(f).toString());
                }
            }
        }
        return new LakeCompactionResult(
                PaimonLakeStoragePlugin.IDENTIFIER,
                task.tablePath(),
                task.tableId(),
                task.maintenanceId(),
                task.bucket(),
                filesBefore,
                bytesBefore,
                filesAfter,
                bytesAfter,
                newFiles,
                PaimonCommitMessages.encode(messages));
    }

    @Override
    public void abort() {
        for (CommitMessage m : written) {
            CommitMessageImpl msg = (CommitMessageImpl) m;
            DataFilePathFactory paths =
                    table.store()
                            .pathFactory()
                            .createDataFilePathFactory(msg.partition(), msg.bucket());
            for (DataFileMeta f : msg.compactIncrement().compactAfter()) {
                if (f.fileName().contains(tag)) {
                    table.fileIO().deleteQuietly(paths.toPath(f));
                }
            }
        }
        written = List.of();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    /** Carries a checked exception out of the class-loader wrapper. */
    private static final class Wrapped extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final Exception cause;

        Wrapped(Exception cause) {
            super(cause);
            this.cause = cause;
        }
    }
}

package dev.tributary.lake.paimon;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.manifest.ManifestCommittable;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.apache.paimon.table.sink.TableWriteImpl;

/**
 * Moves a deletion-vector table's level-0 files up right after a round landed without its own
 * compaction (T48). Paimon commits a round's files and the compaction of them as two snapshots; a
 * concurrent compaction (Tributary's maintenance, another engine) can make the second fail after
 * the first landed, and a committer can die between them. The round counts as committed then, but
 * its rows sit at level 0, which readers of the table skip. The committer compacts those buckets at
 * once with Paimon's lookup compaction and commits that with the round's properties, so the tiering
 * snapshot recorded for the round is one where its rows are visible.
 */
final class PaimonLevelZeroRepair {
    private PaimonLevelZeroRepair() {}

    private record Unit(BinaryRow partition, int bucket) {}

    /**
     * Compacts every bucket of {@code table} holding a live level-0 file and commits it as the
     * round's; returns whether there was anything to do. A no-op for other tables.
     */
    static boolean run(FileStoreTable table, TablePath path, TieringSnapshotProperties properties) {
        if (!PaimonMaintainer.hidesLevelZero(table)) {
            return false;
        }
        Snapshot latest = table.snapshotManager().latestSnapshot();
        if (latest == null) {
            return false;
        }
        Set<Unit> units = new HashSet<>();
        for (ManifestEntry e :
                table.store()
                        .newScan()
                        .withSnapshot(latest)
                        .withLevelFilter(level -> level == 0)
                        .plan()
                        .files()) {
            if (e.file().level() == 0) {
                units.add(new Unit(e.partition(), e.bucket()));
            }
        }
        if (units.isEmpty()) {
            return false;
        }
        FileStoreTable t =
                table.copy(
                        Map.of(
                                "write-only",
                                "false",
                                "data-file.prefix",
                                "data-tributary-repair-" + properties.epoch() + "-"));
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        ClassLoader loader =
                t.fileIO() instanceof LocalFileIO
                        ? new HadoopXmlFreeClassLoader(
                                context != null
                                        ? context
                                        : PaimonLevelZeroRepair.class.getClassLoader())
                        : null;
        ExecutorService executor =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread th = new Thread(r, "paimon-level0-repair-" + path);
                            th.setDaemon(true);
                            if (loader != null) {
                                th.setContextClassLoader(loader);
                            }
                            return th;
                        });
        try {
            HadoopXmlFreeClassLoader.callWith(
                    loader,
                    () -> {
                        try (IOManager disk =
                                        IOManager.create(System.getProperty("java.io.tmpdir"));
                                TableWriteImpl<?> write = t.newWrite(properties.commitUser())) {
                            write.withIOManager(disk);
                            write.withCompactExecutor(executor);
                            for (Unit u : units) {
                                write.compact(u.partition(), u.bucket(), false);
                            }
                            List<CommitMessage> messages =
                                    write.prepareCommit(true, properties.epoch());
                            ManifestCommittable committable =
                                    new ManifestCommittable(properties.epoch());
                            messages.forEach(committable::addFileCommittable);
                            properties.toProperties().forEach(committable::addProperty);
                            try (TableCommitImpl commit = t.newCommit(properties.commitUser())) {
                                commit.commit(committable);
                            }
                        } catch (Exception e) {
                            throw new StorageException(
                                    "round "
                                            + properties.roundId()
                                            + " of Paimon table '"
                                            + path
                                            + "' landed with files at level 0, which readers skip,"
                                            + " and compacting them failed: "
                                            + PaimonMaintainer.firstLine(e.getMessage()),
                                    e);
                        }
                        return null;
                    });
        } finally {
            executor.shutdownNow();
        }
        return true;
    }
}

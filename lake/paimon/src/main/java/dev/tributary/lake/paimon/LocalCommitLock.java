package dev.tributary.lake.paimon;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.paimon.table.FileStoreTable;

/**
 * Tributary's commit lock of a Paimon table whose warehouse is on a local file system (the
 * filesystem catalog has no lock of its own): an exclusive OS file lock on {@value #FILE_NAME} in
 * the table's directory, so committers in other processes on the machine (the servers of a cluster
 * sharing one lake directory) wait for each other. The OS releases it when a process dies; a paused
 * process keeps it, and the others wait until it resumes, which is what keeps a paused coordinator
 * from committing after its successor checked the lake. Committers in this process also queue on a
 * lock per file first: the OS lock is per process, and asking it twice from one process fails.
 */
final class LocalCommitLock {
    /** The lock file in the table's directory; no Paimon reader or cleanup looks at it. */
    static final String FILE_NAME = ".tributary-commit.lock";

    private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS =
            new ConcurrentHashMap<>();

    private LocalCommitLock() {}

    /** The lock file of {@code table}, or empty when its directory is not on a local disk. */
    static Optional<Path> lockFile(FileStoreTable table) {
        java.net.URI uri = table.location().toUri();
        if (uri.getScheme() != null && !"file".equals(uri.getScheme())) {
            return Optional.empty();
        }
        return Optional.of(Paths.get(uri.getPath()).resolve(FILE_NAME).toAbsolutePath());
    }

    /** Runs {@code work} holding the lock of {@code file}, waiting as long as another holds it. */
    static <T> T run(Path file, Callable<T> work) throws Exception {
        ReentrantLock local = IN_PROCESS.computeIfAbsent(file, f -> new ReentrantLock());
        local.lockInterruptibly();
        try (FileChannel channel =
                        FileChannel.open(
                                file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock ignored = lock(channel, file)) {
            return work.call();
        } finally {
            local.unlock();
        }
    }

    private static FileLock lock(FileChannel channel, Path file) throws IOException {
        try {
            return channel.lock();
        } catch (IOException e) {
            throw new IOException("could not lock " + file + ": " + e.getMessage(), e);
        }
    }
}

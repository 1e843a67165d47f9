package dev.tributary.server;

import dev.tributary.common.exception.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a server's data directory ({@code <data.dir>/tributary.lock}), held while
 * the server runs, so that a second server on the same directory fails at start instead of
 * appending to the same logs, RocksDB and coordinator metadata. It is an OS file lock: it ends with
 * the process, also when the process is killed, so a crashed server leaves nothing to clean up. The
 * file keeps the holder's pid for the error message, and is never deleted (deleting it would let a
 * second server lock a new file while the first still holds the old one).
 */
final class DataDirLock implements AutoCloseable {
    static final String FILE_NAME = "tributary.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * @throws StorageException naming the directory and the holder when another server (in this or
     *     another process) holds it
     */
    static DataDirLock acquire(Path dataDir) {
        Path file = dataDir.resolve(FILE_NAME);
        FileChannel ch;
        try {
            ch =
                    FileChannel.open(
                            file,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.READ,
                            StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new StorageException("cannot open the lock file " + file + ": " + e, e);
        }
        try {
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held by a server in this JVM
            }
            if (lock == null) {
                String holder = holder(ch);
                ch.close();
                throw new StorageException(
                        "data directory "
                                + dataDir
                                + " is in use by another Tributary server"
                                + (holder.isEmpty() ? "" : " (" + holder + ")")
                                + "; stop that server, or start this one with another data.dir");
            }
            ch.truncate(0);
            ch.write(
                    ByteBuffer.wrap(
                            ("pid " + ProcessHandle.current().pid() + "\n")
                                    .getBytes(StandardCharsets.US_ASCII)),
                    0);
            ch.force(true);
            return new DataDirLock(ch, lock);
        } catch (IOException e) {
            closeQuietly(ch);
            throw new StorageException("cannot lock the data directory " + dataDir + ": " + e, e);
        }
    }

    private static String holder(FileChannel ch) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(64);
            int n = ch.read(buf, 0);
            return n <= 0 ? "" : new String(buf.array(), 0, n, StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // closing the channel releases it as well
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // nothing to do: the process ending releases the lock
        }
    }
}

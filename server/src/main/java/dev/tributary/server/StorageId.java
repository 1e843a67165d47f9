package dev.tributary.server;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.io.DurableFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The random id of a server's data directory ({@code <data.dir>/storage-id}, T53), created with the
 * directory and kept for its life. A server that comes back with another id than the one registered
 * for it lost its data (a wiped or replaced disk): the coordinator takes it out of every in-sync
 * set before it may lead again.
 */
final class StorageId {
    static final String FILE_NAME = "storage-id";

    private StorageId() {}

    /**
     * The directory's id, created (durably) when it has none.
     *
     * @throws StorageException if the file cannot be read or written, or holds no valid id
     */
    static String readOrCreate(Path dataDir) {
        Path file = dataDir.resolve(FILE_NAME);
        try {
            String id = Files.readString(file, StandardCharsets.US_ASCII).trim();
            if (id.isEmpty() || id.length() > 64 || !id.chars().allMatch(StorageId::idChar)) {
                throw new StorageException(
                        file
                                + " does not hold a storage id; if the data directory is"
                                + " otherwise intact, delete the file and restart (the server is"
                                + " then treated as having lost its data)");
            }
            return id;
        } catch (NoSuchFileException absent) {
            String id = UUID.randomUUID().toString();
            try {
                DurableFiles.replace(
                        file, ByteBuffer.wrap((id + "\n").getBytes(StandardCharsets.US_ASCII)));
            } catch (IOException e) {
                throw new StorageException("cannot write " + file + ": " + e.getMessage(), e);
            }
            return id;
        } catch (IOException e) {
            throw new StorageException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static boolean idChar(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-';
    }
}

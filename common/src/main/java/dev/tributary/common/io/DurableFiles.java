package dev.tributary.common.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Whole-file replacement that survives a crash at any point: the new content goes to a temporary
 * sibling, is forced to disk, renamed over the file atomically, and the directory is forced so the
 * rename itself is durable. A reader after a crash sees the old content or the new one, never a
 * mix, and a file reported as written is still there after a power loss.
 */
public final class DurableFiles {
    private DurableFiles() {}

    /** Replaces {@code file} with {@code length} bytes of {@code bytes} from {@code offset}. */
    public static void replace(Path file, byte[] bytes, int offset, int length) throws IOException {
        replace(file, ByteBuffer.wrap(bytes, offset, length));
    }

    /** Replaces {@code file} with the remaining bytes of {@code content}. */
    public static void replace(Path file, ByteBuffer content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        writeSynced(tmp, content);
        moveAtomically(tmp, file);
    }

    /**
     * The first step of {@link #replace}: writes {@code file} (created or truncated) and forces it
     * to disk. For callers that act between the steps.
     */
    public static void writeSynced(Path file, ByteBuffer content) throws IOException {
        try (FileChannel ch =
                FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            while (content.hasRemaining()) {
                ch.write(content);
            }
            ch.force(true);
        }
    }

    /** The second step of {@link #replace}: renames {@code from} over {@code to}, durably. */
    public static void moveAtomically(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory(to.toAbsolutePath().getParent());
    }

    /**
     * Forces a directory's entries (created, renamed and deleted files) to disk. Some file systems
     * cannot fsync a directory; their renames are still atomic, so that is not an error.
     */
    public static void syncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UncheckedIOException e) {
            // nothing more can be done on such a file system
        }
    }

    /** Deletes {@code root} and everything under it, children first; nothing if it is absent. */
    public static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

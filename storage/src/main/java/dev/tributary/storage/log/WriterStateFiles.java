package dev.tributary.storage.log;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.DurableFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots of a bucket's {@link WriterStates} next to its segments, {@code <offset>.writers}: the
 * state of every batch below {@code offset}. Written when a segment rolls and when the log closes,
 * so recovery only replays the writer fields of the batches after the newest one, and writers whose
 * batches retention deleted are still known until they expire.
 */
final class WriterStateFiles {
    private static final Logger LOG = LoggerFactory.getLogger(WriterStateFiles.class);
    private static final String SUFFIX = ".writers";
    private static final int KEEP = 2;

    private WriterStateFiles() {}

    static String fileName(long offset) {
        return String.format("%020d%s", offset, SUFFIX);
    }

    private static long parseOffset(String name) {
        if (!name.endsWith(SUFFIX) || name.length() != 20 + SUFFIX.length()) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(0, 20));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Writes the state as of {@code offset} atomically (temp file, fsync, rename), keeping two. */
    static void write(Path dir, WriterStates states, long offset) {
        Path file = dir.resolve(fileName(offset));
        try {
            DurableFiles.replace(file, ByteBuffer.wrap(states.encode(offset)));
        } catch (IOException e) {
            throw new StorageException("cannot write writer state " + file + ": " + e, e);
        }
        List<Long> offsets = offsets(dir);
        for (int i = 0; i < offsets.size() - KEEP; i++) {
            deleteQuietly(dir.resolve(fileName(offsets.get(i))));
        }
    }

    /**
     * The newest intact state at or below {@code endOffset}. Files beyond it (the log lost its
     * tail) and damaged files are deleted; the caller replays the log from the returned offset.
     */
    static Optional<WriterStates.Decoded> loadNewest(Path dir, TableBucket bucket, long endOffset) {
        List<Long> offsets = offsets(dir);
        for (int i = offsets.size() - 1; i >= 0; i--) {
            long offset = offsets.get(i);
            Path file = dir.resolve(fileName(offset));
            if (offset > endOffset) {
                deleteQuietly(file);
                continue;
            }
            try {
                WriterStates.Decoded d = WriterStates.decode(bucket, Files.readAllBytes(file));
                if (d.offset() == offset) {
                    return Optional.of(d);
                }
                LOG.warn("writer state {} names offset {}; ignoring it", file, d.offset());
            } catch (IOException | CorruptDataException e) {
                LOG.warn("writer state {} is damaged ({}); using an older one", file, e.toString());
            }
            deleteQuietly(file);
        }
        return Optional.empty();
    }

    /**
     * Deletes every state file: the log they describe is gone (the caller fsyncs the directory).
     */
    static void deleteAll(Path dir) throws IOException {
        for (long offset : offsets(dir)) {
            Files.deleteIfExists(dir.resolve(fileName(offset)));
        }
    }

    private static List<Long> offsets(Path dir) {
        List<Long> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(
                    f -> {
                        long o = parseOffset(f.getFileName().toString());
                        if (o >= 0) {
                            out.add(o);
                        }
                    });
        } catch (IOException e) {
            throw new StorageException("cannot list " + dir + ": " + e, e);
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            LOG.warn("cannot delete {}", f, e);
        }
    }
}

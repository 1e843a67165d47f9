package dev.tributary.storage.log;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TableBucket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and recovers the segments of a log directory when the log opens: they must follow each
 * other without a gap, only the newest may have a torn tail (cut at its last whole batch), and a
 * leftover {@code .tmp} file of an interrupted write is deleted. An empty directory gets a first
 * segment at offset 0.
 */
final class SegmentRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentRecovery.class);

    private SegmentRecovery() {}

    /**
     * @return the segments, oldest first; the caller closes them
     * @throws CorruptDataException if a segment is damaged anywhere but in the newest one's tail,
     *     or segments do not follow each other
     */
    static List<LogSegment> recover(TableBucket bucket, Path dir, int indexInterval)
            throws IOException {
        Files.createDirectories(dir);
        List<Long> bases = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.forEach(
                    f -> {
                        String name = f.getFileName().toString();
                        long base = LogSegment.parseBaseOffset(name);
                        if (base >= 0) {
                            bases.add(base);
                        } else if (name.endsWith(".tmp")) {
                            deleteQuietly(f);
                        }
                    });
        }
        bases.sort(Long::compare);
        List<LogSegment> recovered = new ArrayList<>();
        if (bases.isEmpty()) {
            recovered.add(LogSegment.create(dir, 0L, indexInterval));
            return recovered;
        }
        long expected = bases.get(0);
        try {
            for (int i = 0; i < bases.size(); i++) {
                long base = bases.get(i);
                if (base != expected) {
                    throw new CorruptDataException(
                            "log of bucket "
                                    + bucket
                                    + " has a gap: segment "
                                    + base
                                    + " follows data ending at offset "
                                    + expected);
                }
                boolean last = i == bases.size() - 1;
                LogSegment s = LogSegment.recover(bucket, dir, base, indexInterval, last);
                recovered.add(s);
                expected = s.nextOffset();
            }
        } catch (IOException | RuntimeException e) {
            for (LogSegment s : recovered) {
                s.close();
            }
            throw e;
        }
        return recovered;
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            LOG.warn("cannot delete leftover {}", f, e);
        }
    }
}

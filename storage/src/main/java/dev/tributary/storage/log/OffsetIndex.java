package dev.tributary.storage.log;

import dev.tributary.common.io.DurableFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The sparse offset index of one segment: every {@code log.index.interval} bytes, the base offset
 * of a batch and its file position. A lookup gives the position of a batch at or before the wanted
 * offset, so a read scans at most about one interval of headers.
 *
 * <p>Kept in memory; written to a file when the segment is sealed, together with the segment's
 * summary (next offset, newest timestamp, size) so sealed segments open without a scan.
 */
final class OffsetIndex {
    private static final int FILE_MAGIC = 0x54494458; // "TIDX"

    private final long baseOffset;
    private int[] relativeOffsets = new int[32];
    private int[] positions = new int[32];
    private int size;

    OffsetIndex(long baseOffset) {
        this.baseOffset = baseOffset;
    }

    synchronized void add(long offset, int position) {
        if (size == relativeOffsets.length) {
            relativeOffsets = Arrays.copyOf(relativeOffsets, size * 2);
            positions = Arrays.copyOf(positions, size * 2);
        }
        relativeOffsets[size] = Math.toIntExact(offset - baseOffset);
        positions[size] = position;
        size++;
    }

    /** File position of the last indexed batch whose base offset is at or below {@code offset}. */
    synchronized int lookup(long offset) {
        long rel = offset - baseOffset;
        int lo = 0;
        int hi = size - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (relativeOffsets[mid] <= rel) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? 0 : positions[found];
    }

    /** Drops entries at or past {@code position} (after truncation). */
    synchronized void truncateTo(long position) {
        while (size > 0 && positions[size - 1] >= position) {
            size--;
        }
    }

    synchronized int entries() {
        return size;
    }

    /** Summary of a sealed segment, stored with its index. */
    record Summary(long nextOffset, long maxTimestamp, long segmentSize) {}

    /** Writes the index and summary atomically (temp file, fsync, rename). */
    synchronized void writeTo(Path file, Summary summary) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(8 + size * 8 + 24 + 4).order(ByteOrder.LITTLE_ENDIAN);
        buf.putInt(FILE_MAGIC).putInt(size);
        for (int i = 0; i < size; i++) {
            buf.putInt(relativeOffsets[i]).putInt(positions[i]);
        }
        buf.putLong(summary.nextOffset())
                .putLong(summary.maxTimestamp())
                .putLong(summary.segmentSize());
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), 0, buf.position());
        buf.putInt((int) crc.getValue());
        buf.flip();
        DurableFiles.replace(file, buf);
    }

    /**
     * Loads an index written by {@link #writeTo}; empty if the file is missing, damaged or does not
     * match a segment of {@code segmentSize} bytes (the caller then rebuilds it by scanning).
     */
    static Optional<Loaded> load(Path file, long baseOffset, long segmentSize) {
        try {
            if (!Files.exists(file)) {
                return Optional.empty();
            }
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length < 36) {
                return Optional.empty();
            }
            ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            CRC32C crc = new CRC32C();
            crc.update(bytes, 0, bytes.length - 4);
            if (buf.getInt(bytes.length - 4) != (int) crc.getValue()
                    || buf.getInt() != FILE_MAGIC) {
                return Optional.empty();
            }
            int n = buf.getInt();
            if (bytes.length != 8 + n * 8 + 28) {
                return Optional.empty();
            }
            OffsetIndex index = new OffsetIndex(baseOffset);
            for (int i = 0; i < n; i++) {
                int rel = buf.getInt();
                index.add(baseOffset + rel, buf.getInt());
            }
            Summary summary = new Summary(buf.getLong(), buf.getLong(), buf.getLong());
            if (summary.segmentSize() != segmentSize) {
                return Optional.empty();
            }
            return Optional.of(new Loaded(index, summary));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    record Loaded(OffsetIndex index, Summary summary) {}
}

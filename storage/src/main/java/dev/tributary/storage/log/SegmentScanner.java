package dev.tributary.storage.log;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.record.LogBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Verifies a segment file batch by batch (framing, CRC, offset continuity) and rebuilds its index.
 *
 * <p>What to do with the first bad batch depends on what follows it. If no valid batch comes after
 * it, it is a torn tail (a write cut short by a crash, never acknowledged) and the valid extent
 * ends there. If a valid batch does follow, acknowledged data sits behind damage: that is reported
 * as {@link CorruptDataException}, never skipped.
 */
final class SegmentScanner {
    private SegmentScanner() {}

    /**
     * @param validSize bytes of valid batches from the file start
     * @param torn whether bytes after {@code validSize} were found to be a torn tail
     */
    record Result(
            OffsetIndex index, long validSize, long nextOffset, long maxTimestamp, boolean torn) {}

    static Result scan(
            Path file, FileChannel ch, long baseOffset, int indexInterval, boolean allowTornTail)
            throws IOException {
        long fileSize = ch.size();
        OffsetIndex index = new OffsetIndex(baseOffset);
        long pos = 0;
        long expected = baseOffset;
        long maxTs = Long.MIN_VALUE;
        long sinceIndex = indexInterval;
        byte[] buf = new byte[64 * 1024];
        while (pos < fileSize) {
            long remaining = fileSize - pos;
            LogBatch batch = null;
            if (remaining >= LogBatch.MIN_HEADER_SIZE) {
                ByteBuffer header = ByteBuffer.wrap(buf, 0, LogBatch.MIN_HEADER_SIZE);
                readFully(ch, header, pos);
                long size = LogBatch.sizeAt(buf, 0) & 0xFFFFFFFFL;
                if (size >= LogBatch.MIN_HEADER_SIZE && size <= remaining) {
                    if (buf.length < size) {
                        buf = new byte[(int) Math.max(size, buf.length * 2L)];
                    }
                    readFully(ch, ByteBuffer.wrap(buf, 0, (int) size), pos);
                    batch = plausible(buf, (int) size, expected);
                }
            }
            if (batch == null) {
                if (allowTornTail && !validBatchFollows(ch, pos, fileSize, expected)) {
                    return new Result(index, pos, expected, maxTs, true);
                }
                throw new CorruptDataException(
                        "log segment "
                                + file
                                + " is corrupt at byte "
                                + pos
                                + " (expected a batch at offset "
                                + expected
                                + ") and valid batches follow; acknowledged data may be damaged."
                                + " Restore the bucket from a replica or backup");
            }
            if (sinceIndex >= indexInterval) {
                index.add(expected, Math.toIntExact(pos));
                sinceIndex = 0;
            }
            sinceIndex += batch.sizeInBytes();
            maxTs = Math.max(maxTs, batch.lastTimestamp());
            expected = batch.nextOffset();
            pos += batch.sizeInBytes();
        }
        return new Result(index, pos, expected, maxTs, false);
    }

    /**
     * The batch in {@code buf[0, size)} if it is intact and continues the log at {@code expected}.
     */
    private static LogBatch plausible(byte[] buf, int size, long expected) {
        try {
            LogBatch b = LogBatch.wrap(buf, 0, size);
            if (b.sizeInBytes() != size || b.baseOffset() != expected || !b.isValid()) {
                return null;
            }
            return b;
        } catch (CorruptDataException e) {
            return null;
        }
    }

    /**
     * Looks for any intact batch starting after {@code badPos} with an offset at or above {@code
     * expected}. Only runs on damage, so a byte-by-byte search is affordable.
     */
    private static boolean validBatchFollows(
            FileChannel ch, long badPos, long fileSize, long expected) throws IOException {
        long restLong = fileSize - badPos;
        if (restLong > Integer.MAX_VALUE) {
            return true;
        }
        int rest = (int) restLong;
        byte[] tail = new byte[rest];
        readFully(ch, ByteBuffer.wrap(tail), badPos);
        for (int p = 1; p + LogBatch.MIN_HEADER_SIZE <= rest; p++) {
            long size = LogBatch.sizeAt(tail, p) & 0xFFFFFFFFL;
            if (size < LogBatch.MIN_HEADER_SIZE || size > rest - p) {
                continue;
            }
            try {
                LogBatch b = LogBatch.wrap(tail, p, rest - p);
                if (b.baseOffset() >= expected
                        && b.baseOffset() - expected < Integer.MAX_VALUE
                        && b.isValid()) {
                    return true;
                }
            } catch (CorruptDataException e) {
                // not a batch start
            }
        }
        return false;
    }

    private static void readFully(FileChannel ch, ByteBuffer dst, long position)
            throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = ch.read(dst, at);
            if (n < 0) {
                throw new IOException("unexpected end of file at " + at);
            }
            at += n;
        }
    }
}

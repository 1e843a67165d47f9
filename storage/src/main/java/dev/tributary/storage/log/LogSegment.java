package dev.tributary.storage.log;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatches;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One segment file of a bucket log: batches back to back, named by the base offset of its first
 * batch. Appends are serialized by the owning {@link LogBucket}; reads use positional I/O and may
 * run concurrently with appends.
 */
final class LogSegment {
    private static final Logger LOG = LoggerFactory.getLogger(LogSegment.class);
    final long baseOffset;
    final Path file;
    final Path indexFile;
    private final FileChannel channel;
    private final OffsetIndex index;
    private final int indexInterval;
    private volatile long size;
    private volatile long nextOffset;
    private volatile long maxTimestamp;
    private long bytesSinceIndexEntry;

    private LogSegment(
            Path dir,
            long baseOffset,
            FileChannel channel,
            OffsetIndex index,
            int indexInterval,
            long size,
            long nextOffset,
            long maxTimestamp) {
        this.baseOffset = baseOffset;
        this.file = dir.resolve(fileName(baseOffset, ".log"));
        this.indexFile = dir.resolve(fileName(baseOffset, ".index"));
        this.channel = channel;
        this.index = index;
        this.indexInterval = indexInterval;
        this.size = size;
        this.nextOffset = nextOffset;
        this.maxTimestamp = maxTimestamp;
        this.bytesSinceIndexEntry = indexInterval; // index the first batch appended
    }

    static String fileName(long baseOffset, String suffix) {
        return String.format("%020d%s", baseOffset, suffix);
    }

    /** Parses the base offset from a segment file name, or -1 if it is not one. */
    static long parseBaseOffset(String name) {
        if (!name.endsWith(".log") || name.length() != 24) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(0, 20));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static LogSegment create(Path dir, long baseOffset, int indexInterval) {
        Path file = dir.resolve(fileName(baseOffset, ".log"));
        try {
            FileChannel ch =
                    FileChannel.open(
                            file,
                            StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.READ,
                            StandardOpenOption.WRITE);
            DurableFiles.syncDirectory(dir);
            return new LogSegment(
                    dir,
                    baseOffset,
                    ch,
                    new OffsetIndex(baseOffset),
                    indexInterval,
                    0,
                    baseOffset,
                    Long.MIN_VALUE);
        } catch (IOException e) {
            throw new StorageException("cannot create log segment " + file + ": " + e, e);
        }
    }

    /**
     * Opens an existing segment file: a sealed one from its index file when that is intact, else
     * (and always the last one) by scanning it; the last segment's torn tail is truncated.
     *
     * @throws dev.tributary.common.exception.CorruptDataException if it is damaged anywhere but in
     *     the last segment's torn tail
     */
    static LogSegment recover(
            TableBucket bucket, Path dir, long base, int indexInterval, boolean last)
            throws IOException {
        Path file = dir.resolve(LogSegment.fileName(base, ".log"));
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            if (!last) {
                var loaded =
                        OffsetIndex.load(
                                dir.resolve(LogSegment.fileName(base, ".index")), base, ch.size());
                if (loaded.isPresent()) {
                    var s = loaded.get().summary();
                    return new LogSegment(
                            dir,
                            base,
                            ch,
                            loaded.get().index(),
                            indexInterval,
                            s.segmentSize(),
                            s.nextOffset(),
                            s.maxTimestamp());
                }
            }
            SegmentScanner.Result r = SegmentScanner.scan(file, ch, base, indexInterval, last);
            if (r.torn()) {
                LOG.warn(
                        "bucket {}: truncating torn tail of {} from byte {} ({} bytes); records"
                                + " from offset {} were never acknowledged",
                        bucket,
                        file.getFileName(),
                        r.validSize(),
                        ch.size() - r.validSize(),
                        r.nextOffset());
                ch.truncate(r.validSize());
                ch.force(true);
            }
            return new LogSegment(
                    dir,
                    base,
                    ch,
                    r.index(),
                    indexInterval,
                    r.validSize(),
                    r.nextOffset(),
                    r.maxTimestamp());
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    long size() {
        return size;
    }

    long nextOffset() {
        return nextOffset;
    }

    long maxTimestamp() {
        return maxTimestamp;
    }

    OffsetIndex index() {
        return index;
    }

    FileChannel channel() {
        return channel;
    }

    /** Appends one encoded batch; the caller holds the log's append lock. */
    void append(byte[] batch, long batchBase, long batchNext, long batchMaxTimestamp)
            throws IOException {
        append(batch, 0, batch.length, batchBase, batchNext, batchMaxTimestamp);
    }

    /** Appends the batch in {@code buf[from, from + length)}; the caller holds the append lock. */
    void append(
            byte[] buf,
            int from,
            int length,
            long batchBase,
            long batchNext,
            long batchMaxTimestamp)
            throws IOException {
        long pos = size;
        ByteBuffer src = ByteBuffer.wrap(buf, from, length);
        long at = pos;
        while (src.hasRemaining()) {
            at += channel.write(src, at);
        }
        if (bytesSinceIndexEntry >= indexInterval) {
            index.add(batchBase, Math.toIntExact(pos));
            bytesSinceIndexEntry = 0;
        }
        bytesSinceIndexEntry += length;
        maxTimestamp = Math.max(maxTimestamp, batchMaxTimestamp);
        nextOffset = batchNext;
        size = pos + length; // publish last: readers trust bytes below size
    }

    /**
     * Cuts the segment before the first batch that holds {@code offset} or a later one, fsyncs the
     * cut and makes the segment take appends again (its index file, if sealed, is deleted: the
     * segment is active now). The caller holds the append lock.
     *
     * @return the segment's new next offset ({@code <= offset}: batches are never split)
     */
    long truncateTo(long offset) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(LogBatch.MIN_HEADER_SIZE);
        long pos = 0;
        long next = baseOffset;
        long maxTs = Long.MIN_VALUE;
        // from the start, not the index: the newest timestamp below the cut is needed too
        while (pos < size) {
            header.clear();
            readFully(header, pos);
            LogBatch b = LogBatch.wrap(header.array(), 0, Integer.MAX_VALUE);
            if (b.nextOffset() > offset) {
                break;
            }
            maxTs = Math.max(maxTs, b.lastTimestamp());
            next = b.nextOffset();
            pos += b.sizeInBytes();
        }
        Files.deleteIfExists(indexFile);
        size = pos; // before the file shrinks: readers trust bytes below size
        channel.truncate(pos);
        channel.force(true);
        index.truncateTo(pos);
        bytesSinceIndexEntry = indexInterval;
        nextOffset = next;
        maxTimestamp = maxTs;
        return next;
    }

    /** Whole batches read from a segment, and the offset after the last of them. */
    record Batches(byte[] records, long nextOffset) {}

    /**
     * Whole batches from the one holding {@code fromOffset}, up to about {@code maxBytes} (at least
     * one batch), none reaching past {@code limitOffset}, checked against their CRC.
     */
    Batches readBatches(long fromOffset, int maxBytes, long limitOffset) throws IOException {
        long limit = size;
        long pos = index.lookup(fromOffset);
        ByteBuffer header = ByteBuffer.allocate(LogBatch.MIN_HEADER_SIZE);
        // skip batches that end before fromOffset
        while (pos < limit) {
            header.clear();
            readFully(header, pos);
            LogBatch b = LogBatch.wrap(header.array(), 0, Integer.MAX_VALUE);
            if (b.nextOffset() > fromOffset) {
                break;
            }
            pos += b.sizeInBytes();
        }
        long startPos = pos;
        long total = 0;
        long next = fromOffset;
        while (pos < limit) {
            header.clear();
            readFully(header, pos);
            LogBatch b = LogBatch.wrap(header.array(), 0, Integer.MAX_VALUE);
            if (b.nextOffset() > limitOffset) {
                break;
            }
            int batchSize = b.sizeInBytes();
            if (total > 0 && total + batchSize > maxBytes) {
                break;
            }
            total += batchSize;
            pos += batchSize;
            next = b.nextOffset();
        }
        byte[] out = new byte[Math.toIntExact(total)];
        readFully(ByteBuffer.wrap(out), startPos);
        for (LogBatch b : LogBatches.of(out)) {
            b.ensureValid();
        }
        return new Batches(out, next);
    }

    /** Reads exactly {@code dst.remaining()} bytes at {@code position}. */
    void readFully(ByteBuffer dst, long position) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, at);
            if (n < 0) {
                throw new IOException("unexpected end of " + file + " at " + at);
            }
            at += n;
        }
    }

    void force() throws IOException {
        channel.force(false);
    }

    /** fsyncs and writes the index file: the segment takes no more appends. */
    void seal() throws IOException {
        force();
        index.writeTo(indexFile, new OffsetIndex.Summary(nextOffset, maxTimestamp, size));
    }

    void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new StorageException("cannot close " + file + ": " + e, e);
        }
    }

    void delete() throws IOException {
        close();
        Files.deleteIfExists(indexFile);
        Files.deleteIfExists(file);
    }

    @Override
    public String toString() {
        return file.getFileName() + "[" + baseOffset + ", " + nextOffset + ") " + size + "b";
    }
}

package dev.tributary.storage.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatchBuilder;
import dev.tributary.common.record.LogBatches;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogBucketTest {
    private static final TableBucket TB = new TableBucket(1, 0);
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("s", DataTypes.STRING())
                    .build();
    private static final RowCodec CODEC = RowCodec.of(SCHEMA);

    @TempDir Path dir;

    private static LogBucket.Config config(long segmentSize) {
        return new LogBucket.Config(segmentSize, 256, FlushPolicy.FSYNC);
    }

    private static Row row(long id) {
        return Row.of(id, "row-" + id);
    }

    /** A batch of rows {@code first .. first+n-1}. */
    private static byte[] batch(long first, int n) {
        LogBatchBuilder b = new LogBatchBuilder(0, n * 16);
        for (int i = 0; i < n; i++) {
            b.add(ChangeType.APPEND_ONLY, 1000 + first + i, row(first + i), CODEC);
        }
        return b.build();
    }

    /** Appends batches of the given sizes, waiting for each ack; returns the end offset. */
    private static long appendAll(LogBucket log, int[] sizes) {
        long next = log.endOffset();
        for (int n : sizes) {
            LogBucket.Appended a = log.append(batch(next, n));
            assertThat(a.baseOffset()).isEqualTo(next);
            assertThat(a.endOffset()).isEqualTo(next + n);
            a.durable().join();
            next += n;
        }
        return next;
    }

    private static List<LogRecord> readAll(LogBucket log, long from, int maxBytes) {
        List<LogRecord> out = new ArrayList<>();
        long offset = from;
        while (offset < log.endOffset()) {
            LogBucket.Read r = log.read(offset, maxBytes);
            assertThat(r.records()).isNotEmpty();
            for (LogBatch b : LogBatches.of(r.records())) {
                for (LogRecord rec : b.records(SCHEMA)) {
                    if (rec.offset() >= offset) {
                        out.add(rec);
                    }
                }
            }
            offset = r.nextOffset();
        }
        return out;
    }

    private static void assertDenseRows(List<LogRecord> records, long from, long end) {
        assertThat(records).hasSize((int) (end - from));
        for (int i = 0; i < records.size(); i++) {
            long offset = from + i;
            assertThat(records.get(i).offset()).isEqualTo(offset);
            assertThat(records.get(i).row()).isEqualTo(row(offset));
            assertThat(records.get(i).timestamp()).isEqualTo(1000 + offset);
        }
    }

    private int[] randomSizes(long seed, int batches) {
        Random r = new Random(seed);
        int[] sizes = new int[batches];
        for (int i = 0; i < batches; i++) {
            sizes[i] = 1 + r.nextInt(20);
        }
        return sizes;
    }

    @Test
    void appendAndReadRoundTripWithDenseOffsets() {
        try (LogBucket log = LogBucket.open(TB, dir, config(1 << 20))) {
            assertThat(log.startOffset()).isZero();
            assertThat(log.endOffset()).isZero();
            long end = appendAll(log, randomSizes(1, 60));
            assertThat(log.endOffset()).isEqualTo(end);
            assertDenseRows(readAll(log, 0, 700), 0, end);
            // reading from the middle of a batch returns that whole batch first
            LogBucket.Read r = log.read(5, 1);
            LogBatch first = LogBatches.of(r.records()).iterator().next();
            assertThat(first.baseOffset()).isLessThanOrEqualTo(5);
            assertThat(first.nextOffset()).isGreaterThan(5).isEqualTo(r.nextOffset());
            assertThat(log.read(end, 100).records()).isEmpty();
            assertThatThrownBy(() -> log.read(end + 1, 100))
                    .isInstanceOf(InvalidInputException.class);
        }
    }

    @Test
    void segmentsRollAtTheConfiguredSizeAndTheIndexFindsEveryOffset() throws IOException {
        long end;
        try (LogBucket log = LogBucket.open(TB, dir, config(2048))) {
            end = appendAll(log, randomSizes(2, 150));
            assertThat(log.sealedSegments()).hasSizeGreaterThan(5);
            for (LogBucket.SegmentInfo s : log.sealedSegments()) {
                assertThat(s.sizeInBytes()).isLessThanOrEqualTo(2048);
            }
            checkEveryOffsetIsFound(log, end);
        }
        try (Stream<Path> files = Files.list(dir)) {
            long logs = files.filter(p -> p.toString().endsWith(".log")).count();
            try (Stream<Path> idx = Files.list(dir)) {
                long indexes = idx.filter(p -> p.toString().endsWith(".index")).count();
                assertThat(indexes).isEqualTo(logs - 1); // every sealed segment has its index
            }
        }
        // reopen: sealed segments load their index files; reads still find every offset
        try (LogBucket log = LogBucket.open(TB, dir, config(2048))) {
            assertThat(log.endOffset()).isEqualTo(end);
            checkEveryOffsetIsFound(log, end);
            assertDenseRows(readAll(log, 0, 300), 0, end);
        }
    }

    private static void checkEveryOffsetIsFound(LogBucket log, long end) {
        for (long offset = 0; offset < end; offset++) {
            LogBucket.Read r = log.read(offset, 1);
            LogBatch b = LogBatches.of(r.records()).iterator().next();
            assertThat(b.baseOffset()).as("offset %d", offset).isLessThanOrEqualTo(offset);
            assertThat(b.nextOffset()).as("offset %d", offset).isGreaterThan(offset);
        }
    }

    private Path lastSegment() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".log"))
                    .sorted()
                    .reduce((a, b) -> b)
                    .orElseThrow();
        }
    }

    @Test
    void tornTailCutShortIsTruncatedToTheLastGoodBatch() throws IOException {
        long acked;
        long tornBase;
        try (LogBucket log = LogBucket.open(TB, dir, config(1 << 20))) {
            acked = appendAll(log, randomSizes(3, 20));
            tornBase = acked;
            log.append(batch(acked, 10)).durable().join();
        }
        Path file = lastSegment();
        long size = Files.size(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size - 7); // the last write was cut short by a crash
        }
        try (LogBucket log = LogBucket.open(TB, dir, config(1 << 20))) {
            assertThat(log.endOffset()).isEqualTo(tornBase);
            assertDenseRows(readAll(log, 0, 4096), 0, tornBase);
            // the log continues from the truncation point
            assertThat(log.append(batch(tornBase, 3)).baseOffset()).isEqualTo(tornBase);
        }
    }

    @Test
    void garbledTailAndPartialHeaderAreTruncated() throws IOException {
        long acked;
        try (LogBucket log = LogBucket.open(TB, dir, config(1 << 20))) {
            acked = appendAll(log, randomSizes(4, 15));
            log.append(batch(acked, 5)).durable().join();
        }
        Path file = lastSegment();
        long size = Files.size(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(size - 5);
            raf.write(new byte[] {1, 2, 3, 4, 5}); // garbled last bytes
            raf.seek(size);
            raf.write(new byte[] {9, 9, 9}); // plus a partial next header
        }
        try (LogBucket log = LogBucket.open(TB, dir, config(1 << 20))) {
            assertThat(log.endOffset()).isEqualTo(acked);
            assertDenseRows(readAll(log, 0, 4096), 0, acked);
        }
        assertThat(Files.size(file)).isLessThan(size);
    }

    @Test
    void corruptionInTheMiddleOfTheActiveSegmentIsReportedNotTruncated() throws IOException {
        long end;
        try (LogBucket log = LogBucket.open(TB, dir, config(1 << 20))) {
            end = appendAll(log, new int[] {5, 5, 5, 5, 5});
        }
        Path file = lastSegment();
        long size = Files.size(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(size / 2); // inside the third batch; two good batches follow
            raf.write(raf.read() ^ 0x55);
        }
        assertThatThrownBy(() -> LogBucket.open(TB, dir, config(1 << 20)))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("valid batches follow");
        // nothing was truncated: an operator can still inspect every byte
        assertThat(Files.size(file)).isEqualTo(size);
        assertThat(end).isEqualTo(25);
    }

    @Test
    void corruptionInASealedSegmentIsReportedOnRead() throws IOException {
        long end;
        try (LogBucket log = LogBucket.open(TB, dir, config(1024))) {
            end = appendAll(log, randomSizes(5, 40));
            assertThat(log.sealedSegments()).isNotEmpty();
        }
        Path first;
        try (Stream<Path> files = Files.list(dir)) {
            first =
                    files.filter(p -> p.toString().endsWith(".log"))
                            .sorted()
                            .findFirst()
                            .orElseThrow();
        }
        try (RandomAccessFile raf = new RandomAccessFile(first.toFile(), "rw")) {
            raf.seek(60);
            raf.write(raf.read() ^ 0x55);
        }
        try (LogBucket log = LogBucket.open(TB, dir, config(1024))) {
            assertThat(log.endOffset()).isEqualTo(end);
            assertThatThrownBy(() -> log.read(0, 1 << 20))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("checksum");
        }
    }

    @Test
    void concurrentAppendersGetDisjointDenseOffsets() throws Exception {
        try (LogBucket log = LogBucket.open(TB, dir, config(8192))) {
            int threads = 4;
            int perThread = 40;
            List<long[]> ranges = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread th =
                        new Thread(
                                () -> {
                                    for (int i = 0; i < perThread; i++) {
                                        // row content does not matter here, only the offsets
                                        LogBucket.Appended a = log.append(batch(0, 3));
                                        a.durable().join();
                                        assertThat(log.endOffset())
                                                .isGreaterThanOrEqualTo(a.endOffset());
                                        ranges.add(new long[] {a.baseOffset(), a.endOffset()});
                                    }
                                });
                ts.add(th);
                th.start();
            }
            for (Thread th : ts) {
                th.join(60_000);
            }
            ranges.sort((a, b) -> Long.compare(a[0], b[0]));
            long expected = 0;
            for (long[] r : ranges) {
                assertThat(r[0]).isEqualTo(expected);
                expected = r[1];
            }
            assertThat(expected).isEqualTo(threads * perThread * 3L);
            assertThat(log.endOffset()).isEqualTo(expected);
            long count = 0;
            long offset = 0;
            while (offset < expected) {
                LogBucket.Read r = log.read(offset, 1000);
                for (LogBatch b : LogBatches.of(r.records())) {
                    assertThat(b.baseOffset()).isEqualTo(offset);
                    count += b.recordCount();
                    offset = b.nextOffset();
                }
            }
            assertThat(count).isEqualTo(expected);
        }
    }

    @Test
    void readersRacingAppendsAndRollsSeeOnlyWholeAcknowledgedBatches() throws Exception {
        try (LogBucket log = LogBucket.open(TB, dir, config(4096))) {
            java.util.concurrent.atomic.AtomicBoolean done =
                    new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicReference<Throwable> failure =
                    new java.util.concurrent.atomic.AtomicReference<>();
            Thread reader =
                    new Thread(
                            () -> {
                                try {
                                    while (!done.get()) {
                                        long hw = log.endOffset();
                                        List<LogRecord> seen = readAll(log, 0, 1500);
                                        assertThat(seen.size()).isGreaterThanOrEqualTo((int) hw);
                                        for (int i = 0; i < seen.size(); i++) {
                                            assertThat(seen.get(i).offset()).isEqualTo(i);
                                            assertThat(seen.get(i).row()).isEqualTo(row(i));
                                        }
                                    }
                                } catch (Throwable t) {
                                    failure.set(t);
                                }
                            });
            reader.start();
            long next = 0;
            Random random = new Random(9);
            for (int i = 0; i < 300 && failure.get() == null; i++) {
                int n = 1 + random.nextInt(8);
                log.append(batch(next, n)).durable().join();
                next += n;
            }
            done.set(true);
            reader.join(60_000);
            assertThat(failure.get()).isNull();
            assertThat(log.sealedSegments()).hasSizeGreaterThan(3);
        }
    }
}

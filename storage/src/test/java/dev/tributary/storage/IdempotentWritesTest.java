package dev.tributary.storage;

import static dev.tributary.storage.StoreTestSupport.LOG_SCHEMA;
import static dev.tributary.storage.StoreTestSupport.PK_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.OutOfOrderSequenceException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.TableDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T42 in the store: a batch repeated by its writer is acknowledged with its first offsets and not
 * written again, across restarts, segment rolls, retention and torn tails; sequences that do not
 * follow are refused; writer state expires on the store clock.
 */
class IdempotentWritesTest {
    private static final long LOG_TABLE = 1;
    private static final long PK_TABLE = 2;
    private static final long WRITER = 0x5eed_cafe_1234L;
    private static final TableBucket LOG_BUCKET = new TableBucket(LOG_TABLE, 0);
    private static final TableBucket PK_BUCKET = new TableBucket(PK_TABLE, 0);

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(1_000_000);

    private static TableDescriptor logTable() {
        return TableDescriptor.builder(LOG_SCHEMA).bucketCount(1).build();
    }

    private static TableDescriptor pkTable() {
        return TableDescriptor.builder(PK_SCHEMA).bucketCount(1).build();
    }

    private BucketStore open(Configuration conf) {
        BucketStore store = BucketStore.open(dir, conf, clock);
        store.openTable(LOG_TABLE, logTable(), 0, LOG_SCHEMA);
        store.openTable(PK_TABLE, pkTable(), 0, PK_SCHEMA);
        return store;
    }

    private BucketStore open() {
        return open(new Configuration());
    }

    /** Batch {@code seq} of the writer: rows seq*10 .. seq*10+4. */
    private static WriteBatch logBatch(long writer, long seq) {
        WriteBatchBuilder b = WriteBatch.builder(LOG_TABLE, 0, 0, LOG_SCHEMA);
        for (int r = 0; r < 5; r++) {
            b.append(Row.of(seq * 10 + r, "r", new byte[40]));
        }
        return b.writer(writer, seq).build();
    }

    private static WriteBatch pkBatch(long writer, long seq, int key, String value) {
        return WriteBatch.builder(PK_TABLE, 0, 0, PK_SCHEMA)
                .upsert(Row.of(key, value, seq))
                .writer(writer, seq)
                .build();
    }

    private static List<Long> ids(BucketStore store) {
        List<Long> out = new ArrayList<>();
        for (LogRecord r : StoreTestSupport.readAll(store, LOG_BUCKET, 0, LOG_SCHEMA)) {
            out.add((Long) r.row().getField(0));
        }
        return out;
    }

    private static List<Long> expectedIds(long batches) {
        List<Long> out = new ArrayList<>();
        for (long s = 0; s < batches; s++) {
            for (int r = 0; r < 5; r++) {
                out.add(s * 10 + r);
            }
        }
        return out;
    }

    @Test
    void t42_aRetriedLogBatchIsAcknowledgedWithItsFirstOffsetsAndWrittenOnce() {
        try (BucketStore store = open()) {
            AppendResult first = store.append(logBatch(WRITER, 0)).join();
            AppendResult retry = store.append(logBatch(WRITER, 0)).join();
            assertThat(first.duplicate()).isFalse();
            assertThat(retry.duplicate()).isTrue();
            assertThat(retry.baseOffset()).isEqualTo(first.baseOffset());
            assertThat(retry.endOffset()).isEqualTo(first.endOffset());
            assertThat(store.append(logBatch(WRITER, 1)).join().baseOffset()).isEqualTo(5);
            assertThat(ids(store)).isEqualTo(expectedIds(2));
        }
    }

    @Test
    void t42_batchesWithoutAWriterAreAppendedEveryTime() {
        try (BucketStore store = open()) {
            WriteBatch b =
                    WriteBatch.builder(LOG_TABLE, 0, 0, LOG_SCHEMA)
                            .append(Row.of(1L, "x", null))
                            .build();
            store.append(b).join();
            assertThat(store.append(b).join().duplicate()).isFalse();
            assertThat(store.endOffset(LOG_BUCKET)).isEqualTo(2);
        }
    }

    @Test
    void t42_aRetriedPrimaryKeyBatchTouchesNeitherTheChangelogNorTheState() {
        try (BucketStore store = open()) {
            store.append(pkBatch(WRITER, 0, 1, "a")).join();
            AppendResult update = store.append(pkBatch(WRITER, 1, 1, "b")).join();
            AppendResult retry = store.append(pkBatch(WRITER, 1, 1, "b")).join();
            assertThat(retry.duplicate()).isTrue();
            assertThat(retry.baseOffset()).isEqualTo(update.baseOffset());
            assertThat(retry.endOffset()).isEqualTo(update.endOffset());
            assertThat(StoreTestSupport.readAll(store, PK_BUCKET, 0, PK_SCHEMA))
                    .extracting(LogRecord::changeType)
                    .containsExactly(
                            ChangeType.INSERT, ChangeType.UPDATE_BEFORE, ChangeType.UPDATE_AFTER);
            assertThat(store.lookup(PK_BUCKET, Row.of(1))).contains(Row.of(1, "b", 1L));
        }
    }

    @Test
    void t42_aRetriedDeleteOfAnAbsentKeyRepeatsItsFirstAnswer() {
        try (BucketStore store = open()) {
            WriteBatch delete =
                    WriteBatch.builder(PK_TABLE, 0, 0, PK_SCHEMA)
                            .delete(Row.of(9, null, null))
                            .writer(WRITER, 0)
                            .build();
            AppendResult first = store.append(delete).join();
            assertThat(first.absentDeletes()).containsExactly(0);
            // another writer inserts the key; the retry must not delete it
            store.append(pkBatch(WRITER + 1, 0, 9, "other")).join();
            AppendResult retry = store.append(delete).join();
            assertThat(retry.duplicate()).isTrue();
            assertThat(retry.absentDeletes()).containsExactly(0);
            assertThat(store.lookup(PK_BUCKET, Row.of(9))).isPresent();
        }
    }

    @Test
    void t42_aBatchOfAbsentDeletesIsRememberedAcrossACrash() throws IOException {
        // found by the fault soak (seed 20261203): the server was killed after answering such a
        // batch; the restarted log did not know its sequence and refused the next batch as a gap
        Map<Path, byte[]> atCrash = new HashMap<>();
        try (BucketStore store = open()) {
            store.append(pkBatch(WRITER, 0, 1, "a")).join();
            WriteBatch delete =
                    WriteBatch.builder(PK_TABLE, 0, 0, PK_SCHEMA)
                            .delete(Row.of(9, null, null))
                            .writer(WRITER, 1)
                            .build();
            assertThat(store.append(delete).join().absentDeletes()).containsExactly(0);
            for (Path p : stateFiles()) {
                atCrash.put(p, Files.readAllBytes(p));
            }
        }
        // as after a kill -9: the state files written at close never were
        for (Path p : stateFiles()) {
            Files.delete(p);
        }
        for (Map.Entry<Path, byte[]> e : atCrash.entrySet()) {
            Files.write(e.getKey(), e.getValue());
        }
        try (BucketStore store = open()) {
            assertThat(store.append(pkBatch(WRITER, 2, 2, "b")).join().duplicate()).isFalse();
            assertThat(store.lookup(PK_BUCKET, Row.of(2))).contains(Row.of(2, "b", 2L));
        }
    }

    @Test
    void t42_sequencesThatDoNotFollowAreRefusedAndWriteNothing() {
        try (BucketStore store = open()) {
            store.append(logBatch(WRITER, 0)).join();
            store.append(logBatch(WRITER, 1)).join();
            assertThatThrownBy(() -> store.append(logBatch(WRITER, 3)).join())
                    .isInstanceOf(OutOfOrderSequenceException.class);
            assertThatThrownBy(() -> store.append(logBatch(WRITER, 0)).join())
                    .isInstanceOf(OutOfOrderSequenceException.class);
            store.append(pkBatch(WRITER, 0, 1, "a")).join();
            assertThatThrownBy(() -> store.append(pkBatch(WRITER, 2, 1, "c")).join())
                    .isInstanceOf(OutOfOrderSequenceException.class);
            assertThat(ids(store)).isEqualTo(expectedIds(2));
            assertThat(store.endOffset(PK_BUCKET)).isEqualTo(1);
            assertThat(store.lookup(PK_BUCKET, Row.of(1))).contains(Row.of(1, "a", 0L));
            // each (writer, bucket) has its own sequence; a new writer starts where it likes
            assertThat(store.append(logBatch(WRITER + 1, 7)).join().duplicate()).isFalse();
        }
    }

    @Test
    void t42_theStateSurvivesACleanRestart() {
        try (BucketStore store = open()) {
            store.append(logBatch(WRITER, 0)).join();
            store.append(pkBatch(WRITER, 0, 1, "a")).join();
        }
        try (BucketStore store = open()) {
            assertThat(store.append(logBatch(WRITER, 0)).join().duplicate()).isTrue();
            assertThat(store.append(pkBatch(WRITER, 0, 1, "a")).join().duplicate()).isTrue();
            assertThat(store.append(logBatch(WRITER, 1)).join().duplicate()).isFalse();
            assertThat(ids(store)).isEqualTo(expectedIds(2));
        }
    }

    @Test
    void t42_withoutStateFilesTheStateIsRebuiltFromTheBatchHeaders() throws IOException {
        try (BucketStore store = open()) {
            store.append(logBatch(WRITER, 0)).join();
            store.append(logBatch(WRITER, 1)).join();
            store.append(pkBatch(WRITER, 0, 1, "a")).join();
        }
        // as after a crash before any snapshot of the state was written
        deleteStateFiles();
        try (BucketStore store = open()) {
            AppendResult retry = store.append(logBatch(WRITER, 1)).join();
            assertThat(retry.duplicate()).isTrue();
            assertThat(retry.baseOffset()).isEqualTo(5);
            assertThat(store.append(pkBatch(WRITER, 0, 1, "a")).join().duplicate()).isTrue();
            assertThatThrownBy(() -> store.append(logBatch(WRITER, 0)).join())
                    .isInstanceOf(OutOfOrderSequenceException.class);
        }
    }

    @Test
    void t42_theStateOutlivesRolledAndRetainedSegments() throws IOException {
        Configuration conf =
                new Configuration()
                        .setString("log.segment.size", "1kb")
                        .setString("table.log.ttl", "1h");
        long other = WRITER + 99;
        long end;
        try (BucketStore store = open(conf)) {
            store.append(logBatch(other, 0)).join(); // only in the first segment
            for (long s = 0; s < 40; s++) {
                store.append(logBatch(WRITER, s)).join();
            }
            clock.advance(Duration.ofHours(2));
            store.append(logBatch(WRITER, 40)).join();
            assertThat(store.runRetention().segmentsDeleted()).isPositive();
            assertThat(store.startOffset(LOG_BUCKET)).isPositive();
            end = store.endOffset(LOG_BUCKET);
        }
        // crash-like: only the snapshots written when segments rolled remain
        assertThat(Files.deleteIfExists(logDir().resolve(String.format("%020d.writers", end))))
                .isTrue();
        try (BucketStore store = open(conf)) {
            assertThat(store.append(logBatch(other, 0)).join().duplicate())
                    .as("the writer's only batch was deleted by retention")
                    .isTrue();
            assertThat(store.append(logBatch(WRITER, 40)).join().duplicate()).isTrue();
            assertThat(store.append(logBatch(WRITER, 41)).join().duplicate()).isFalse();
        }
    }

    @Test
    void t42_aBatchCutOffByATornTailIsAcceptedAgain() throws IOException {
        try (BucketStore store = open()) {
            store.append(logBatch(WRITER, 0)).join();
            store.append(logBatch(WRITER, 1)).join();
        }
        deleteStateFiles();
        Path segment = logDir().resolve(String.format("%020d.log", 0));
        long size = Files.size(segment);
        try (var ch =
                java.nio.channels.FileChannel.open(
                        segment, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(size - 7); // batch 1 was torn: never acknowledged
        }
        try (BucketStore store = open()) {
            AppendResult retry = store.append(logBatch(WRITER, 1)).join();
            assertThat(retry.duplicate()).isFalse();
            assertThat(retry.baseOffset()).isEqualTo(5);
            assertThat(ids(store)).isEqualTo(expectedIds(2));
        }
    }

    @Test
    void t42_writerStateExpiresOnTheStoreClock() {
        Configuration conf = new Configuration().setString("server.writer.state-expiration", "1d");
        try (BucketStore store = open(conf)) {
            store.append(logBatch(WRITER, 0)).join();
            clock.advance(Duration.ofHours(23));
            store.runRetention();
            assertThat(store.append(logBatch(WRITER, 0)).join().duplicate()).isTrue();
            clock.advance(Duration.ofHours(2));
            store.runRetention();
            // forgotten: a batch that would have been a duplicate is taken as new
            assertThat(store.append(logBatch(WRITER, 0)).join().duplicate()).isFalse();
            assertThat(store.endOffset(LOG_BUCKET)).isEqualTo(10);
        }
    }

    @Test
    void t42_concurrentSendsOfOneBatchAppendItOnce() throws Exception {
        try (BucketStore store = open()) {
            for (long s = 0; s < 50; s++) {
                WriteBatch b = logBatch(WRITER, s);
                WriteBatch pk = pkBatch(WRITER, s, (int) (s % 3), "v" + s);
                CyclicBarrier start = new CyclicBarrier(4);
                List<CompletableFuture<AppendResult>> results = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    WriteBatch send = t % 2 == 0 ? b : pk;
                    results.add(
                            CompletableFuture.supplyAsync(
                                    () -> {
                                        try {
                                            start.await();
                                        } catch (Exception e) {
                                            throw new IllegalStateException(e);
                                        }
                                        return store.append(send).join();
                                    }));
                }
                long written =
                        results.stream()
                                .map(CompletableFuture::join)
                                .filter(r -> !r.duplicate())
                                .count();
                assertThat(written).isEqualTo(2);
            }
            assertThat(ids(store)).isEqualTo(expectedIds(50));
        }
    }

    private Path logDir() {
        return dir.resolve("tables").resolve(Long.toString(LOG_TABLE)).resolve("0").resolve("log");
    }

    private void deleteStateFiles() throws IOException {
        for (Path p : stateFiles()) {
            Files.delete(p);
        }
    }

    private List<Path> stateFiles() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".writers")).toList();
        }
    }
}

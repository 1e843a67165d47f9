package dev.tributary.storage;

import static dev.tributary.storage.StoreTestSupport.LOG_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.log.FixedHighWatermark;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionTest {
    private static final long TABLE = 5;
    private static final TableBucket BUCKET = new TableBucket(TABLE, 0);

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(50_000_000);
    private BucketStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private void open(TableDescriptor.Builder table) {
        store =
                BucketStore.open(
                        dir, new Configuration().setString("log.segment.size", "2kb"), clock);
        store.createTable(TABLE, table.build(), 0, LOG_SCHEMA);
    }

    private static TableDescriptor.Builder table() {
        return TableDescriptor.builder(LOG_SCHEMA).bucketCount(1).property("table.log.ttl", "1h");
    }

    /** Appends batches of 10 rows (~300 bytes), one minute apart. */
    private void appendBatches(int n) {
        for (int i = 0; i < n; i++) {
            WriteBatchBuilder b = WriteBatch.builder(TABLE, 0, 0, LOG_SCHEMA);
            for (int r = 0; r < 10; r++) {
                b.append(Row.of((long) r, "row-" + r, new byte[8]));
            }
            store.append(b.build()).join();
            clock.advance(Duration.ofMinutes(1));
        }
    }

    @Test
    void retentionNeverDeletesPastAReplicatedLogsHighWatermark() {
        open(table());
        appendBatches(30);
        long end = store.endOffset(BUCKET);
        // replicated now, with followers that have only the first 150 records (T50)
        store.replicaLog(BUCKET).replicate(new FixedHighWatermark(() -> 150));
        clock.advance(Duration.ofDays(1)); // every sealed segment expired
        store.runRetention();
        assertThat(store.startOffset(BUCKET)).isPositive().isLessThanOrEqualTo(150);
        store.replicaLog(BUCKET)
                .replicate(null); // a single copy again: the high watermark is the end
        store.runRetention();
        assertThat(store.startOffset(BUCKET)).isGreaterThan(150).isLessThan(end);
    }

    @Test
    void segmentsOlderThanTheTtlAreDeletedButNeverTheActiveOne() {
        open(table());
        appendBatches(30);
        long end = store.endOffset(BUCKET);
        assertThat(store.runRetention().segmentsDeleted()).isZero(); // newest record is 1 min old
        clock.advance(Duration.ofMinutes(40)); // segments written in the first ~10 min expire
        RetentionResult partial = store.runRetention();
        assertThat(partial.segmentsDeleted()).isPositive();
        long start = store.startOffset(BUCKET);
        assertThat(start).isPositive().isLessThan(end);
        assertThatThrownBy(() -> store.read(BUCKET, 0, 100))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("starts at " + start);
        assertThat(StoreTestSupport.readAll(store, BUCKET, start, LOG_SCHEMA))
                .hasSize((int) (end - start));

        clock.advance(Duration.ofDays(1));
        store.runRetention();
        assertThat(store.endOffset(BUCKET)).isEqualTo(end);
        // the active segment stays: it may still take appends
        assertThat(store.startOffset(BUCKET)).isLessThan(end);
    }

    @Test
    void retentionNeverDeletesLogAtOrAboveTheTieredOffsetOfALakeTable() {
        open(table().property("table.datalake.enabled", "true"));
        appendBatches(30);
        clock.advance(Duration.ofDays(8));
        assertThat(store.runRetention().segmentsDeleted())
                .as("no tiered offset yet: nothing may go")
                .isZero();
        assertThat(store.startOffset(BUCKET)).isZero();

        store.setTieredOffset(BUCKET, 95);
        store.runRetention();
        long start = store.startOffset(BUCKET);
        assertThat(start).isPositive().isLessThanOrEqualTo(95);
        // every offset from the tiered offset on is still readable
        assertThat(StoreTestSupport.readAll(store, BUCKET, start, LOG_SCHEMA).get(0).offset())
                .isEqualTo(start);

        store.setTieredOffset(BUCKET, 40); // a stale, lower offset never moves the gate back
        store.setTieredOffset(BUCKET, store.endOffset(BUCKET));
        store.runRetention();
        assertThat(store.startOffset(BUCKET)).isGreaterThan(95);
    }

    @Test
    void sizeRetentionDeletesTheOldestSegmentsUntilUnderTheLimit() {
        open(table().property("table.log.ttl", "7d").property("table.log.retention-size", "4kb"));
        appendBatches(40);
        RetentionResult r = store.runRetention();
        assertThat(r.segmentsDeleted()).isPositive();
        assertThat(r.bytesDeleted()).isPositive();
        long remaining = 0;
        long offset = store.startOffset(BUCKET);
        while (offset < store.endOffset(BUCKET)) {
            LogReadResult read = store.read(BUCKET, offset, 1 << 20);
            remaining += read.records().length;
            offset = read.nextOffset();
        }
        assertThat(remaining).isLessThanOrEqualTo(4096);
    }

    @Test
    void aBadRetentionPropertyFailsWhenTheTableIsOpened() {
        assertThatThrownBy(() -> open(table().property("table.log.ttl", "soon")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("table.log.ttl")
                .hasMessageContaining("soon");
    }

    @Test
    void everyOptionHasADefaultOrSaysWhatUnsetMeansAndADescription() {
        for (var option : BucketStore.options()) {
            assertThat(option.description()).as(option.key()).isNotBlank();
            assertThat(option.hasDefault() || option.description().contains("Unset"))
                    .as(option.key())
                    .isTrue();
        }
        assertThat(BucketStore.options())
                .extracting(o -> o.key())
                .contains("table.log.ttl", "kv.snapshot.interval", "kv.snapshot.num-retained");
        assertThat(dev.tributary.common.config.TableOptions.LOG_TTL.defaultValue())
                .isEqualTo(Duration.ofDays(7));
        assertThat(dev.tributary.storage.kv.KvOptions.SNAPSHOT_NUM_RETAINED.defaultValue())
                .isEqualTo(2);
    }
}

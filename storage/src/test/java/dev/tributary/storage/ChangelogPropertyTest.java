package dev.tributary.storage;

import static dev.tributary.storage.StoreTestSupport.PK_SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.kv.KvSnapshotInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded property test: random upserts and deletes go to a primary-key bucket and to a plain
 * in-memory model. The changelog of every batch is exactly what the model predicts, the KV equals
 * the model, replaying the log from 0 equals the model, every snapshot equals the model at its
 * offset, and a reopened store holds the same state.
 */
class ChangelogPropertyTest {
    private static final long TABLE = 7;
    private static final TableBucket BUCKET = new TableBucket(TABLE, 0);
    private static final int KEYS = 40;

    @TempDir Path dir;

    @Test
    void kvLogAndSnapshotsAgreeWithAModel() {
        long seed = Long.getLong("test.seed", new Random().nextLong());
        try {
            run(seed);
        } catch (Throwable t) {
            throw new AssertionError(
                    "failed with seed " + seed + " (rerun with -Dtest.seed=" + seed + ")", t);
        }
    }

    private void run(long seed) {
        Random random = new Random(seed);
        ManualClock clock = new ManualClock(1_000_000);
        Configuration conf =
                new Configuration()
                        .setString("log.segment.size", "4kb")
                        .setString("kv.snapshot.num-retained", "1000");
        TableDescriptor d = TableDescriptor.builder(PK_SCHEMA).bucketCount(1).build();
        TreeMap<Integer, Row> model = new TreeMap<>();
        Map<Long, TreeMap<Integer, Row>> modelAtSnapshot = new HashMap<>();
        BucketStore store = BucketStore.open(dir, conf, clock);
        try {
            store.createTable(TABLE, d, 0, PK_SCHEMA);
            for (int round = 0; round < 120; round++) {
                clock.advanceMillis(random.nextInt(50));
                writeRandomBatch(store, random, model);
                if (random.nextInt(15) == 0) {
                    KvSnapshotInfo s = store.snapshot(BUCKET);
                    assertThat(s.logOffset()).isEqualTo(store.endOffset(BUCKET));
                    modelAtSnapshot.put(s.snapshotId(), new TreeMap<>(model));
                }
            }
            assertKvEquals(store, model);
            assertThat(replay(StoreTestSupport.readAll(store, BUCKET, 0, PK_SCHEMA)))
                    .isEqualTo(model);
            KvSnapshotInfo last = store.snapshot(BUCKET);
            modelAtSnapshot.put(last.snapshotId(), new TreeMap<>(model));
            for (KvSnapshotInfo s : store.listSnapshots(BUCKET)) {
                assertThat(snapshotRows(store, s.snapshotId()))
                        .as("snapshot %d at offset %d", s.snapshotId(), s.logOffset())
                        .isEqualTo(modelAtSnapshot.get(s.snapshotId()));
                // the changelog up to the snapshot's offset replays to the same state
                List<LogRecord> prefix = new ArrayList<>();
                for (LogRecord r : StoreTestSupport.readAll(store, BUCKET, 0, PK_SCHEMA)) {
                    if (r.offset() < s.logOffset()) {
                        prefix.add(r);
                    }
                }
                assertThat(replay(prefix)).isEqualTo(modelAtSnapshot.get(s.snapshotId()));
            }
            // more changes after the newest snapshot: recovery must replay them from the log
            for (int round = 0; round < 20; round++) {
                writeRandomBatch(store, random, model);
            }
        } finally {
            store.close();
        }
        long end;
        try (BucketStore reopened = BucketStore.open(dir, conf, clock)) {
            reopened.openTable(TABLE, d, 0, PK_SCHEMA);
            assertKvEquals(reopened, model);
            end = reopened.endOffset(BUCKET);
            writeRandomBatch(reopened, random, model);
            assertKvEquals(reopened, model);
            assertThat(replay(StoreTestSupport.readAll(reopened, BUCKET, 0, PK_SCHEMA)))
                    .isEqualTo(model);
            assertThat(reopened.endOffset(BUCKET)).isGreaterThanOrEqualTo(end);
        }
    }

    /** Writes one random batch and checks its changelog against the model's prediction. */
    private static void writeRandomBatch(
            BucketStore store, Random random, TreeMap<Integer, Row> model) {
        WriteBatchBuilder b = WriteBatch.builder(TABLE, 0, 0, PK_SCHEMA);
        List<ChangeType> expectedTypes = new ArrayList<>();
        List<Row> expectedRows = new ArrayList<>();
        int n = 1 + random.nextInt(12);
        for (int i = 0; i < n; i++) {
            int key = random.nextInt(KEYS);
            if (random.nextInt(10) < 7) {
                Row row =
                        Row.of(
                                key,
                                "v" + random.nextInt(1000),
                                random.nextBoolean() ? null : random.nextLong());
                b.upsert(row);
                Row old = model.put(key, row);
                if (old == null) {
                    expectedTypes.add(ChangeType.INSERT);
                    expectedRows.add(row);
                } else {
                    expectedTypes.add(ChangeType.UPDATE_BEFORE);
                    expectedRows.add(old);
                    expectedTypes.add(ChangeType.UPDATE_AFTER);
                    expectedRows.add(row);
                }
            } else {
                b.delete(Row.of(key, null, null));
                Row old = model.remove(key);
                if (old != null) {
                    expectedTypes.add(ChangeType.DELETE);
                    expectedRows.add(old);
                }
            }
        }
        long before = store.endOffset(BUCKET);
        AppendResult r = store.append(b.build()).join();
        assertThat(r.baseOffset()).isEqualTo(before);
        assertThat(r.recordCount()).isEqualTo(expectedTypes.size());
        assertThat(store.endOffset(BUCKET)).isEqualTo(r.endOffset());
        List<LogRecord> written = StoreTestSupport.readAll(store, BUCKET, before, PK_SCHEMA);
        assertThat(written)
                .extracting(LogRecord::changeType)
                .containsExactlyElementsOf(expectedTypes);
        assertThat(written).extracting(LogRecord::row).containsExactlyElementsOf(expectedRows);
        for (int i = 0; i < written.size(); i++) {
            assertThat(written.get(i).offset()).isEqualTo(before + i);
        }
    }

    private static void assertKvEquals(BucketStore store, TreeMap<Integer, Row> model) {
        for (int k = 0; k < KEYS; k++) {
            assertThat(store.lookup(BUCKET, Row.of(k)))
                    .as("key %d", k)
                    .isEqualTo(java.util.Optional.ofNullable(model.get(k)));
        }
    }

    /** Applies a changelog to an empty state. */
    static TreeMap<Integer, Row> replay(List<LogRecord> log) {
        TreeMap<Integer, Row> state = new TreeMap<>();
        for (LogRecord r : log) {
            int key = (Integer) r.row().getField(0);
            switch (r.changeType()) {
                case INSERT:
                case UPDATE_AFTER:
                    state.put(key, r.row());
                    break;
                case DELETE:
                    assertThat(state.remove(key)).isEqualTo(r.row());
                    break;
                case UPDATE_BEFORE:
                    assertThat(state.get(key)).isEqualTo(r.row());
                    break;
                default:
                    throw new AssertionError("a PK changelog has no " + r.changeType());
            }
        }
        return state;
    }

    private static TreeMap<Integer, Row> snapshotRows(BucketStore store, long snapshotId) {
        TreeMap<Integer, Row> rows = new TreeMap<>();
        try (CloseableIterator<Row> it = store.readSnapshot(BUCKET, snapshotId)) {
            while (it.hasNext()) {
                Row r = it.next();
                assertThat(rows.put((Integer) r.getField(0), r)).isNull();
            }
        }
        return rows;
    }
}

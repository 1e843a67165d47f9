package dev.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.record.WriteBatchBuilder;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.storage.kv.KvSnapshotInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RocksDB key encoding of PK buckets: snapshots in the lake's key order, old ones kept. */
class KvKeyOrderTest {
    private static final long TABLE = 7;
    private static final TableBucket BUCKET = new TableBucket(TABLE, 0);
    private static final Schema INT_KEY =
            Schema.newBuilder()
                    .column("k", DataTypes.INT())
                    .column("v", DataTypes.STRING())
                    .primaryKey("k")
                    .build();
    private static final Schema COMPOSITE_KEY =
            Schema.newBuilder()
                    .column("s", DataTypes.STRING())
                    .column("n", DataTypes.BIGINT())
                    .column("d", DataTypes.DATE())
                    .column("t", DataTypes.TIMESTAMP_LTZ(6))
                    .column("v", DataTypes.STRING())
                    .primaryKey("s", "n", "d", "t")
                    .build();

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(10_000_000);
    private final TableDescriptor descriptorOfInt = descriptor(INT_KEY);
    private BucketStore store;

    private static TableDescriptor descriptor(Schema schema) {
        return TableDescriptor.builder(schema).bucketCount(1).build();
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private void open(String keyEncoding, Schema schema, boolean create) {
        Configuration conf = new Configuration();
        if (keyEncoding != null) {
            conf.setString("kv.key-encoding", keyEncoding);
        }
        store = BucketStore.open(dir, conf, clock);
        if (create) {
            store.createTable(TABLE, descriptor(schema), 0, schema);
        } else {
            store.openTable(TABLE, descriptor(schema), 0, schema);
        }
    }

    private void upsert(Schema schema, List<Row> rows) {
        WriteBatchBuilder b = WriteBatch.builder(TABLE, 0, 0, schema);
        rows.forEach(b::upsert);
        store.append(b.build()).join();
    }

    private List<Row> snapshotRows(long snapshotId) {
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = store.readSnapshot(BUCKET, snapshotId)) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private Path meta(long snapshotId) {
        return dir.resolve("tables/" + TABLE + "/0/kv/snapshots/snap-" + snapshotId)
                .resolve("TRIBUTARY-SNAPSHOT");
    }

    @Test
    void aNewTablesSnapshotIteratesInTheLakesKeyOrder() throws Exception {
        long seed = System.nanoTime();
        System.out.println("KvKeyOrderTest seed " + seed);
        Random random = new Random(seed);
        open(null, COMPOSITE_KEY, true);
        String[] pieces = {"", "a", "a\u0000", "ab", "é", "\uD83D\uDE00", "b"};
        Map<List<Object>, Row> latest = new LinkedHashMap<>();
        for (int batch = 0; batch < 20; batch++) {
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                Row r =
                        Row.of(
                                pieces[random.nextInt(pieces.length)]
                                        + pieces[random.nextInt(pieces.length)],
                                random.nextInt(5) == 0 ? random.nextLong() : random.nextInt(7) - 3L,
                                LocalDate.ofEpochDay(random.nextInt(5) - 2),
                                Instant.ofEpochSecond(
                                        random.nextInt(3) - 1, random.nextInt(3) * 1000),
                                "v" + batch + "-" + i);
                rows.add(r);
                latest.put(keyOf(r), r);
            }
            upsert(COMPOSITE_KEY, rows);
        }
        KvSnapshotInfo snap = store.snapshot(BUCKET);
        assertThat(Files.readString(meta(snap.snapshotId()))).contains("keyEncoding=ordered-v1");

        List<Row> expected = new ArrayList<>(latest.values());
        expected.sort(LAKE_ORDER);
        assertThat(snapshotRows(snap.snapshotId())).as("seed %d", seed).isEqualTo(expected);
        for (Row r : expected) {
            Row key = Row.of(r.getField(0), r.getField(1), r.getField(2), r.getField(3));
            assertThat(store.lookup(BUCKET, key)).as("seed %d", seed).contains(r);
        }
    }

    /** Strings by unsigned UTF-8 bytes, numbers and times by value: Paimon's key comparator. */
    private static final Comparator<Row> LAKE_ORDER =
            Comparator.<Row, byte[]>comparing(
                            r -> ((String) r.getField(0)).getBytes(StandardCharsets.UTF_8),
                            Arrays::compareUnsigned)
                    .thenComparing(r -> (Long) r.getField(1))
                    .thenComparing(r -> (LocalDate) r.getField(2))
                    .thenComparing(r -> (Instant) r.getField(3));

    private static List<Object> keyOf(Row r) {
        return List.of(r.getField(0), r.getField(1), r.getField(2), r.getField(3));
    }

    @Test
    void aBucketWrittenWithTheOldEncodingRecoversAndKeepsIt() throws Exception {
        open("row-codec", INT_KEY, true);
        upsert(INT_KEY, List.of(Row.of(-1, "a"), Row.of(1, "a"), Row.of(2, "a")));
        KvSnapshotInfo snap = store.snapshot(BUCKET);
        // RowCodec keys are little-endian: 1 sorts before 2, and -1 (0xFFFFFFFF) last
        assertThat(snapshotRows(snap.snapshotId()))
                .containsExactly(Row.of(1, "a"), Row.of(2, "a"), Row.of(-1, "a"));
        upsert(INT_KEY, List.of(Row.of(2, "b"), Row.of(3, "b"))); // replayed after the snapshot
        store.close();
        // what the version before the key encodings wrote: no keyEncoding line
        String text = Files.readString(meta(snap.snapshotId()));
        assertThat(text).contains("keyEncoding=row-codec");
        Files.writeString(meta(snap.snapshotId()), text.replace("keyEncoding=row-codec\n", ""));

        open(null, INT_KEY, false); // this version, ordered encoding preferred
        assertThat(store.lookup(BUCKET, Row.of(-1))).contains(Row.of(-1, "a"));
        assertThat(store.lookup(BUCKET, Row.of(1))).contains(Row.of(1, "a"));
        assertThat(store.lookup(BUCKET, Row.of(2))).contains(Row.of(2, "b"));
        assertThat(store.lookup(BUCKET, Row.of(3))).contains(Row.of(3, "b"));
        assertThat(store.lookup(BUCKET, Row.of(4))).isEmpty();
        upsert(INT_KEY, List.of(Row.of(1, "c"), Row.of(-1, "c")));
        store.append(WriteBatch.builder(TABLE, 0, 0, INT_KEY).delete(Row.of(3, null)).build())
                .join();

        KvSnapshotInfo next = store.snapshot(BUCKET);
        assertThat(Files.readString(meta(next.snapshotId()))).contains("keyEncoding=row-codec");
        // each key once (the old rows were found and replaced), still in the old key order
        assertThat(snapshotRows(next.snapshotId()))
                .containsExactly(Row.of(1, "c"), Row.of(2, "b"), Row.of(-1, "c"));
    }

    @Test
    void aBucketWithoutASnapshotIsRebuiltFromTheLogInTheNewEncoding() throws Exception {
        open("row-codec", INT_KEY, true);
        upsert(INT_KEY, List.of(Row.of(-1, "a"), Row.of(1, "a"), Row.of(2, "a")));
        store.close();

        open(null, INT_KEY, false);
        upsert(INT_KEY, List.of(Row.of(1, "b")));
        KvSnapshotInfo snap = store.snapshot(BUCKET);
        assertThat(Files.readString(meta(snap.snapshotId()))).contains("keyEncoding=ordered-v1");
        assertThat(snapshotRows(snap.snapshotId()))
                .containsExactly(Row.of(-1, "a"), Row.of(1, "b"), Row.of(2, "a"));
    }

    @Test
    void keyTypesWithoutAnOrderedEncodingKeepTheOldOne() throws Exception {
        Schema doubleKey =
                Schema.newBuilder()
                        .column("k", DataTypes.DOUBLE())
                        .column("v", DataTypes.STRING())
                        .primaryKey("k")
                        .build();
        open(null, doubleKey, true);
        upsert(doubleKey, List.of(Row.of(-1.5d, "a"), Row.of(2.5d, "a")));
        upsert(doubleKey, List.of(Row.of(2.5d, "b")));
        KvSnapshotInfo snap = store.snapshot(BUCKET);
        assertThat(Files.readString(meta(snap.snapshotId()))).contains("keyEncoding=row-codec");
        assertThat(snapshotRows(snap.snapshotId())).hasSize(2);
        assertThat(store.lookup(BUCKET, Row.of(2.5d))).contains(Row.of(2.5d, "b"));
    }

    @Test
    void aSnapshotOfAnUnknownEncodingIsNeitherOpenedNorDiscarded() throws Exception {
        open(null, INT_KEY, true);
        upsert(INT_KEY, List.of(Row.of(1, "a")));
        KvSnapshotInfo snap = store.snapshot(BUCKET);
        store.close();
        store = null;
        String text = Files.readString(meta(snap.snapshotId()));
        Files.writeString(meta(snap.snapshotId()), text.replace("ordered-v1", "ordered-v9"));

        Configuration conf = new Configuration();
        BucketStore reopened = BucketStore.open(dir, conf, clock);
        try {
            assertThatThrownBy(() -> reopened.openTable(TABLE, descriptorOfInt, 0, INT_KEY))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("ordered-v9");
        } finally {
            reopened.close();
        }
        assertThat(meta(snap.snapshotId())).exists();
    }
}

package dev.tributary.lake.api.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import dev.tributary.lake.api.catalog.LakeTableInfo;
import dev.tributary.lake.api.catalog.LakeTableMismatchException;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieredRound;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.AttemptFileNames;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every lake format must show, proven against real tables read back with the format's
 * own reader. A format module extends this class and supplies the storage, its native reader and a
 * way to change a table behind Tributary's back.
 *
 * <p>Every commit in this suite goes through {@link LakeWriteResultSerializer} bytes, as in
 * production (tiering job to coordinator).
 */
public abstract class LakeTieringContractTest {
    protected static final long BASE_TS = 1_764_000_000_000L;

    @TempDir protected Path warehouse;
    protected LakeStorage storage;

    /** Opens the format's storage on a fresh local warehouse. */
    protected abstract LakeStorage createStorage(Path warehouse);

    /** The plugin identifier. */
    protected abstract String format();

    /**
     * Every live row of the lake table read with the format's OWN reader, converted to Tributary
     * value classes, all lake columns (system columns included) in lake column order.
     */
    protected abstract List<Row> readWithFormatReader(TablePath path) throws Exception;

    /** Data and delete files of the table present on disk (not metadata). */
    protected abstract List<Path> dataFilesOnDisk(TablePath path) throws Exception;

    /**
     * T48: asserts, with the format's own API, that a reader that cannot merge rows by key reads
     * the PK table as it is now (Iceberg: no equality-delete file live in any snapshot; Paimon: no
     * live file at level 0 of a deletion-vector table). Every format overrides it; the default
     * checks nothing.
     */
    protected void assertReadableWithoutKeyMerge(TablePath path) throws Exception {}

    /** Changes column {@code column} of the lake table from INT to BIGINT with the native API. */
    protected abstract void widenIntColumnOutsideTributary(TablePath path, String column)
            throws Exception;

    /** The type {@link LakeTableInfo#schema()} reports for a Tributary type (formats may widen). */
    protected DataType describedType(DataType t) {
        return t;
    }

    /** A Row value as the format reads it back (formats may widen). */
    protected Object readBackValue(DataType t, Object v) {
        return v;
    }

    @BeforeEach
    void openStorage() {
        storage = createStorage(warehouse);
    }

    @AfterEach
    void closeStorage() {
        if (storage != null) {
            storage.close();
        }
    }

    // ---------------------------------------------------------------- helpers

    protected static TableDescriptor logTable(int buckets) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT())
                                .column("name", DataTypes.STRING())
                                .build())
                .bucketCount(buckets)
                .build();
    }

    protected static TableDescriptor pkTable(int buckets) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.INT())
                                .column("name", DataTypes.STRING())
                                .column("score", DataTypes.BIGINT())
                                .primaryKey("id")
                                .build())
                .bucketCount(buckets)
                .build();
    }

    /** One record of a split. */
    protected record Rec(Row row, ChangeType type, long offset) {}

    /**
     * Writes one split as the tiering job does (rows as views of their encoded bytes), ships the
     * result through bytes, returns the deserialized result.
     */
    protected LakeWriteResult writeSplit(
            TablePath path,
            TableDescriptor table,
            long tableId,
            long epoch,
            long round,
            int bucket,
            List<Rec> records) {
        return writeSplit(path, table, tableId, epoch, round, bucket, records, true);
    }

    private LakeWriteResult writeSplit(
            TablePath path,
            TableDescriptor table,
            long tableId,
            long epoch,
            long round,
            int bucket,
            List<Rec> records,
            boolean encoded) {
        return writeSplit(
                new LakeWriterContext(path, tableId, table, bucket, epoch, round),
                records,
                encoded);
    }

    /**
     * Writes a KV snapshot split (a PK table bucket's first round, T54), as {@link #writeSplit}.
     */
    protected LakeWriteResult writeSnapshotSplit(
            TablePath path,
            TableDescriptor table,
            long tableId,
            long epoch,
            long round,
            int bucket,
            List<Rec> records) {
        return writeSplit(
                snapshotContext(path, table, tableId, epoch, round, bucket), records, true);
    }

    protected static LakeWriterContext snapshotContext(
            TablePath path,
            TableDescriptor table,
            long tableId,
            long epoch,
            long round,
            int bucket) {
        return new LakeWriterContext(
                path,
                tableId,
                table,
                bucket,
                epoch,
                round,
                TableBucket.NO_PARTITION,
                null,
                LakeWriterContext.SplitSource.KV_SNAPSHOT);
    }

    private LakeWriteResult writeSplit(
            LakeWriterContext context, List<Rec> records, boolean encoded) {
        TableDescriptor table = context.table();
        int bucket = context.bucket();
        RowCodec codec = RowCodec.of(table.schema());
        EncodedRow view = codec.view();
        try (LakeWriter w = storage.createWriter(context)) {
            for (Rec r : records) {
                long ts = BASE_TS + r.offset();
                if (encoded) {
                    // a buffer with bytes before the row: views must honour the row's offset
                    byte[] row = codec.encode(r.row());
                    byte[] buf = new byte[row.length + 5];
                    System.arraycopy(row, 0, buf, 5, row.length);
                    w.write(view.pointTo(buf, 5, row.length), r.type(), bucket, r.offset(), ts);
                } else {
                    w.write(r.row(), r.type(), bucket, r.offset(), ts);
                }
            }
            LakeWriteResult result = w.complete();
            byte[] bytes = LakeWriteResultSerializer.INSTANCE.serialize(result);
            LakeWriteResult back = LakeWriteResultSerializer.INSTANCE.deserialize(bytes);
            assertThat(back).isEqualTo(result);
            return back;
        }
    }

    protected LakeCommitResult commit(
            TablePath path,
            List<LakeWriteResult> results,
            long tableId,
            long epoch,
            long round,
            Map<Integer, Long> offsets) {
        try (LakeCommitter c = storage.createCommitter(path)) {
            return c.commit(results, TieringSnapshotProperties.of(tableId, epoch, round, offsets));
        }
    }

    protected static Row lakeRow(Row user, int bucket, long offset) {
        Object[] f = new Object[user.arity() + 3];
        for (int i = 0; i < user.arity(); i++) {
            f[i] = user.getField(i);
        }
        f[user.arity()] = bucket;
        f[user.arity() + 1] = offset;
        f[user.arity() + 2] = Instant.ofEpochMilli(BASE_TS + offset);
        return Row.wrap(f);
    }

    private static List<Rec> appends(long firstOffset, Row... rows) {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            out.add(new Rec(rows[i], ChangeType.APPEND_ONLY, firstOffset + i));
        }
        return out;
    }

    // ---------------------------------------------------------------- tests

    @Test
    void pluginIsFoundByItsIdentifier() {
        assertThat(LakeStoragePlugins.find(format()).identifier()).isEqualTo(format());
        assertThat(storage.identifier()).isEqualTo(format());
    }

    @Test
    void T29_everyTypeRoundTripsThroughTheFormatsOwnReader() throws Exception {
        Schema schema =
                Schema.newBuilder()
                        .column("k", DataTypes.INT())
                        .column("b", DataTypes.BOOLEAN())
                        .column("ti", DataTypes.TINYINT())
                        .column("si", DataTypes.SMALLINT())
                        .column("bi", DataTypes.BIGINT())
                        .column("f", DataTypes.FLOAT())
                        .column("d", DataTypes.DOUBLE())
                        .column("dec_small", DataTypes.DECIMAL(10, 2))
                        .column("dec_big", DataTypes.DECIMAL(38, 10))
                        .column("s", DataTypes.STRING())
                        .column("bytes", DataTypes.BYTES())
                        .column("dt", DataTypes.DATE())
                        .column("tm", DataTypes.TIME())
                        .column("ts0", DataTypes.TIMESTAMP(0))
                        .column("ts3", DataTypes.TIMESTAMP(3))
                        .column("ts6", DataTypes.TIMESTAMP(6))
                        .column("ts9", DataTypes.TIMESTAMP(9))
                        .column("ltz0", DataTypes.TIMESTAMP_LTZ(0))
                        .column("ltz3", DataTypes.TIMESTAMP_LTZ(3))
                        .column("ltz6", DataTypes.TIMESTAMP_LTZ(6))
                        .column("ltz9", DataTypes.TIMESTAMP_LTZ(9))
                        .column("req", DataTypes.STRING().notNull())
                        .build();
        TableDescriptor table = TableDescriptor.builder(schema).bucketCount(1).build();
        TablePath path = TablePath.of("types", "all_types");
        storage.catalog().createTable(path, table);

        Row full =
                Row.of(
                        1,
                        true,
                        (byte) -7,
                        (short) 300,
                        Long.MIN_VALUE,
                        1.5f,
                        -2.25e300,
                        new BigDecimal("12345678.91"),
                        new BigDecimal("1234567890123456789012345678.0123456789"),
                        "héllo ✓",
                        new byte[] {0, 1, -1, 127},
                        LocalDate.of(2026, 11, 29),
                        LocalTime.of(23, 59, 59, 123_000_000),
                        LocalDateTime.of(2026, 1, 2, 3, 4, 5),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_000_000),
                        LocalDateTime.of(2026, 1, 2, 3, 4, 5, 123_456_000),
                        LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_807),
                        Instant.ofEpochSecond(1_700_000_000L),
                        Instant.ofEpochSecond(-1, 999_000_000),
                        Instant.ofEpochSecond(1_700_000_000L, 123_456_000),
                        Instant.ofEpochSecond(1_700_000_000L, 123_456_789),
                        "x");
        Object[] nulls = new Object[schema.fieldCount()];
        nulls[0] = 2;
        nulls[schema.fieldCount() - 1] = "";
        Row empty = Row.wrap(nulls);
        schema.validate(full);
        schema.validate(empty);

        LakeWriteResult r = writeSplit(path, table, 1, 1, 1, 0, appends(0, full, empty));
        // the same rows through write(Row), into a second table, must read back the same
        TablePath viaObjects = TablePath.of("types", "all_types_objects");
        storage.catalog().createTable(viaObjects, table);
        LakeWriteResult o =
                writeSplit(viaObjects, table, 2, 1, 1, 0, appends(0, full, empty), false);
        commit(viaObjects, List.of(o), 2, 1, 1, Map.of(0, 2L));
        assertThat(r.rowCount()).isEqualTo(2);
        assertThat(r.files()).isNotEmpty();
        assertThat(r.fileBytes()).isPositive();
        assertThat(r.minTimestampMillis()).hasValue(BASE_TS);
        assertThat(r.maxTimestampMillis()).hasValue(BASE_TS + 1);
        commit(path, List.of(r), 1, 1, 1, Map.of(0, 2L));

        List<Row> expected = new ArrayList<>();
        for (Row u : List.of(lakeRow(full, 0, 0), lakeRow(empty, 0, 1))) {
            Object[] f = new Object[u.arity()];
            for (int i = 0; i < u.arity(); i++) {
                f[i] =
                        i < schema.fieldCount() && u.getField(i) != null
                                ? readBackValue(schema.typeAt(i), u.getField(i))
                                : u.getField(i);
            }
            expected.add(Row.wrap(f));
        }
        assertThat(readWithFormatReader(path)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(readWithFormatReader(viaObjects)).containsExactlyInAnyOrderElementsOf(expected);

        LakeTableInfo info = storage.catalog().describeTable(path);
        assertThat(info.format()).isEqualTo(format());
        Schema lake = LakeSystemColumns.lakeSchemaOf(schema);
        List<Column> want = new ArrayList<>();
        for (Column c : lake.columns()) {
            want.add(c.withType(describedType(c.type())));
        }
        assertThat(info.schema().columns().stream().map(c -> c.name() + " " + c.type()).toList())
                .containsExactlyElementsOf(
                        want.stream().map(c -> c.name() + " " + c.type()).toList());
        storage.catalog().validateTable(path, table);
    }

    @Test
    void T6_logRoundsAppendRowsWithSystemColumns() throws Exception {
        TablePath path = TablePath.of("db", "events");
        TableDescriptor table = logTable(2);
        storage.catalog().createTable(path, table);
        storage.catalog().createTable(path, table); // idempotent
        assertThat(storage.catalog().tableExists(path)).isTrue();

        // round 1: both buckets; bucket 0 cut into two offset-range splits (T5)
        List<LakeWriteResult> r1 = new ArrayList<>();
        r1.add(writeSplit(path, table, 7, 1, 1, 0, appends(0, Row.of(1L, "a"), Row.of(2L, "b"))));
        r1.add(writeSplit(path, table, 7, 1, 1, 0, appends(2, Row.of(3L, "c"))));
        r1.add(writeSplit(path, table, 7, 1, 1, 1, appends(0, Row.of(4L, null))));
        LakeCommitResult c1 = commit(path, r1, 7, 1, 1, Map.of(0, 3L, 1, 1L));
        assertThat(c1.outcome()).isEqualTo(LakeCommitResult.Outcome.COMMITTED);
        assertThat(c1.rowCount()).isEqualTo(4);

        List<LakeWriteResult> r2 =
                List.of(writeSplit(path, table, 7, 2, 2, 1, appends(1, Row.of(5L, "e"))));
        LakeCommitResult c2 = commit(path, r2, 7, 2, 2, Map.of(0, 3L, 1, 2L));
        assertThat(c2.snapshotId()).isNotEqualTo(c1.snapshotId());

        assertThat(readWithFormatReader(path))
                .containsExactlyInAnyOrder(
                        lakeRow(Row.of(1L, "a"), 0, 0),
                        lakeRow(Row.of(2L, "b"), 0, 1),
                        lakeRow(Row.of(3L, "c"), 0, 2),
                        lakeRow(Row.of(4L, null), 1, 0),
                        lakeRow(Row.of(5L, "e"), 1, 1));
    }

    @Test
    void t48_pkRoundsOfUpdatesDeletesAndReinsertsReadBackExactlyWithoutAKeyMerge()
            throws Exception {
        TablePath path = TablePath.of("db", "t48_users");
        TableDescriptor table = pkTable(2);
        storage.catalog().createTable(path, table);
        Map<Integer, Row> expected = new TreeMap<>();
        long[] offsets = new long[2];
        // round 1: keys 0..7, bucket = key % 2
        Map<Integer, List<Rec>> splits = new TreeMap<>();
        for (int k = 0; k < 8; k++) {
            put(splits, expected, offsets, Row.of(k, "v" + k, 1L), ChangeType.INSERT);
        }
        commitRound(path, table, 1, splits, expected, offsets);
        // round 2: updates of lake rows, one key updated twice, a delete, an upsert without -U
        splits = new TreeMap<>();
        retractAndPut(splits, expected, offsets, 0, Row.of(0, "v0b", 2L));
        retractAndPut(splits, expected, offsets, 1, Row.of(1, "v1b", 2L));
        retractAndPut(splits, expected, offsets, 1, Row.of(1, "v1c", 3L));
        delete(splits, expected, offsets, 2);
        put(splits, expected, offsets, Row.of(3, "v3b", 2L), ChangeType.UPDATE_AFTER);
        commitRound(path, table, 2, splits, expected, offsets);
        // round 3: a re-insert, a delete of a row updated in round 2, an update of one too
        splits = new TreeMap<>();
        put(splits, expected, offsets, Row.of(2, "v2 again", 3L), ChangeType.INSERT);
        delete(splits, expected, offsets, 0);
        retractAndPut(splits, expected, offsets, 1, Row.of(1, "v1d", 4L));
        retractAndPut(splits, expected, offsets, 4, Row.of(4, "v4b", 3L));
        commitRound(path, table, 3, splits, expected, offsets);
        // round 4: change the re-inserted key, delete and re-insert one key within the round
        splits = new TreeMap<>();
        retractAndPut(splits, expected, offsets, 2, Row.of(2, "v2c", 4L));
        delete(splits, expected, offsets, 5);
        put(splits, expected, offsets, Row.of(5, "v5 again", 4L), ChangeType.INSERT);
        delete(splits, expected, offsets, 7);
        commitRound(path, table, 4, splits, expected, offsets);
    }

    private static void put(
            Map<Integer, List<Rec>> splits,
            Map<Integer, Row> expected,
            long[] offsets,
            Row row,
            ChangeType type) {
        int key = (Integer) row.getField(0);
        int bucket = key % 2;
        long offset = offsets[bucket]++;
        splits.computeIfAbsent(bucket, b -> new ArrayList<>()).add(new Rec(row, type, offset));
        expected.put(key, lakeRow(row, bucket, offset));
    }

    private static void retractAndPut(
            Map<Integer, List<Rec>> splits,
            Map<Integer, Row> expected,
            long[] offsets,
            int key,
            Row row) {
        int bucket = key % 2;
        splits.computeIfAbsent(bucket, b -> new ArrayList<>())
                .add(
                        new Rec(
                                userPart(expected.get(key)),
                                ChangeType.UPDATE_BEFORE,
                                offsets[bucket]++));
        put(splits, expected, offsets, row, ChangeType.UPDATE_AFTER);
    }

    private static void delete(
            Map<Integer, List<Rec>> splits, Map<Integer, Row> expected, long[] offsets, int key) {
        int bucket = key % 2;
        splits.computeIfAbsent(bucket, b -> new ArrayList<>())
                .add(new Rec(userPart(expected.remove(key)), ChangeType.DELETE, offsets[bucket]++));
    }

    private static Row userPart(Row lakeRow) {
        Object[] f = new Object[lakeRow.arity() - 3];
        for (int i = 0; i < f.length; i++) {
            f[i] = lakeRow.getField(i);
        }
        return Row.wrap(f);
    }

    /**
     * Writes and commits one round of splits by bucket (epoch = round: Paimon's commit identifier
     * must grow); the lake then reads as expected.
     */
    private void commitRound(
            TablePath path,
            TableDescriptor table,
            long round,
            Map<Integer, List<Rec>> splits,
            Map<Integer, Row> expected,
            long[] offsets)
            throws Exception {
        List<LakeWriteResult> results = new ArrayList<>();
        splits.forEach(
                (bucket, recs) ->
                        results.add(writeSplit(path, table, 48, round, round, bucket, recs)));
        LakeCommitResult c =
                commit(path, results, 48, round, round, Map.of(0, offsets[0], 1, offsets[1]));
        assertThat(c.outcome()).isEqualTo(LakeCommitResult.Outcome.COMMITTED);
        assertThat(readWithFormatReader(path))
                .as("round %s", round)
                .containsExactlyInAnyOrderElementsOf(expected.values());
        assertReadableWithoutKeyMerge(path);
    }

    @Test
    void T8_primaryKeyRoundsApplyUpsertsAndDeletesWithinAndAcrossRounds() throws Exception {
        TablePath path = TablePath.of("db", "users");
        TableDescriptor table = pkTable(2);
        storage.catalog().createTable(path, table);
        Map<Integer, Row> expected = new TreeMap<>();

        // round 1, bucket 0: inserts, a key updated within the round, a key inserted and deleted
        List<Rec> b0 = new ArrayList<>();
        b0.add(new Rec(Row.of(1, "one", 10L), ChangeType.INSERT, 0));
        b0.add(new Rec(Row.of(2, "two", 20L), ChangeType.INSERT, 1));
        b0.add(new Rec(Row.of(2, "two", 20L), ChangeType.UPDATE_BEFORE, 2));
        b0.add(new Rec(Row.of(2, "TWO", 21L), ChangeType.UPDATE_AFTER, 3));
        b0.add(new Rec(Row.of(3, "three", 30L), ChangeType.INSERT, 4));
        b0.add(new Rec(Row.of(3, "three", 30L), ChangeType.DELETE, 5));
        // bucket 1: inserts and an update chain
        List<Rec> b1 = new ArrayList<>();
        b1.add(new Rec(Row.of(4, "four", 40L), ChangeType.INSERT, 0));
        b1.add(new Rec(Row.of(5, "five", 50L), ChangeType.INSERT, 1));
        b1.add(new Rec(Row.of(5, "five", 50L), ChangeType.UPDATE_BEFORE, 2));
        b1.add(new Rec(Row.of(5, "FIVE", null), ChangeType.UPDATE_AFTER, 3));
        b1.add(new Rec(Row.of(5, "FIVE", null), ChangeType.UPDATE_BEFORE, 4));
        b1.add(new Rec(Row.of(5, "Five", 52L), ChangeType.UPDATE_AFTER, 5));
        commit(
                path,
                List.of(
                        writeSplit(path, table, 3, 1, 1, 0, b0),
                        writeSplit(path, table, 3, 1, 1, 1, b1)),
                3,
                1,
                1,
                Map.of(0, 6L, 1, 6L));
        expected.put(1, lakeRow(Row.of(1, "one", 10L), 0, 0));
        expected.put(2, lakeRow(Row.of(2, "TWO", 21L), 0, 3));
        expected.put(4, lakeRow(Row.of(4, "four", 40L), 1, 0));
        expected.put(5, lakeRow(Row.of(5, "Five", 52L), 1, 5));
        assertThat(readWithFormatReader(path))
                .containsExactlyInAnyOrderElementsOf(expected.values());

        // round 2: update a key of round 1, delete another, re-insert a deleted key,
        // update-then-delete within the round
        List<Rec> b0r2 = new ArrayList<>();
        b0r2.add(new Rec(Row.of(1, "one", 10L), ChangeType.UPDATE_BEFORE, 6));
        b0r2.add(new Rec(Row.of(1, "uno", 11L), ChangeType.UPDATE_AFTER, 7));
        b0r2.add(new Rec(Row.of(3, "tres", 33L), ChangeType.INSERT, 8));
        b0r2.add(new Rec(Row.of(2, "TWO", 21L), ChangeType.UPDATE_BEFORE, 9));
        b0r2.add(new Rec(Row.of(2, "dos", 22L), ChangeType.UPDATE_AFTER, 10));
        b0r2.add(new Rec(Row.of(2, "dos", 22L), ChangeType.DELETE, 11));
        List<Rec> b1r2 = List.of(new Rec(Row.of(4, "four", 40L), ChangeType.DELETE, 6));
        commit(
                path,
                List.of(
                        writeSplit(path, table, 3, 2, 2, 0, b0r2),
                        writeSplit(path, table, 3, 2, 2, 1, b1r2)),
                3,
                2,
                2,
                Map.of(0, 12L, 1, 7L));
        expected.put(1, lakeRow(Row.of(1, "uno", 11L), 0, 7));
        expected.put(3, lakeRow(Row.of(3, "tres", 33L), 0, 8));
        expected.remove(2);
        expected.remove(4);
        assertThat(readWithFormatReader(path))
                .containsExactlyInAnyOrderElementsOf(expected.values());

        // round 3 only touches bucket 1: other keys stay
        commit(
                path,
                List.of(
                        writeSplit(
                                path,
                                table,
                                3,
                                3,
                                3,
                                1,
                                List.of(new Rec(Row.of(4, "cuatro", 44L), ChangeType.INSERT, 7)))),
                3,
                3,
                3,
                Map.of(0, 12L, 1, 8L));
        expected.put(4, lakeRow(Row.of(4, "cuatro", 44L), 1, 7));
        assertThat(readWithFormatReader(path))
                .containsExactlyInAnyOrderElementsOf(expected.values());
    }

    // ---------------------------------------------------------------- first rounds (T54)

    @Test
    void t54_aKvSnapshotSplitCommitsEachKeyOnceAndLaterLogRoundsChangeThoseKeys() throws Exception {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        String why = "seed " + seed;
        TablePath path = TablePath.of("db", "first_round");
        TableDescriptor table =
                withFunction(pkTable(4), BucketFunctionType.forLakeFormat(format()));
        storage.catalog().createTable(path, table);
        BucketFunction store = BucketFunction.of(table);
        RowCodec keyCodec =
                RowCodec.of(Schema.of(List.of(table.schema().columns().get(0)), List.of()));

        // the KV state: 3,000 keys, each with the offset of its last write in its bucket's log
        Map<Integer, Row> expected = new TreeMap<>();
        Map<Integer, List<Rec>> snapshots = new TreeMap<>();
        Map<Integer, Long> offsets = new TreeMap<>();
        while (expected.size() < 3_000) {
            int k = rnd.nextInt();
            if (expected.containsKey(k)) {
                continue;
            }
            Row r = randomRow(rnd, k);
            int b = store.bucketOf(r);
            long offset = offsets.merge(b, 1L, Long::sum) - 1;
            snapshots
                    .computeIfAbsent(b, x -> new ArrayList<>())
                    .add(new Rec(r, ChangeType.INSERT, offset));
            expected.put(k, lakeRow(r, b, offset));
        }
        // a snapshot split reads its bucket in the store's key order: the encoded keys' bytes
        List<LakeWriteResult> round1 = new ArrayList<>();
        snapshots.forEach(
                (b, recs) -> {
                    recs.sort(
                            Comparator.comparing(
                                    r -> keyCodec.encode(Row.of(r.row().getField(0))),
                                    Arrays::compareUnsigned));
                    round1.add(writeSnapshotSplit(path, table, 9, 1, 1, b, recs));
                });
        assertThat(round1).as(why).hasSize(4);
        assertThat(round1.stream().mapToLong(LakeWriteResult::rowCount).sum())
                .as(why)
                .isEqualTo(3_000);
        assertThat(commit(path, round1, 9, 1, 1, offsets).outcome())
                .isEqualTo(LakeCommitResult.Outcome.COMMITTED);
        assertThat(readWithFormatReader(path))
                .as("after the snapshot round, " + why)
                .containsExactlyInAnyOrderElementsOf(expected.values());

        // a log round: updates, deletes, deletes then re-inserts, and new keys
        Map<Integer, List<Rec>> log = new TreeMap<>();
        List<Integer> keys = new ArrayList<>(expected.keySet());
        Collections.shuffle(keys, rnd);
        for (int i = 0; i < 900; i++) {
            int k = keys.get(i);
            Row old = userRow(expected.get(k), 3);
            int b = store.bucketOf(old);
            Row next = randomRow(rnd, k);
            List<Rec> recs = log.computeIfAbsent(b, x -> new ArrayList<>());
            switch (i % 3) {
                case 0 -> {
                    recs.add(new Rec(old, ChangeType.UPDATE_BEFORE, offsets.get(b)));
                    recs.add(new Rec(next, ChangeType.UPDATE_AFTER, offsets.get(b) + 1));
                }
                case 1 -> recs.add(new Rec(old, ChangeType.DELETE, offsets.get(b)));
                default -> {
                    recs.add(new Rec(old, ChangeType.DELETE, offsets.get(b)));
                    recs.add(new Rec(next, ChangeType.INSERT, offsets.get(b) + 1));
                }
            }
            long last = offsets.get(b) + (i % 3 == 1 ? 0 : 1);
            offsets.put(b, last + 1);
            if (i % 3 == 1) {
                expected.remove(k);
            } else {
                expected.put(k, lakeRow(next, b, last));
            }
        }
        for (int added = 0; added < 300; ) {
            int k = rnd.nextInt();
            if (expected.containsKey(k) || keys.contains(k)) {
                continue;
            }
            Row r = randomRow(rnd, k);
            int b = store.bucketOf(r);
            long offset = offsets.merge(b, 1L, Long::sum) - 1;
            log.computeIfAbsent(b, x -> new ArrayList<>())
                    .add(new Rec(r, ChangeType.INSERT, offset));
            expected.put(k, lakeRow(r, b, offset));
            added++;
        }
        List<LakeWriteResult> round2 = new ArrayList<>();
        log.forEach((b, recs) -> round2.add(writeSplit(path, table, 9, 2, 2, b, recs)));
        assertThat(commit(path, round2, 9, 2, 2, offsets).outcome())
                .isEqualTo(LakeCommitResult.Outcome.COMMITTED);
        assertThat(readWithFormatReader(path))
                .as("after the log round, " + why)
                .containsExactlyInAnyOrderElementsOf(expected.values());
    }

    @Test
    void t54_aKvSnapshotSplitRefusesRecordsThatAreNotInserts() {
        TablePath path = TablePath.of("db", "first_round_refused");
        TableDescriptor table = pkTable(1);
        storage.catalog().createTable(path, table);
        RowCodec codec = RowCodec.of(table.schema());
        Row one = Row.of(1, "one", 1L);
        for (ChangeType t :
                List.of(ChangeType.UPDATE_BEFORE, ChangeType.UPDATE_AFTER, ChangeType.DELETE)) {
            for (boolean encoded : List.of(false, true)) {
                try (LakeWriter w =
                        storage.createWriter(snapshotContext(path, table, 1, 1, 1, 0))) {
                    w.write(Row.of(2, "two", 2L), ChangeType.INSERT, 0, 0, BASE_TS);
                    byte[] bytes = codec.encode(one);
                    assertThatThrownBy(
                                    () -> {
                                        if (encoded) {
                                            w.write(
                                                    codec.view().pointTo(bytes, 0, bytes.length),
                                                    t,
                                                    0,
                                                    1,
                                                    BASE_TS);
                                        } else {
                                            w.write(one, t, 0, 1, BASE_TS);
                                        }
                                    })
                            .as("%s, encoded %s", t, encoded)
                            .isInstanceOf(InvalidInputException.class)
                            .hasMessageContaining(path.toString())
                            .hasMessageContaining(t.shortString());
                    w.abort();
                }
            }
        }
    }

    /** A row of {@link #pkTable}: the key, a name with repeats (or NULL), a score. */
    private static Row randomRow(Random rnd, int key) {
        String name = rnd.nextInt(10) == 0 ? null : "n" + rnd.nextInt(40);
        return Row.of(key, name, rnd.nextLong());
    }

    /** The first {@code columns} fields of a lake row. */
    private static Row userRow(Row lake, int columns) {
        Object[] f = new Object[columns];
        for (int i = 0; i < columns; i++) {
            f[i] = lake.getField(i);
        }
        return Row.wrap(f);
    }

    /** Writes one split of a partition, as {@link #writeSplit} does for a table's bucket. */
    protected LakeWriteResult writePartitionSplit(
            TablePath path,
            TableDescriptor table,
            long tableId,
            long epoch,
            long round,
            long partitionId,
            String partition,
            int bucket,
            List<Rec> records) {
        try (LakeWriter w =
                storage.createWriter(
                        new LakeWriterContext(
                                path,
                                tableId,
                                table,
                                bucket,
                                epoch,
                                round,
                                partitionId,
                                dev.tributary.common.id.PartitionSpec.parse(partition)))) {
            for (Rec r : records) {
                w.write(r.row(), r.type(), bucket, r.offset(), BASE_TS + r.offset());
            }
            return LakeWriteResultSerializer.INSTANCE.deserialize(
                    LakeWriteResultSerializer.INSTANCE.serialize(w.complete()));
        }
    }

    @Test
    void t32_partitionedPrimaryKeyRoundsApplyChangesWithinEachLakePartition() throws Exception {
        TablePath path = TablePath.of("db", "orders");
        TableDescriptor table =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT())
                                        .column("dt", DataTypes.DATE())
                                        .column("amount", DataTypes.BIGINT())
                                        .primaryKey("id", "dt")
                                        .build())
                        .partitionKeys("dt")
                        .bucketCount(2)
                        .build();
        storage.catalog().createTable(path, table);
        storage.catalog().validateTable(path, table);
        java.time.LocalDate d1 = java.time.LocalDate.of(2026, 12, 1);
        java.time.LocalDate d2 = java.time.LocalDate.of(2026, 12, 2);
        // round 1: the same id in two partitions is two keys; one is updated within the round
        List<Rec> p1 =
                List.of(
                        new Rec(Row.of(1, d1, 10L), ChangeType.INSERT, 0),
                        new Rec(Row.of(2, d1, 20L), ChangeType.INSERT, 1),
                        new Rec(Row.of(2, d1, 20L), ChangeType.UPDATE_BEFORE, 2),
                        new Rec(Row.of(2, d1, 21L), ChangeType.UPDATE_AFTER, 3));
        List<Rec> p2 = List.of(new Rec(Row.of(1, d2, 30L), ChangeType.INSERT, 0));
        commit(
                path,
                List.of(
                        writePartitionSplit(path, table, 3, 1, 1, 10, "dt=2026-12-01", 0, p1),
                        writePartitionSplit(path, table, 3, 1, 1, 11, "dt=2026-12-02", 0, p2)),
                3,
                1,
                1,
                Map.of());
        // round 2: update and delete keys written in round 1, in both partitions
        List<Rec> p1r2 =
                List.of(
                        new Rec(Row.of(1, d1, 10L), ChangeType.UPDATE_BEFORE, 4),
                        new Rec(Row.of(1, d1, 11L), ChangeType.UPDATE_AFTER, 5),
                        new Rec(Row.of(2, d1, 21L), ChangeType.DELETE, 6));
        List<Rec> p2r2 =
                List.of(
                        new Rec(Row.of(1, d2, 30L), ChangeType.UPDATE_BEFORE, 1),
                        new Rec(Row.of(1, d2, 31L), ChangeType.UPDATE_AFTER, 2));
        commit(
                path,
                List.of(
                        writePartitionSplit(path, table, 3, 2, 2, 10, "dt=2026-12-01", 0, p1r2),
                        writePartitionSplit(path, table, 3, 2, 2, 11, "dt=2026-12-02", 0, p2r2)),
                3,
                2,
                2,
                Map.of());
        assertThat(readWithFormatReader(path))
                .containsExactlyInAnyOrder(
                        lakeRow(Row.of(1, d1, 11L), 0, 5), lakeRow(Row.of(1, d2, 31L), 0, 2));

        // T33: a lake partition dropped on request leaves the others
        storage.catalog()
                .dropPartition(
                        path, table, dev.tributary.common.id.PartitionSpec.parse("dt=2026-12-01"));
        assertThat(readWithFormatReader(path)).containsExactly(lakeRow(Row.of(1, d2, 31L), 0, 2));
    }

    @Test
    void t40_t32_anEqualityFilterOnThePartitionColumnsReadsOneLakePartitionsBucket()
            throws Exception {
        // the union read of a partitioned table reads (partition, bucket) by (partition, bucket):
        // the lake read selects the partition with equality on every partition column
        TablePath path = TablePath.of("db", "clicks");
        TableDescriptor table =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT())
                                        .column("region", DataTypes.STRING())
                                        .column("dt", DataTypes.DATE())
                                        .build())
                        .partitionKeys("region", "dt")
                        .bucketCount(2)
                        .build();
        storage.catalog().createTable(path, table);
        LocalDate d1 = LocalDate.of(2026, 12, 1);
        LocalDate d2 = LocalDate.of(2026, 12, 2);
        Map<String, List<Rec>> splits = new LinkedHashMap<>();
        List<LakeWriteResult> results = new ArrayList<>();
        long partitionId = 30;
        for (String region : List.of("eu", "us")) {
            for (LocalDate day : List.of(d1, d2)) {
                for (int bucket = 0; bucket < 2; bucket++) {
                    List<Rec> recs = new ArrayList<>();
                    for (long o = 0; o < 3; o++) {
                        long id = partitionId * 100 + bucket * 10 + o;
                        recs.add(new Rec(Row.of(id, region, day), ChangeType.APPEND_ONLY, o));
                    }
                    String name = "region=" + region + "/dt=" + day;
                    splits.put(name + "#" + bucket, recs);
                    results.add(
                            writePartitionSplit(
                                    path, table, 9, 1, 1, partitionId, name, bucket, recs));
                }
                partitionId++;
            }
        }
        assertThat(commit(path, results, 9, 1, 1, Map.of()).outcome())
                .isEqualTo(LakeCommitResult.Outcome.COMMITTED);
        try (dev.tributary.lake.api.read.LakeReader reader = storage.createReader(path)) {
            LakeSnapshot s = reader.latestTieringSnapshot(9).orElseThrow();
            for (String region : List.of("eu", "us")) {
                for (LocalDate day : List.of(d1, d2)) {
                    for (int bucket = 0; bucket < 2; bucket++) {
                        dev.tributary.lake.api.read.LakePredicate partition =
                                dev.tributary.lake.api.read.LakePredicate.and(
                                        dev.tributary.lake.api.read.LakePredicate.equal(
                                                "region", region),
                                        dev.tributary.lake.api.read.LakePredicate.equal("dt", day));
                        List<Row> rows = new ArrayList<>();
                        try (dev.tributary.lake.api.read.LakeRowCursor c =
                                reader.read(
                                        new dev.tributary.lake.api.read.LakeReadRequest(
                                                s.snapshotId(),
                                                table,
                                                bucket,
                                                new int[] {0, 1, 2},
                                                partition,
                                                1))) {
                            while (c.next()) {
                                assertThat(c.bucket()).isEqualTo(bucket);
                                assertThat(c.offset()).isGreaterThanOrEqualTo(1);
                                rows.add(c.row());
                            }
                        }
                        assertThat(rows)
                                .as("region=%s/dt=%s bucket %d", region, day, bucket)
                                .containsExactlyInAnyOrderElementsOf(
                                        splits
                                                .get(
                                                        "region=" + region + "/dt=" + day + "#"
                                                                + bucket)
                                                .stream()
                                                .filter(r -> r.offset() >= 1)
                                                .map(Rec::row)
                                                .toList());
                    }
                }
            }
        }
    }

    @Test
    void T8_keysWithDateAndTimestampColumnsAreRetractedWithinTheirSplit() throws Exception {
        // a key of a DATE (partition) column and a TIMESTAMP: a format that compares keys in its
        // own representation must still find a key written earlier in the same split
        TablePath path = TablePath.of("db", "visits");
        TableDescriptor table =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT())
                                        .column("dt", DataTypes.DATE())
                                        .column("at", DataTypes.TIMESTAMP(3))
                                        .column("amount", DataTypes.INT())
                                        .primaryKey("id", "dt", "at")
                                        .build())
                        .partitionKeys("dt")
                        .bucketCount(1)
                        .build();
        storage.catalog().createTable(path, table);
        java.time.LocalDate day = java.time.LocalDate.of(2026, 12, 1);
        java.time.LocalDateTime at = java.time.LocalDateTime.of(2026, 12, 1, 10, 0);
        long seed = new java.util.Random().nextLong();
        java.util.Random random = new java.util.Random(seed);
        Map<Long, Row> state = new TreeMap<>();
        List<Rec> records = new ArrayList<>();
        long offset = 0;
        for (int i = 0; i < 400; i++) {
            long id = random.nextInt(60);
            Row now = Row.of(id, day, at, random.nextInt(100));
            Row old = state.get(id);
            if (old == null) {
                records.add(new Rec(now, ChangeType.INSERT, offset++));
                state.put(id, lakeRow(now, 0, offset - 1));
            } else if (random.nextInt(8) == 0) {
                records.add(new Rec(userRow(old), ChangeType.DELETE, offset++));
                state.remove(id);
            } else {
                records.add(new Rec(userRow(old), ChangeType.UPDATE_BEFORE, offset++));
                records.add(new Rec(now, ChangeType.UPDATE_AFTER, offset++));
                state.put(id, lakeRow(now, 0, offset - 1));
            }
        }
        commit(
                path,
                List.of(writePartitionSplit(path, table, 4, 1, 1, 20, "dt=2026-12-01", 0, records)),
                4,
                1,
                1,
                Map.of());
        assertThat(readWithFormatReader(path))
                .as("seed %s", seed)
                .containsExactlyInAnyOrderElementsOf(state.values());
    }

    private static Row userRow(Row lake) {
        Object[] f = new Object[lake.arity() - 3];
        for (int i = 0; i < f.length; i++) {
            f[i] = lake.getField(i);
        }
        return Row.wrap(f);
    }

    @Test
    void t32_aLakeTablePartitionedOtherwiseIsAMismatch() {
        TablePath path = TablePath.of("db", "events");
        TableDescriptor unpartitioned = logTable(2);
        storage.catalog().createTable(path, unpartitioned);
        TableDescriptor partitioned =
                TableDescriptor.builder(unpartitioned.schema())
                        .partitionKeys("name")
                        .bucketCount(2)
                        .build();
        assertThatThrownBy(() -> storage.catalog().validateTable(path, partitioned))
                .isInstanceOf(dev.tributary.lake.api.catalog.LakeTableMismatchException.class)
                .hasMessageContaining("partitioned by");
    }

    @Test
    void T8_aLaterRoundWinsOverAnEarlierOneWhateverTheRecordPositions() throws Exception {
        TablePath path = TablePath.of("db", "order");
        TableDescriptor table = pkTable(1);
        storage.catalog().createTable(path, table);
        // round 1: the key of interest is the LAST of many records
        List<Rec> r1 = new ArrayList<>();
        for (int k = 2; k <= 50; k++) {
            r1.add(new Rec(Row.of(k, "k" + k, (long) k), ChangeType.INSERT, k - 2));
        }
        r1.add(new Rec(Row.of(1, "old", 1L), ChangeType.INSERT, 49));
        commit(path, List.of(writeSplit(path, table, 1, 1, 1, 0, r1)), 1, 1, 1, Map.of(0, 50L));
        // round 2: its FIRST records update that key
        List<Rec> r2 =
                List.of(
                        new Rec(Row.of(1, "old", 1L), ChangeType.UPDATE_BEFORE, 50),
                        new Rec(Row.of(1, "new", 2L), ChangeType.UPDATE_AFTER, 51));
        commit(path, List.of(writeSplit(path, table, 1, 2, 2, 0, r2)), 1, 2, 2, Map.of(0, 52L));
        List<Row> rows = readWithFormatReader(path);
        assertThat(rows).hasSize(50);
        assertThat(rows).contains(lakeRow(Row.of(1, "new", 2L), 0, 51));
    }

    @Test
    void T21_snapshotPropertiesRoundTripAndRetriedCommitsDoNotDuplicate() throws Exception {
        TablePath path = TablePath.of("db", "props");
        TableDescriptor table = logTable(2);
        storage.catalog().createTable(path, table);
        try (LakeCommitter c = storage.createCommitter(path)) {
            assertThat(c.latestTieringSnapshot()).isEmpty();

            LakeWriteResult r1 = writeSplit(path, table, 5, 4, 9, 0, appends(0, Row.of(1L, "a")));
            TieringSnapshotProperties p1 =
                    new TieringSnapshotProperties(
                            5,
                            4,
                            9,
                            "tiering-test",
                            new TreeMap<>(Map.of(0, 1L, 1, 0L)),
                            1_234,
                            Map.of("job", "j1"));
            LakeCommitResult first = c.commit(List.of(r1), p1);
            assertThat(first.outcome()).isEqualTo(LakeCommitResult.Outcome.COMMITTED);
            Optional<LakeSnapshot> s1 = c.latestTieringSnapshot();
            assertThat(s1).isPresent();
            assertThat(s1.get().snapshotId()).isEqualTo(first.snapshotId());
            assertThat(s1.get().properties()).isEqualTo(p1);

            // the same round committed again (a retry after a lost reply) is a no-op
            LakeCommitResult retry = c.commit(List.of(r1), p1);
            assertThat(retry.outcome()).isEqualTo(LakeCommitResult.Outcome.ALREADY_COMMITTED);
            assertThat(retry.snapshotId()).isEqualTo(first.snapshotId());
            assertThat(readWithFormatReader(path)).hasSize(1);

            LakeWriteResult r2 = writeSplit(path, table, 5, 5, 10, 1, appends(0, Row.of(2L, "b")));
            TieringSnapshotProperties p2 =
                    new TieringSnapshotProperties(
                            5,
                            5,
                            10,
                            "tiering-test",
                            new TreeMap<>(Map.of(0, 1L, 1, 1L)),
                            -1,
                            Map.of());
            LakeCommitResult second = c.commit(List.of(r2), p2);
            assertThat(c.latestTieringSnapshot().orElseThrow().properties()).isEqualTo(p2);
            assertThat(c.latestTieringSnapshot().orElseThrow().snapshotId())
                    .isEqualTo(second.snapshotId());
            assertThat(readWithFormatReader(path)).hasSize(2);
        }
    }

    /**
     * A coordinator paused in the middle of a commit wakes after its successor reconciled with the
     * lake: whichever of the two rounds lands second was planned on a round that is no longer the
     * newest, and is refused; a refused round leaves nothing behind once aborted.
     */
    @Test
    void T19_T49_aRoundPlannedOnAnOlderRoundThanTheLakesNewestIsRefusedEitherWay()
            throws Exception {
        TablePath path = TablePath.of("db", "fenced");
        TableDescriptor table = logTable(1);
        storage.catalog().createTable(path, table);
        try (LakeCommitter c = storage.createCommitter(path)) {
            assertThat(fencedCommit(c, path, table, 1, 1, 0, TieredRound.NONE).outcome())
                    .isEqualTo(LakeCommitResult.Outcome.COMMITTED);
            TieredRound round1 = new TieredRound(1, 1);
            // the old coordinator's round 2 lands late; its successor planned round 3 on round 1
            assertThat(fencedCommit(c, path, table, 2, 2, 1, round1).outcome())
                    .isEqualTo(LakeCommitResult.Outcome.COMMITTED);
            assertThatThrownBy(() -> fencedCommit(c, path, table, 3, 3, 1, round1))
                    .isInstanceOf(FencedException.class)
                    .hasMessageContaining("holds round 2 (epoch 2)");
            c.abort(List.of(lastFencedWrite));
            // the other order: the successor's round 4 lands first, then the woken one's round
            TieredRound round2 = new TieredRound(2, 2);
            assertThat(fencedCommit(c, path, table, 4, 4, 2, round2).outcome())
                    .isEqualTo(LakeCommitResult.Outcome.COMMITTED);
            assertThatThrownBy(() -> fencedCommit(c, path, table, 3, 5, 2, round2))
                    .isInstanceOf(FencedException.class)
                    .hasMessageContaining("holds round 4 (epoch 4)");
            c.abort(List.of(lastFencedWrite));
            // a record naming a round that wrote nothing (T27), newer than the lake's: no refusal
            assertThat(fencedCommit(c, path, table, 6, 7, 3, new TieredRound(5, 6)).outcome())
                    .isEqualTo(LakeCommitResult.Outcome.COMMITTED);
            assertThat(c.latestTieringSnapshot().orElseThrow().properties().roundId()).isEqualTo(7);
        }
        assertThat(readWithFormatReader(path))
                .extracting(r -> r.getField(0))
                .containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
        assertThat(dataFilesOnDisk(path)).hasSize(4);
    }

    private LakeWriteResult lastFencedWrite;

    /**
     * Writes one row at {@code offset} as round {@code round} of table 8 (kept in {@link
     * #lastFencedWrite}) and commits it built on {@code base}.
     */
    private LakeCommitResult fencedCommit(
            LakeCommitter c,
            TablePath path,
            TableDescriptor table,
            long epoch,
            long round,
            long offset,
            TieredRound base) {
        lastFencedWrite =
                writeSplit(path, table, 8, epoch, round, 0, appends(offset, Row.of(offset, "r")));
        return c.commit(
                List.of(lastFencedWrite),
                TieringSnapshotProperties.of(8, epoch, round, Map.of(0, offset + 1)),
                base);
    }

    @Test
    void T27_emptyRoundWritesNoSnapshot() throws Exception {
        TablePath path = TablePath.of("db", "quiet");
        TableDescriptor table = logTable(1);
        storage.catalog().createTable(path, table);
        LakeCommitResult c1 =
                commit(
                        path,
                        List.of(writeSplit(path, table, 1, 1, 1, 0, appends(0, Row.of(1L, "a")))),
                        1,
                        1,
                        1,
                        Map.of(0, 1L));
        LakeWriteResult empty = writeSplit(path, table, 1, 2, 2, 0, List.of());
        assertThat(empty.isEmpty()).isTrue();
        assertThat(empty.rowCount()).isZero();
        try (LakeCommitter c = storage.createCommitter(path)) {
            TieringSnapshotProperties p2 = TieringSnapshotProperties.of(1, 2, 2, Map.of(0, 1L));
            assertThat(c.commit(List.of(), p2).outcome())
                    .isEqualTo(LakeCommitResult.Outcome.NOTHING_TO_COMMIT);
            assertThat(c.commit(List.of(empty), p2).snapshot()).isEmpty();
            assertThat(c.latestTieringSnapshot().orElseThrow().snapshotId())
                    .isEqualTo(c1.snapshotId());
            assertThat(c.latestTieringSnapshot().orElseThrow().properties().epoch()).isEqualTo(1);
        }
    }

    @Test
    void abortedRoundLeavesNoVisibleRowsAndNoFiles() throws Exception {
        TablePath path = TablePath.of("db", "aborted");
        TableDescriptor table = pkTable(2);
        storage.catalog().createTable(path, table);
        List<LakeWriteResult> round =
                List.of(
                        writeSplit(
                                path,
                                table,
                                1,
                                1,
                                1,
                                0,
                                List.of(new Rec(Row.of(1, "a", 1L), ChangeType.INSERT, 0))),
                        writeSplit(
                                path,
                                table,
                                1,
                                1,
                                1,
                                1,
                                List.of(new Rec(Row.of(2, "b", 2L), ChangeType.INSERT, 0))));
        assertThat(dataFilesOnDisk(path)).isNotEmpty();
        try (LakeCommitter c = storage.createCommitter(path)) {
            c.abort(round);
            assertThat(c.latestTieringSnapshot()).isEmpty();
        }
        assertThat(dataFilesOnDisk(path)).isEmpty();
        assertThat(readWithFormatReader(path)).isEmpty();

        // a writer aborted before completing deletes what it flushed too
        try (LakeWriter w = storage.createWriter(new LakeWriterContext(path, 1, table, 0, 2, 2))) {
            w.write(Row.of(3, "c", 3L), ChangeType.INSERT, 0, 1, BASE_TS);
            w.abort();
        }
        assertThat(dataFilesOnDisk(path)).isEmpty();
        // so does one closed while still open (a failed split)
        try (LakeWriter w = storage.createWriter(new LakeWriterContext(path, 1, table, 1, 2, 2))) {
            for (int i = 0; i < 100; i++) {
                w.write(Row.of(10 + i, "d", 4L), ChangeType.INSERT, 1, i, BASE_TS);
            }
        }
        assertThat(dataFilesOnDisk(path)).isEmpty();
        assertThat(readWithFormatReader(path)).isEmpty();
    }

    @Test
    void T23_orphanCleanupDeletesUnreferencedFilesAndKeepsReferencedOnes() throws Exception {
        TablePath path = TablePath.of("db", "orphans");
        TableDescriptor table = logTable(1);
        storage.catalog().createTable(path, table);
        commit(
                path,
                List.of(writeSplit(path, table, 1, 1, 1, 0, appends(0, Row.of(1L, "kept")))),
                1,
                1,
                1,
                Map.of(0, 1L));
        List<Path> committedFiles = dataFilesOnDisk(path);
        // an attempt that crashed after writing, never committed nor aborted
        LakeWriteResult crashed =
                writeSplit(path, table, 1, 2, 2, 0, appends(1, Row.of(2L, "lost")));
        List<String> crashedFiles = crashed.files();
        assertThat(crashedFiles).isNotEmpty();

        try (LakeCommitter c = storage.createCommitter(path)) {
            // within the grace period nothing is an orphan
            assertThat(c.listOrphanFiles(OrphanPolicy.olderThan(Instant.EPOCH))).isEmpty();
            OrphanPolicy graceOver = OrphanPolicy.olderThan(Instant.parse("2999-01-01T00:00:00Z"));
            List<String> orphans = c.listOrphanFiles(graceOver);
            assertThat(names(orphans)).containsAll(names(crashedFiles));
            assertThat(names(orphans))
                    .doesNotContainAnyElementsOf(
                            committedFiles.stream().map(p -> p.getFileName().toString()).toList());
            assertThat(dataFilesOnDisk(path)).hasSize(committedFiles.size() + crashedFiles.size());

            assertThat(names(c.deleteOrphanFiles(graceOver))).containsAll(names(crashedFiles));
            assertThat(dataFilesOnDisk(path)).containsExactlyInAnyOrderElementsOf(committedFiles);
            assertThat(c.listOrphanFiles(graceOver)).isEmpty();
        }
        assertThat(readWithFormatReader(path)).containsExactly(lakeRow(Row.of(1L, "kept"), 0, 0));
    }

    @Test
    void T23_filesOfDeadAttemptsGoAtOnceWhileOtherWritersFilesWaitForTheGracePeriod()
            throws Exception {
        TablePath path = TablePath.of("db", "dead");
        TableDescriptor table = logTable(1);
        storage.catalog().createTable(path, table);
        commit(
                path,
                List.of(writeSplit(path, table, 1, 3, 1, 0, appends(0, Row.of(1L, "kept")))),
                1,
                3,
                1,
                Map.of(0, 1L));
        List<Path> committedFiles = dataFilesOnDisk(path);
        // a killed attempt of the same table, then files of another writer (table id 99)
        List<String> killed =
                writeSplit(path, table, 1, 2, 2, 0, appends(1, Row.of(2L, "lost"))).files();
        List<String> killedLater =
                writeSplit(path, table, 1, 4, 2, 0, appends(1, Row.of(3L, "lost"))).files();
        List<String> foreign =
                writeSplit(path, table, 99, 1, 1, 0, appends(1, Row.of(4L, "other"))).files();
        assertThat(names(killed)).allMatch(n -> n.contains(AttemptFileNames.tag(1, 2)));

        try (LakeCommitter c = storage.createCommitter(path)) {
            // epoch 3 committed: attempts up to 3 are dead, epoch 4 may still be running
            List<String> orphans = c.listOrphanFiles(new OrphanPolicy(Instant.EPOCH, 1, 3));
            assertThat(names(orphans)).containsExactlyInAnyOrderElementsOf(names(killed));

            assertThat(names(c.deleteOrphanFiles(new OrphanPolicy(Instant.EPOCH, 1, 4))))
                    .containsExactlyInAnyOrderElementsOf(concat(names(killed), names(killedLater)));
            assertThat(names(dataFilesOnDisk(path).stream().map(Path::toString).toList()))
                    .containsExactlyInAnyOrderElementsOf(
                            concat(
                                    names(committedFiles.stream().map(Path::toString).toList()),
                                    names(foreign)));
        }
        assertThat(readWithFormatReader(path)).containsExactly(lakeRow(Row.of(1L, "kept"), 0, 0));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static List<String> names(List<String> paths) {
        return paths.stream().map(p -> p.substring(p.lastIndexOf('/') + 1)).toList();
    }

    @Test
    void addColumnKeepsOldDataReadable() throws Exception {
        TablePath path = TablePath.of("db", "evolving");
        TableDescriptor v1 = pkTable(1);
        storage.catalog().createTable(path, v1);
        commit(
                path,
                List.of(
                        writeSplit(
                                path,
                                v1,
                                1,
                                1,
                                1,
                                0,
                                List.of(
                                        new Rec(Row.of(1, "a", 1L), ChangeType.INSERT, 0),
                                        new Rec(Row.of(2, "b", 2L), ChangeType.INSERT, 1)))),
                1,
                1,
                1,
                Map.of(0, 2L));

        TableDescriptor v2 =
                v1.withSchema(v1.schema().addColumn(new Column("email", DataTypes.STRING())));
        storage.catalog().alterTable(path, v2);
        storage.catalog().alterTable(path, v2); // idempotent
        storage.catalog().validateTable(path, v2);
        assertThat(storage.catalog().describeTable(path).schema().columnNames())
                .containsExactly(
                        "id", "name", "score", "email", "__bucket", "__offset", "__timestamp");

        // round 2: a new-schema row, and an old-schema (narrower) row written before the alter
        commit(
                path,
                List.of(
                        writeSplit(
                                path,
                                v2,
                                1,
                                2,
                                2,
                                0,
                                List.of(
                                        new Rec(Row.of(3, "c", 3L), ChangeType.INSERT, 2),
                                        new Rec(
                                                Row.of(1, "a2", 4L, "a@x"),
                                                ChangeType.UPDATE_AFTER,
                                                3)))),
                1,
                2,
                2,
                Map.of(0, 4L));
        assertThat(readWithFormatReader(path))
                .containsExactlyInAnyOrder(
                        lakeRow(Row.of(1, "a2", 4L, "a@x"), 0, 3),
                        lakeRow(Row.of(2, "b", 2L, null), 0, 1),
                        lakeRow(Row.of(3, "c", 3L, null), 0, 2));
    }

    @Test
    void schemaChangedOutsideTributaryIsDetectedWithATypedError() throws Exception {
        TablePath path = TablePath.of("db", "tampered");
        TableDescriptor table =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT())
                                        .column("qty", DataTypes.INT())
                                        .primaryKey("id")
                                        .build())
                        .build();
        storage.catalog().createTable(path, table);
        widenIntColumnOutsideTributary(path, "qty");

        assertThatThrownBy(() -> storage.catalog().validateTable(path, table))
                .isInstanceOf(LakeTableMismatchException.class)
                .hasMessageContaining("'db.tampered'")
                .hasMessageContaining("'qty'")
                .hasMessageContaining("Restore the lake table");
        assertThatThrownBy(
                        () -> storage.createWriter(new LakeWriterContext(path, 1, table, 0, 1, 1)))
                .isInstanceOf(LakeTableMismatchException.class)
                .hasMessageContaining("'db.tampered'");
        assertThatThrownBy(() -> storage.catalog().createTable(path, table))
                .isInstanceOf(LakeTableMismatchException.class);
        assertThatThrownBy(() -> storage.catalog().alterTable(path, table))
                .isInstanceOf(LakeTableMismatchException.class);

        // dropping lets Tributary re-create it
        assertThat(storage.catalog().dropTable(path)).isTrue();
        assertThat(storage.catalog().dropTable(path)).isFalse();
        storage.catalog().createTable(path, table);
        storage.catalog().validateTable(path, table);
    }

    @Test
    void badRecordsAndForeignResultsAreRejected() {
        TablePath path = TablePath.of("db", "strict");
        TableDescriptor table = logTable(1);
        storage.catalog().createTable(path, table);
        try (LakeWriter w = storage.createWriter(new LakeWriterContext(path, 1, table, 0, 1, 1))) {
            assertThatThrownBy(() -> w.write(Row.of(1L, "a"), ChangeType.DELETE, 0, 0, BASE_TS))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("-D");
            assertThatThrownBy(
                            () ->
                                    w.write(
                                            Row.of(1L, "a", "extra"),
                                            ChangeType.APPEND_ONLY,
                                            0,
                                            0,
                                            BASE_TS))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("3 fields");
            RowCodec wider =
                    RowCodec.of(table.schema().addColumn(new Column("extra", DataTypes.STRING())));
            byte[] bytes = wider.encode(Row.of(1L, "a", "extra"));
            EncodedRow view = wider.view().pointTo(bytes, 0, bytes.length);
            assertThatThrownBy(() -> w.write(view, ChangeType.APPEND_ONLY, 0, 0, BASE_TS))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("3 fields");
            w.abort();
        }
        LakeWriteResult r = writeSplit(path, table, 1, 1, 1, 0, appends(0, Row.of(1L, "a")));
        try (LakeCommitter c = storage.createCommitter(path)) {
            assertThatThrownBy(
                            () ->
                                    c.commit(
                                            List.of(r),
                                            TieringSnapshotProperties.of(1, 2, 1, Map.of())))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("T20");
            c.abort(List.of(r));
        }
    }

    // ---------------------------------------------------------------- lake layout (T36, T37)

    /**
     * Live data files (delete files not counted) per lake bucket, as the format's own planner lists
     * them for a full scan: the Paimon bucket, or the Iceberg {@code bucket[N]} partition value.
     */
    protected abstract Map<Integer, Integer> liveDataFilesPerLakeBucket(TablePath path)
            throws Exception;

    /**
     * The data files, per lake bucket, that the format's own planner opens for a scan filtered by
     * {@code column = value} (a Tributary value).
     */
    protected abstract Map<Integer, Integer> dataFilesPlannedFor(
            TablePath path, String column, Object value) throws Exception;

    private TableDescriptor withFunction(TableDescriptor table, BucketFunctionType type) {
        return TableDescriptor.builder(table.schema())
                .bucketCount(table.bucketCount())
                .bucketKeys(table.bucketKeys())
                .property(TableOptions.BUCKET_FUNCTION.key(), type.value())
                .build();
    }

    /** One split per store bucket of the rows, in the order given, as the tiering job cuts them. */
    private Map<Integer, List<Rec>> splitsByStoreBucket(
            BucketFunction storeFunction,
            List<Row> rows,
            List<ChangeType> types,
            Map<Integer, Long> nextOffsets) {
        Map<Integer, List<Rec>> splits = new TreeMap<>();
        for (int i = 0; i < rows.size(); i++) {
            int b = storeFunction.bucketOf(rows.get(i));
            long offset = nextOffsets.merge(b, 1L, Long::sum) - 1;
            splits.computeIfAbsent(b, x -> new ArrayList<>())
                    .add(new Rec(rows.get(i), types.get(i), offset));
        }
        return splits;
    }

    private void writeRound(
            TablePath path,
            TableDescriptor table,
            long round,
            Map<Integer, List<Rec>> splits,
            Map<Integer, Long> offsets) {
        List<LakeWriteResult> results = new ArrayList<>();
        splits.forEach(
                (bucket, recs) ->
                        results.add(writeSplit(path, table, 5, round, round, bucket, recs)));
        LakeCommitResult c = commit(path, results, 5, round, round, new TreeMap<>(offsets));
        assertThat(c.outcome()).isEqualTo(LakeCommitResult.Outcome.COMMITTED);
    }

    private List<Row> userRows(TablePath path, int userColumns) throws Exception {
        List<Row> out = new ArrayList<>();
        for (Row r : readWithFormatReader(path)) {
            Object[] f = new Object[userColumns];
            for (int i = 0; i < userColumns; i++) {
                f[i] = r.getField(i);
            }
            out.add(Row.wrap(f));
        }
        return out;
    }

    @Test
    void t36_t37_pkRoundsOfALakeAlignedTableWriteOneDataFilePerBucketAndKeyFiltersPrune()
            throws Exception {
        TablePath path = TablePath.of("db", "customers");
        TableDescriptor table =
                withFunction(pkTable(12), BucketFunctionType.forLakeFormat(format()));
        storage.catalog().createTable(path, table);
        BucketFunction store = BucketFunction.of(table);
        Map<Integer, Long> offsets = new TreeMap<>();
        Map<Integer, Row> expected = new TreeMap<>();

        // round 1: 600 new keys, every store bucket has some
        List<Row> rows = new ArrayList<>();
        List<ChangeType> types = new ArrayList<>();
        for (int k = 0; k < 600; k++) {
            Row r = Row.of(k, "c" + k, (long) k);
            rows.add(r);
            types.add(ChangeType.INSERT);
            expected.put(k, r);
        }
        Map<Integer, List<Rec>> round1 = splitsByStoreBucket(store, rows, types, offsets);
        assertThat(round1).hasSize(12);
        writeRound(path, table, 1, round1, offsets);
        Map<Integer, Integer> oneEach = new TreeMap<>();
        round1.keySet().forEach(b -> oneEach.put(b, 1));
        assertThat(liveDataFilesPerLakeBucket(path))
                .as("T36: a split writes exactly its own lake bucket: one file per bucket")
                .isEqualTo(oneEach);

        // round 2: updates and deletes in the even store buckets only
        rows.clear();
        types.clear();
        for (int k = 0; k < 600; k++) {
            Row old = expected.get(k);
            if (store.bucketOf(old) % 2 != 0 || k % 3 != 0) {
                continue;
            }
            rows.add(old);
            if (k % 7 == 0) {
                types.add(ChangeType.DELETE);
                expected.remove(k);
            } else {
                Row updated = Row.of(k, "updated" + k, -(long) k);
                types.add(ChangeType.UPDATE_BEFORE);
                rows.add(updated);
                types.add(ChangeType.UPDATE_AFTER);
                expected.put(k, updated);
            }
        }
        Map<Integer, List<Rec>> round2 = splitsByStoreBucket(store, rows, types, offsets);
        writeRound(path, table, 2, round2, offsets);
        Map<Integer, Integer> files = liveDataFilesPerLakeBucket(path);
        Map<Integer, Integer> expectedFiles = new TreeMap<>();
        round1.keySet().forEach(b -> expectedFiles.put(b, round2.containsKey(b) ? 2 : 1));
        assertThat(files)
                .as(
                        "T36: a round adds one data file to each bucket it has data for, none elsewhere")
                .isEqualTo(expectedFiles);
        assertThat(userRows(path, 3)).containsExactlyInAnyOrderElementsOf(expected.values());

        // T37: an equality filter on the key opens only the key's bucket
        for (int k = 0; k < 600; k += 37) {
            int bucket = store.bucketOf(Row.of(k, null, null));
            Map<Integer, Integer> planned = dataFilesPlannedFor(path, "id", k);
            assertThat(planned.keySet()).as("T37: key %s", k).containsExactly(bucket);
            assertThat(planned.get(bucket)).isBetween(1, files.get(bucket));
        }
    }

    @Test
    void t36_t37_aLogTableWithABucketKeyIsLaidOutByBucketToo() throws Exception {
        TablePath path = TablePath.of("db", "clicks");
        TableDescriptor table =
                withFunction(
                        TableDescriptor.builder(logTable(8).schema())
                                .bucketCount(8)
                                .bucketKeys("id")
                                .build(),
                        BucketFunctionType.forLakeFormat(format()));
        storage.catalog().createTable(path, table);
        BucketFunction store = BucketFunction.of(table);
        List<Row> rows = new ArrayList<>();
        List<ChangeType> types = new ArrayList<>();
        for (long id = -200; id < 200; id++) {
            rows.add(Row.of(id * 7919, "click" + id));
            types.add(ChangeType.APPEND_ONLY);
        }
        Map<Integer, Long> offsets = new TreeMap<>();
        Map<Integer, List<Rec>> splits = splitsByStoreBucket(store, rows, types, offsets);
        assertThat(splits).hasSize(8);
        writeRound(path, table, 1, splits, offsets);
        Map<Integer, Integer> oneEach = new TreeMap<>();
        splits.keySet().forEach(b -> oneEach.put(b, 1));
        assertThat(liveDataFilesPerLakeBucket(path)).isEqualTo(oneEach);
        assertThat(userRows(path, 2)).containsExactlyInAnyOrderElementsOf(rows);
        for (Row r : rows.subList(0, 20)) {
            assertThat(dataFilesPlannedFor(path, "id", r.getField(0)))
                    .as("T37: key %s", r.getField(0))
                    .isEqualTo(Map.of(store.bucketOf(r), 1));
        }
    }

    @Test
    void t36_aTableWithTributarysHashStillTiersCorrectlyButFansOut() throws Exception {
        TablePath path = TablePath.of("db", "legacy");
        // created before T36: no property, Tributary's own hash
        TableDescriptor table = pkTable(12);
        storage.catalog().createTable(path, table);
        BucketFunction store = BucketFunction.of(table);
        assertThat(store.type()).isEqualTo(BucketFunctionType.TRIBUTARY);
        BucketFunction lake =
                BucketFunction.of(
                        BucketFunctionType.forLakeFormat(format()),
                        table.schema(),
                        table.bucketKeys(),
                        12);
        List<Row> rows = new ArrayList<>();
        List<ChangeType> types = new ArrayList<>();
        for (int k = 0; k < 600; k++) {
            rows.add(Row.of(k, "c" + k, (long) k));
            types.add(ChangeType.INSERT);
        }
        Map<Integer, Long> offsets = new TreeMap<>();
        writeRound(path, table, 1, splitsByStoreBucket(store, rows, types, offsets), offsets);
        Map<Integer, Integer> files = liveDataFilesPerLakeBucket(path);
        int total = files.values().stream().mapToInt(Integer::intValue).sum();
        // the issue's numbers: 12 splits x 12 lake buckets
        assertThat(total).as("fan-out: splits write into many lake buckets").isGreaterThan(100);
        assertThat(userRows(path, 3)).containsExactlyInAnyOrderElementsOf(rows);
        // the lake is still laid out by its own function: filters still prune
        for (int k = 0; k < 600; k += 61) {
            assertThat(dataFilesPlannedFor(path, "id", k).keySet())
                    .containsExactly(lake.bucketOf(Row.of(k, null, null)));
        }
    }

    protected static Configuration warehouseConfig(Path warehouse) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("warehouse", warehouse.toString());
        return Configuration.fromMap(m);
    }
}

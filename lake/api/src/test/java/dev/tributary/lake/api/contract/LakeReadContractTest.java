package dev.tributary.lake.api.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.catalog.LakeSystemColumns;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.LakeSnapshot;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.read.LakePredicate;
import dev.tributary.lake.api.read.LakeReadRequest;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.read.LakeRowCursor;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read half of the lake SPI (T40), the same for every format: time travel to a tiering
 * snapshot, one bucket at a time, projection, exact filters, merged primary-key rows. A format
 * module extends this class and supplies its storage; the tables are written through the format's
 * own {@link LakeWriter} and committed as tiering rounds, as in production.
 */
public abstract class LakeReadContractTest {
    private static final long BASE_TS = 1_764_000_000_000L;
    private static final long TABLE_ID = 7;

    @TempDir protected Path warehouse;
    protected LakeStorage storage;
    private final long seed = new Random().nextLong();
    private final Random random = new Random(seed);

    /** Opens the format's storage on a fresh local warehouse. */
    protected abstract LakeStorage createStorage(Path warehouse);

    /** The plugin identifier, which is also the aligned bucket function's name. */
    protected abstract String format();

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

    private TableDescriptor logTable(int buckets) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT())
                                .column("name", DataTypes.STRING())
                                .column("amount", DataTypes.INT())
                                .build())
                .bucketCount(buckets)
                .bucketKeys("id")
                .property(TableOptions.BUCKET_FUNCTION.key(), format())
                .build();
    }

    private TableDescriptor pkTable(int buckets) {
        return TableDescriptor.builder(
                        Schema.newBuilder()
                                .column("id", DataTypes.INT())
                                .column("name", DataTypes.STRING())
                                .column("score", DataTypes.BIGINT())
                                .primaryKey("id")
                                .build())
                .bucketCount(buckets)
                .property(TableOptions.BUCKET_FUNCTION.key(), format())
                .build();
    }

    private record Rec(Row row, ChangeType type, long offset) {}

    /**
     * Writes one round: each record to its bucket (by the table's function), one split per bucket,
     * committed as one tiering snapshot with the given offsets.
     */
    private LakeSnapshot round(
            TablePath path,
            TableDescriptor table,
            long epoch,
            Map<Integer, List<Rec>> byBucket,
            Map<Integer, Long> offsets) {
        List<LakeWriteResult> results = new ArrayList<>();
        for (Map.Entry<Integer, List<Rec>> e : byBucket.entrySet()) {
            try (LakeWriter w =
                    storage.createWriter(
                            new LakeWriterContext(
                                    path, TABLE_ID, table, e.getKey(), epoch, epoch))) {
                for (Rec r : e.getValue()) {
                    w.write(r.row(), r.type(), e.getKey(), r.offset(), BASE_TS + r.offset());
                }
                results.add(w.complete());
            }
        }
        try (LakeCommitter c = storage.createCommitter(path)) {
            LakeCommitResult res =
                    c.commit(
                            results, TieringSnapshotProperties.of(TABLE_ID, epoch, epoch, offsets));
            assertThat(res.outcome()).isEqualTo(LakeCommitResult.Outcome.COMMITTED);
            return c.latestTieringSnapshot(TABLE_ID).orElseThrow();
        }
    }

    private static List<Row> read(LakeReader reader, LakeReadRequest req) {
        List<Row> out = new ArrayList<>();
        try (LakeRowCursor c = reader.read(req)) {
            while (c.next()) {
                assertThat(c.bucket()).isEqualTo(req.bucket());
                assertThat(c.timestampMillis()).isEqualTo(BASE_TS + c.offset());
                Object[] f = new Object[c.row().arity() + 1];
                for (int i = 0; i < c.row().arity(); i++) {
                    f[i] = c.row().getField(i);
                }
                f[f.length - 1] = c.offset();
                out.add(Row.wrap(f));
            }
        }
        return out;
    }

    /** Generated log rows, placed in buckets by the table's function, offsets per bucket. */
    private Map<Integer, List<Rec>> logRows(TableDescriptor t, int n, Map<Integer, Long> next) {
        BucketFunction f = BucketFunction.of(t);
        Map<Integer, List<Rec>> out = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            long id = random.nextInt(1_000_000);
            Row row =
                    Row.of(
                            id,
                            random.nextInt(5) == 0 ? null : "n" + random.nextInt(50),
                            random.nextInt(5) == 0 ? null : random.nextInt(1000));
            int b = f.bucketOf(row);
            long off = next.merge(b, 1L, Long::sum) - 1;
            out.computeIfAbsent(b, x -> new ArrayList<>())
                    .add(new Rec(row, ChangeType.APPEND_ONLY, off));
        }
        return out;
    }

    @Test
    void t40_readsOneBucketAsOfATieringSnapshotExactly() {
        TablePath path = TablePath.of("db", "events");
        TableDescriptor t = logTable(3);
        storage.catalog().createTable(path, t);
        Map<Integer, Long> next = new TreeMap<>();
        Map<Integer, List<Rec>> first = logRows(t, 300, next);
        LakeSnapshot s1 = round(path, t, 1, first, next);
        Map<Integer, List<Rec>> second = logRows(t, 300, next);
        LakeSnapshot s2 = round(path, t, 2, second, next);
        assertThat(s2.properties().bucketOffsets()).isEqualTo(next);

        try (LakeReader reader = storage.createReader(path)) {
            assertThat(reader.latestTieringSnapshot(TABLE_ID)).contains(s2);
            assertThat(reader.latestTieringSnapshot(TABLE_ID + 1)).isEmpty();
            for (int b = 0; b < 3; b++) {
                List<Row> atS1 = read(reader, LakeReadRequest.all(s1.snapshotId(), t, b));
                assertThat(atS1)
                        .as("bucket %d as of the first round (seed %d)", b, seed)
                        .containsExactlyInAnyOrderElementsOf(withOffsets(first.get(b)));
                List<Rec> both = new ArrayList<>(first.getOrDefault(b, List.of()));
                both.addAll(second.getOrDefault(b, List.of()));
                assertThat(read(reader, LakeReadRequest.all(s2.snapshotId(), t, b)))
                        .as("bucket %d as of the second round (seed %d)", b, seed)
                        .containsExactlyInAnyOrderElementsOf(withOffsets(both));
            }
        }
    }

    @Test
    void t40_projectionFilterAndMinOffsetAreExact() {
        TablePath path = TablePath.of("db", "filtered");
        TableDescriptor t = logTable(2);
        storage.catalog().createTable(path, t);
        Map<Integer, Long> next = new TreeMap<>();
        Map<Integer, List<Rec>> rows = logRows(t, 400, next);
        LakeSnapshot s = round(path, t, 1, rows, next);
        List<LakePredicate> filters =
                List.of(
                        LakePredicate.compare("amount", LakePredicate.Op.LT, 300),
                        LakePredicate.compare("amount", LakePredicate.Op.GT_EQ, 300L),
                        LakePredicate.isNull("name"),
                        LakePredicate.in("name", List.of("n1", "n2", "n3")),
                        LakePredicate.or(
                                List.of(
                                        LakePredicate.equal("name", "n7"),
                                        LakePredicate.compare(
                                                "amount", LakePredicate.Op.LT_EQ, 10))),
                        new LakePredicate.Not(LakePredicate.equal("name", "n4")),
                        LakePredicate.and(
                                LakePredicate.isNotNull("amount"),
                                LakePredicate.compare(
                                        LakeSystemColumns.OFFSET, LakePredicate.Op.LT, 50L)));
        int[] columns = {2, 1}; // amount, name: reordered, id dropped
        try (LakeReader reader = storage.createReader(path)) {
            for (LakePredicate filter : filters) {
                for (int b = 0; b < 2; b++) {
                    long minOffset = 1 + random.nextInt(100);
                    Predicate<Row> check = filter.bind(c -> positionInFull(c));
                    List<Row> expected = new ArrayList<>();
                    for (Rec r : rows.getOrDefault(b, List.of())) {
                        if (r.offset() >= minOffset && check.test(full(r))) {
                            expected.add(
                                    Row.of(r.row().getField(2), r.row().getField(1), r.offset()));
                        }
                    }
                    List<Row> got =
                            read(
                                    reader,
                                    new LakeReadRequest(
                                            s.snapshotId(), t, b, columns, filter, minOffset));
                    assertThat(got)
                            .as(
                                    "%s on bucket %d from offset %d (seed %d)",
                                    filter, b, minOffset, seed)
                            .containsExactlyInAnyOrderElementsOf(expected);
                }
            }
        }
    }

    @Test
    void t40_primaryKeyTablesReadOneMergedRowPerKeyAsOfEachSnapshot() {
        TablePath path = TablePath.of("db", "users");
        TableDescriptor t = pkTable(2);
        storage.catalog().createTable(path, t);
        BucketFunction f = BucketFunction.of(t);
        Map<Integer, Long> next = new TreeMap<>();
        Map<Integer, Row> state = new HashMap<>();
        List<Map<Integer, Row>> states = new ArrayList<>();
        List<LakeSnapshot> snapshots = new ArrayList<>();
        for (int epoch = 1; epoch <= 3; epoch++) {
            Map<Integer, List<Rec>> byBucket = new TreeMap<>();
            for (int i = 0; i < 150; i++) {
                int key = random.nextInt(60);
                Row row = Row.of(key, "u" + key, (long) random.nextInt(10_000));
                int b = f.bucketOf(row);
                List<Rec> recs = byBucket.computeIfAbsent(b, x -> new ArrayList<>());
                Row old = state.get(key);
                boolean delete = old != null && random.nextInt(4) == 0;
                if (delete) {
                    recs.add(new Rec(old, ChangeType.DELETE, next.merge(b, 1L, Long::sum) - 1));
                    state.remove(key);
                } else if (old != null) {
                    recs.add(
                            new Rec(
                                    old,
                                    ChangeType.UPDATE_BEFORE,
                                    next.merge(b, 1L, Long::sum) - 1));
                    recs.add(
                            new Rec(
                                    row,
                                    ChangeType.UPDATE_AFTER,
                                    next.merge(b, 1L, Long::sum) - 1));
                    state.put(key, row);
                } else {
                    recs.add(new Rec(row, ChangeType.INSERT, next.merge(b, 1L, Long::sum) - 1));
                    state.put(key, row);
                }
            }
            snapshots.add(round(path, t, epoch, byBucket, next));
            states.add(new HashMap<>(state));
        }
        try (LakeReader reader = storage.createReader(path)) {
            for (int i = 0; i < snapshots.size(); i++) {
                List<Row> got = new ArrayList<>();
                for (int b = 0; b < 2; b++) {
                    for (Row r :
                            read(
                                    reader,
                                    LakeReadRequest.all(snapshots.get(i).snapshotId(), t, b))) {
                        got.add(Row.of(r.getField(0), r.getField(1), r.getField(2)));
                        assertThat(f.bucketOf(r)).isEqualTo(b);
                    }
                }
                assertThat(got)
                        .as("state after round %d (seed %d)", i + 1, seed)
                        .containsExactlyInAnyOrderElementsOf(states.get(i).values());
            }
            // a filter on a value column sees the merged row, never an older version
            LakeSnapshot last = snapshots.get(2);
            LakePredicate high = LakePredicate.compare("score", LakePredicate.Op.GT_EQ, 5_000L);
            List<Row> got = new ArrayList<>();
            for (int b = 0; b < 2; b++) {
                for (Row r :
                        read(
                                reader,
                                new LakeReadRequest(
                                        last.snapshotId(), t, b, new int[] {0, 2}, high, 0))) {
                    got.add(Row.of(r.getField(0), r.getField(1)));
                }
            }
            assertThat(got)
                    .containsExactlyInAnyOrderElementsOf(
                            states.get(2).values().stream()
                                    .filter(r -> r.getLong(2) >= 5_000L)
                                    .map(r -> Row.of(r.getField(0), r.getField(2)))
                                    .toList());
        }
    }

    @Test
    void t40_everyTypeReadsBackAsWritten() {
        Schema schema =
                Schema.newBuilder()
                        .column("k", DataTypes.INT())
                        .column("b", DataTypes.BOOLEAN())
                        .column("ti", DataTypes.TINYINT())
                        .column("si", DataTypes.SMALLINT())
                        .column("bi", DataTypes.BIGINT())
                        .column("f", DataTypes.FLOAT())
                        .column("d", DataTypes.DOUBLE())
                        .column("dec", DataTypes.DECIMAL(10, 2))
                        .column("s", DataTypes.STRING())
                        .column("bytes", DataTypes.BYTES())
                        .column("dt", DataTypes.DATE())
                        .column("tm", DataTypes.TIME())
                        .column("ts3", DataTypes.TIMESTAMP(3))
                        .column("ts6", DataTypes.TIMESTAMP(6))
                        .column("ltz3", DataTypes.TIMESTAMP_LTZ(3))
                        .column("ltz6", DataTypes.TIMESTAMP_LTZ(6))
                        .build();
        TableDescriptor t = TableDescriptor.builder(schema).bucketCount(1).build();
        TablePath path = TablePath.of("db", "types");
        storage.catalog().createTable(path, t);
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
                        "héllo ✓",
                        new byte[] {0, 1, -1, 127},
                        LocalDate.of(2026, 11, 29),
                        LocalTime.of(23, 59, 59, 123_000_000),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_000_000),
                        LocalDateTime.of(2026, 1, 2, 3, 4, 5, 123_456_000),
                        Instant.ofEpochSecond(-1, 999_000_000),
                        Instant.ofEpochSecond(1_700_000_000L, 123_456_000));
        Row nulls = Row.wrap(new Object[schema.fieldCount()]);
        LakeSnapshot s =
                round(
                        path,
                        t,
                        1,
                        Map.of(
                                0,
                                List.of(
                                        new Rec(full, ChangeType.APPEND_ONLY, 0),
                                        new Rec(nulls, ChangeType.APPEND_ONLY, 1))),
                        Map.of(0, 2L));
        try (LakeReader reader = storage.createReader(path)) {
            assertThat(read(reader, LakeReadRequest.all(s.snapshotId(), t, 0)))
                    .containsExactlyInAnyOrder(withOffset(full, 0), withOffset(nulls, 1));
            // equality filters on every pushable type find the row
            for (int c = 0; c < schema.fieldCount(); c++) {
                LakePredicate eq =
                        LakePredicate.equal(schema.columnNames().get(c), full.getField(c));
                assertThat(
                                read(
                                        reader,
                                        new LakeReadRequest(
                                                s.snapshotId(), t, 0, new int[] {c}, eq, 0)))
                        .as("filter %s", eq)
                        .containsExactly(Row.of(full.getField(c), 0L));
            }
        }
    }

    @Test
    void t40_aSnapshotThatDoesNotExistIsNotFound() {
        TablePath path = TablePath.of("db", "gone");
        TableDescriptor t = logTable(1);
        storage.catalog().createTable(path, t);
        try (LakeReader reader = storage.createReader(path)) {
            assertThat(reader.latestTieringSnapshot(TABLE_ID)).isEmpty();
            assertThatThrownBy(() -> reader.read(LakeReadRequest.all(424242L, t, 0)))
                    .isInstanceOf(NotFoundException.class)
                    .hasMessageContaining("424242");
        }
    }

    private static int positionInFull(String column) {
        return switch (column) {
            case "id" -> 0;
            case "name" -> 1;
            case "amount" -> 2;
            case LakeSystemColumns.OFFSET -> 3;
            default -> -1;
        };
    }

    private static Row full(Rec r) {
        return Row.of(r.row().getField(0), r.row().getField(1), r.row().getField(2), r.offset());
    }

    private static List<Row> withOffsets(List<Rec> recs) {
        List<Row> out = new ArrayList<>();
        if (recs != null) {
            recs.forEach(r -> out.add(withOffset(r.row(), r.offset())));
        }
        return out;
    }

    private static Row withOffset(Row row, long offset) {
        Object[] f = new Object[row.arity() + 1];
        for (int i = 0; i < row.arity(); i++) {
            f[i] = row.getField(i);
        }
        f[row.arity()] = offset;
        return Row.wrap(f);
    }
}

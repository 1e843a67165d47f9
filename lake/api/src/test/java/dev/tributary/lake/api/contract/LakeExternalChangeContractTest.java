package dev.tributary.lake.api.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.TableOptions;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.catalog.LakeTableMismatchException;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Other engines change lake tables Tributary tiers into. What is safe is tolerated (the table keeps
 * tiering, extra columns read NULL), what would corrupt data is refused with the typed per-table
 * {@link LakeTableMismatchException} naming the difference. Each format applies the changes with
 * its own API, as another engine would.
 */
public abstract class LakeExternalChangeContractTest {
    protected static final long BASE_TS = 1_764_000_000_000L;

    @TempDir protected Path warehouse;
    protected LakeStorage storage;

    /**
     * A change another engine makes to the PK table {@code id INT, name STRING, score BIGINT, qty
     * INT}.
     */
    public enum ExternalChange {
        /** Adds nullable column {@code note STRING} where the format's API puts it (at the end). */
        ADD_NULLABLE_COLUMN,
        /** Sets a comment on {@code name} and a table option that does not decide the layout. */
        COMMENT_AND_OPTION,
        /** Moves {@code score} before {@code name}. */
        MOVE_COLUMN,
        /** Drops {@code name}. */
        DROP_COLUMN,
        /** Renames {@code name} to {@code title}. */
        RENAME_COLUMN,
        /** Widens {@code qty} from INT to BIGINT. */
        RETYPE_COLUMN,
        /** Changes the bucket count from 2 to 3. */
        CHANGE_BUCKET_COUNT
    }

    protected abstract LakeStorage createStorage(Path warehouse);

    protected abstract String format();

    /** Every live row read with the format's own reader, as column name -> value. */
    protected abstract List<Map<String, Object>> readRows(TablePath path) throws Exception;

    /** Applies {@code change} with the format's own API. */
    protected abstract void changeOutsideTributary(TablePath path, ExternalChange change)
            throws Exception;

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

    private TableDescriptor table(List<Column> extra) {
        Schema.Builder s =
                Schema.newBuilder()
                        .column("id", DataTypes.INT())
                        .column("name", DataTypes.STRING())
                        .column("score", DataTypes.BIGINT())
                        .column("qty", DataTypes.INT());
        extra.forEach(c -> s.column(c.name(), c.type()));
        return TableDescriptor.builder(s.primaryKey("id").build())
                .bucketCount(2)
                .property(
                        TableOptions.BUCKET_FUNCTION.key(),
                        BucketFunctionType.forLakeFormat(format()).value())
                .build();
    }

    private LakeCommitResult round(
            TablePath path, TableDescriptor table, long round, int bucket, List<Row> rows) {
        LakeWriteResult result;
        // the first round (before any outside change) through Row, later ones through the encoded
        // view tiering uses: both paths must place values by name into a changed lake table
        boolean encoded = round > 1;
        RowCodec codec = RowCodec.of(table.schema());
        EncodedRow view = codec.view();
        try (LakeWriter w =
                storage.createWriter(new LakeWriterContext(path, 7, table, bucket, round, round))) {
            long offset = round * 100;
            for (Row r : rows) {
                if (encoded) {
                    byte[] bytes = codec.encode(r);
                    w.write(
                            view.pointTo(bytes, 0, bytes.length),
                            ChangeType.INSERT,
                            bucket,
                            offset++,
                            BASE_TS);
                } else {
                    w.write(r, ChangeType.INSERT, bucket, offset++, BASE_TS);
                }
            }
            result = w.complete();
        }
        try (LakeCommitter c = storage.createCommitter(path)) {
            return c.commit(
                    List.of(result),
                    TieringSnapshotProperties.of(
                            7, round, round, new TreeMap<>(Map.of(bucket, round * 100 + 10))));
        }
    }

    private static Map<String, Object> named(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private List<Map<String, Object>> columns(TablePath path, String... names) throws Exception {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> r : readRows(path)) {
            Map<String, Object> m = new HashMap<>();
            for (String n : names) {
                assertThat(r).containsKey(n);
                m.put(n, r.get(n));
            }
            out.add(m);
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(
            value = ExternalChange.class,
            names = {"ADD_NULLABLE_COLUMN", "COMMENT_AND_OPTION", "MOVE_COLUMN"})
    void safeChangesAreToleratedAndTieringGoesOn(ExternalChange change) throws Exception {
        TablePath path = TablePath.of("db", "t_" + change.name().toLowerCase());
        TableDescriptor table = table(List.of());
        storage.catalog().createTable(path, table);
        // a key of each bucket is found by writing into the split's bucket; the lake routes rows
        round(path, table, 1, 0, List.of(Row.of(1, "a", 10L, 1)));
        changeOutsideTributary(path, change);

        storage.catalog().validateTable(path, table);
        storage.catalog().createTable(path, table); // idempotent on the changed table
        assertThat(round(path, table, 2, 0, List.of(Row.of(2, "b", 20L, 2))).outcome())
                .isEqualTo(LakeCommitResult.Outcome.COMMITTED);
        List<Map<String, Object>> rows = readRows(path);
        assertThat(columns(path, "id", "name", "score"))
                .containsExactlyInAnyOrder(
                        named("id", 1, "name", "a", "score", 10L),
                        named("id", 2, "name", "b", "score", 20L));
        if (change == ExternalChange.ADD_NULLABLE_COLUMN) {
            assertThat(rows).allSatisfy(r -> assertThat(r).containsEntry("note", null));
        }

        // Tributary's own add-column still works on top of the change
        TableDescriptor v2 = table(List.of(new Column("email", DataTypes.STRING(), null)));
        storage.catalog().alterTable(path, v2);
        storage.catalog().validateTable(path, v2);
        round(path, v2, 3, 0, List.of(Row.of(3, "c", 30L, 3, "c@x")));
        assertThat(columns(path, "id", "email"))
                .containsExactlyInAnyOrder(
                        named("id", 1, "email", null),
                        named("id", 2, "email", null),
                        named("id", 3, "email", "c@x"));
    }

    @ParameterizedTest
    @EnumSource(
            value = ExternalChange.class,
            names = {"DROP_COLUMN", "RENAME_COLUMN", "RETYPE_COLUMN", "CHANGE_BUCKET_COUNT"})
    void changesThatWouldCorruptDataAreRefusedWithATypedErrorNamingThem(ExternalChange change)
            throws Exception {
        TablePath path = TablePath.of("db", "t_" + change.name().toLowerCase());
        TableDescriptor table = table(List.of());
        storage.catalog().createTable(path, table);
        round(path, table, 1, 0, List.of(Row.of(1, "a", 10L, 1)));
        changeOutsideTributary(path, change);

        String named =
                switch (change) {
                    case DROP_COLUMN, RENAME_COLUMN -> "'name' is missing";
                    case RETYPE_COLUMN -> "in the lake but should be";
                    case CHANGE_BUCKET_COUNT -> "in the lake but";
                    default -> throw new AssertionError(change);
                };
        assertThatThrownBy(() -> storage.catalog().validateTable(path, table))
                .isInstanceOf(LakeTableMismatchException.class)
                .hasMessageContaining("'db.t_" + change.name().toLowerCase() + "'")
                .hasMessageContaining(named);
        assertThatThrownBy(
                        () -> storage.createWriter(new LakeWriterContext(path, 7, table, 0, 2, 2)))
                .isInstanceOf(LakeTableMismatchException.class)
                .hasMessageContaining(named);
    }

    @Test
    void anExtraNotNullColumnWouldFailEveryWriteAndIsRefused() throws Exception {
        TablePath path = TablePath.of("db", "strict");
        TableDescriptor withRequired =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT())
                                        .column("name", DataTypes.STRING())
                                        .column("score", DataTypes.BIGINT())
                                        .column("qty", DataTypes.INT())
                                        .column("must", DataTypes.INT().notNull())
                                        .primaryKey("id")
                                        .build())
                        .bucketCount(2)
                        .property(
                                TableOptions.BUCKET_FUNCTION.key(),
                                BucketFunctionType.forLakeFormat(format()).value())
                        .build();
        // the lake table has a NOT NULL column the Tributary table does not know
        storage.catalog().createTable(path, withRequired);
        assertThatThrownBy(() -> storage.catalog().validateTable(path, table(List.of())))
                .isInstanceOf(LakeTableMismatchException.class)
                .hasMessageContaining("extra NOT NULL column 'must'");
    }
}

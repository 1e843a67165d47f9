package dev.tributary.lake.api.catalog;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The system columns every lake row carries after the Tributary columns (T6): the Tributary bucket,
 * the log offset and the append timestamp of the record it came from. They are NOT NULL.
 */
public final class LakeSystemColumns {
    private LakeSystemColumns() {}

    public static final String BUCKET = "__bucket";
    public static final String OFFSET = "__offset";
    public static final String TIMESTAMP = "__timestamp";

    /** The names, in lake column order. */
    public static final List<String> NAMES = List.of(BUCKET, OFFSET, TIMESTAMP);

    private static final Set<String> RESERVED = Set.copyOf(NAMES);

    /** {@code __bucket INT NOT NULL, __offset BIGINT NOT NULL, __timestamp TIMESTAMP_LTZ(3)}. */
    public static List<Column> columns() {
        return List.of(
                new Column(BUCKET, DataTypes.INT().notNull(), "Tributary bucket"),
                new Column(OFFSET, DataTypes.BIGINT().notNull(), "Tributary log offset"),
                new Column(
                        TIMESTAMP,
                        DataTypes.TIMESTAMP_LTZ(3).notNull(),
                        "Tributary append timestamp"));
    }

    public static boolean isSystemColumn(String name) {
        return RESERVED.contains(name);
    }

    /**
     * The lake schema of a Tributary schema: its columns, then the system columns, same primary
     * key.
     *
     * @throws InvalidInputException when a Tributary column uses a system column name
     */
    public static Schema lakeSchemaOf(Schema tributary) {
        for (Column c : tributary.columns()) {
            if (isSystemColumn(c.name())) {
                throw new InvalidInputException(
                        "column '"
                                + c.name()
                                + "' uses a name reserved for lake system columns "
                                + NAMES
                                + "; rename the column");
            }
        }
        List<Column> all = new ArrayList<>(tributary.columns());
        all.addAll(columns());
        return Schema.of(all, tributary.primaryKey());
    }
}

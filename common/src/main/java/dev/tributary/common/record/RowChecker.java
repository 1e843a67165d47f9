package dev.tributary.common.record;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.Schema;
import java.util.List;

/**
 * Checks write records against a table schema: full rows for append and upsert, key fields only for
 * delete. Shared by the client (fail fast) and the store (never trust the wire).
 */
final class RowChecker {
    private final Schema schema;
    private final int[] keyPositions;
    private final Schema keySchema;

    RowChecker(Schema schema) {
        this.schema = schema;
        this.keyPositions = schema.primaryKeyIndexes();
        if (keyPositions.length == 0) {
            this.keySchema = null;
        } else {
            List<Column> keyColumns =
                    java.util.Arrays.stream(keyPositions)
                            .mapToObj(i -> schema.columns().get(i))
                            .toList();
            this.keySchema = Schema.of(keyColumns, List.of());
        }
    }

    /** Throws unless {@code kind} fits the table: append for log tables, else upsert/delete. */
    static void checkKind(Schema schema, WriteKind kind) {
        if (kind == WriteKind.APPEND) {
            if (schema.hasPrimaryKey()) {
                throw new InvalidInputException(
                        "append is for log tables; this table has primary key "
                                + schema.primaryKey()
                                + ": use upsert or delete");
            }
        } else if (!schema.hasPrimaryKey()) {
            throw new InvalidInputException(
                    kind.name().toLowerCase(java.util.Locale.ROOT)
                            + " needs a primary-key table; this is a log table: use append");
        }
    }

    void check(WriteKind kind, Row row, int index) {
        try {
            checkKind(schema, kind);
            if (kind == WriteKind.APPEND) {
                schema.validate(row);
                return;
            }
            if (kind == WriteKind.UPSERT) {
                schema.validate(row);
            } else {
                if (row.arity() != schema.fieldCount()) {
                    // delegate the arity message to the schema's own check
                    schema.validate(row);
                }
                keySchema.validate(row.project(keyPositions));
            }
        } catch (InvalidInputException e) {
            throw new InvalidInputException(
                    "record " + index + " (" + kind + "): " + e.getMessage(), e);
        }
    }
}

package dev.tributary.common.record;

import dev.tributary.common.row.Row;
import java.util.Objects;

/**
 * One decoded record of a {@link WriteBatch}.
 *
 * @param kind what to do with the row
 * @param row the row; for {@link WriteKind#DELETE} only the primary-key fields are meaningful
 */
public record WriteRecord(WriteKind kind, Row row) {
    public WriteRecord {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(row, "row");
    }
}

package dev.tributary.tiering.service;

import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;

/**
 * Reads records one at a time without allocating per record beyond the row. Log cursors yield
 * records in offset order; snapshot cursors yield current rows as {@link ChangeType#INSERT} with
 * offset and timestamp -1.
 */
public interface RecordCursor extends AutoCloseable {
    /** Advances to the next record; false when the range is exhausted. */
    boolean next();

    long offset();

    long timestamp();

    ChangeType changeType();

    Row row();

    /** Approximate encoded size of the current record, for throughput figures. */
    int sizeInBytes();

    @Override
    void close();
}

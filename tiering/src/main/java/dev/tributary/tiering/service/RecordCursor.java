package dev.tributary.tiering.service;

import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.EncodedRow;

/**
 * Reads records one at a time without allocating per record. Log cursors yield records in offset
 * order; snapshot cursors yield the state's rows as {@link ChangeType#INSERT}, with the snapshot's
 * log offset minus one (the last change the state holds) as offset and -1 as timestamp.
 */
public interface RecordCursor extends AutoCloseable {
    /** Advances to the next record; false when the range is exhausted. */
    boolean next();

    long offset();

    long timestamp();

    ChangeType changeType();

    /**
     * The current record's row, as a view of its encoded bytes that stays valid until {@link
     * #next()}: lake writers copy the values they need without decoding the whole row.
     */
    EncodedRow row();

    /** Encoded bytes of the current record as the store served it, for throughput figures. */
    int sizeInBytes();

    @Override
    void close();
}

package dev.tributary.common.record;

import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;

/**
 * One record of a stored {@link LogBatch}.
 *
 * @param offset the record's position in its bucket's log (dense, from 0)
 * @param timestamp append time in epoch milliseconds
 * @param changeType {@code +A} for log tables, {@code +I/-U/+U/-D} for a primary-key changelog
 * @param row the row, decoded under the schema the caller passed (columns added later are NULL)
 */
public record LogRecord(long offset, long timestamp, ChangeType changeType, Row row) {}

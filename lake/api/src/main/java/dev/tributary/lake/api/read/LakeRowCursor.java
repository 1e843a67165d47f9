package dev.tributary.lake.api.read;

import dev.tributary.common.row.Row;

/**
 * The rows of a lake read, one at a time: each the requested Tributary columns plus the system
 * columns of the lake row. For a primary-key table the format's reader has merged the versions of
 * each key (Paimon's merge engine, Iceberg's deletes), so every key appears once with its newest
 * row. Not thread safe; close it to release files and buffers.
 *
 * @since 0.1
 */
public interface LakeRowCursor extends AutoCloseable {

    /** Advances to the next row; false at the end. */
    boolean next();

    /** The requested columns of the current row, in request order. */
    Row row();

    /** The Tributary bucket the row was tiered from ({@code __bucket}). */
    int bucket();

    /** The log offset of the record the row came from ({@code __offset}). */
    long offset();

    /** The append time of that record, epoch milliseconds ({@code __timestamp}). */
    long timestampMillis();

    @Override
    void close();
}

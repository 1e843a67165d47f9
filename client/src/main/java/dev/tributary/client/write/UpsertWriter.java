package dev.tributary.client.write;

import dev.tributary.client.internal.WriterCore;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.record.WriteKind;
import dev.tributary.common.row.Row;
import java.util.concurrent.CompletableFuture;

/**
 * Inserts, replaces and deletes rows of a primary-key table, batched per bucket and sent
 * asynchronously. Changes to one key are applied in call order. The server turns them into the
 * table's changelog ({@code +I}, {@code -U/+U}, {@code -D}).
 *
 * <p>Thread safe; same batching, back-pressure and retry behaviour as {@link AppendWriter}.
 */
public final class UpsertWriter implements AutoCloseable {
    private final WriterCore core;
    private volatile boolean closed;

    public UpsertWriter(WriterCore core) {
        if (!core.table().hasPrimaryKey()) {
            throw new InvalidInputException(
                    "table "
                            + core.table().path()
                            + " is a log table: write it with an AppendWriter");
        }
        this.core = core;
    }

    /**
     * Inserts the row, or replaces the row with the same primary key.
     *
     * @throws InvalidInputException when the row does not match the table's schema
     */
    public CompletableFuture<WriteResult> upsert(Row row) {
        ensureOpen();
        return core.add(WriteKind.UPSERT, row);
    }

    /**
     * Deletes the row with the primary key of {@code row} (a full-arity row; only the key fields
     * are read, the others may be NULL). Deleting an absent key is a no-op, reported as {@link
     * WriteResult#keyWasAbsent()}.
     */
    public CompletableFuture<WriteResult> delete(Row row) {
        ensureOpen();
        return core.add(WriteKind.DELETE, row);
    }

    /** Sends all buffered changes and waits; throws the first failure since the last flush. */
    public void flush() {
        core.flush();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            core.release();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this writer is closed");
        }
    }
}

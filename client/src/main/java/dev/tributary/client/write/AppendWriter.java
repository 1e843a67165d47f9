package dev.tributary.client.write;

import dev.tributary.client.internal.WriterCore;
import dev.tributary.common.record.WriteKind;
import dev.tributary.common.row.Row;
import java.util.concurrent.CompletableFuture;

/**
 * Appends rows to a log table. Rows are batched per bucket and sent asynchronously; each call
 * returns a future that completes with the row's bucket and offset once the server has made it
 * durable. Rows of one bucket keep the order in which they were appended.
 *
 * <p>Thread safe. When {@code client.writer.buffer-memory} bytes are unacknowledged, {@link
 * #append} blocks until the server catches up (back-pressure). Batches failing with a {@link
 * dev.tributary.common.exception.RetriableException} are re-sent up to {@code
 * client.writer.retries} times.
 *
 * <pre>{@code
 * try (AppendWriter writer = connection.appendWriter(TablePath.parse("shop.clicks"))) {
 *     writer.append(Row.of(1L, "home"));
 *     writer.flush();
 * }
 * }</pre>
 */
public final class AppendWriter implements AutoCloseable {
    private final WriterCore core;
    private volatile boolean closed;

    public AppendWriter(WriterCore core) {
        if (core.table().hasPrimaryKey()) {
            throw new dev.tributary.common.exception.InvalidInputException(
                    "table "
                            + core.table().path()
                            + " has a primary key: write it with an UpsertWriter");
        }
        this.core = core;
    }

    /**
     * Buffers one row.
     *
     * @throws dev.tributary.common.exception.InvalidInputException when the row does not match the
     *     table's schema (nothing is buffered)
     */
    public CompletableFuture<WriteResult> append(Row row) {
        ensureOpen();
        return core.add(WriteKind.APPEND, row);
    }

    /**
     * Sends all buffered rows and waits until each is acknowledged or failed.
     *
     * @throws dev.tributary.common.exception.TributaryException the first failure of a batch since
     *     the previous flush
     */
    public void flush() {
        core.flush();
    }

    /** Flushes, then refuses further rows. */
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

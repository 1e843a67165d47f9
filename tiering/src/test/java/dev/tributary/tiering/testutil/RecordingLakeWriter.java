package dev.tributary.tiering.testutil;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.util.ArrayList;
import java.util.List;

/**
 * A lake writer for unit tests: remembers what it got, can fail on the n-th record, and at
 * complete, abort and close (a failing lake file system, T22).
 */
public final class RecordingLakeWriter implements LakeWriter {
    public record Written(Row row, ChangeType type, int bucket, long offset, long timestamp) {}

    private final LakeWriterContext context;
    private final int failAt;
    public final List<Written> written = new ArrayList<>();
    public boolean completed;
    public boolean aborted;
    public boolean closed;
    public boolean failComplete;
    public boolean failAbort;
    public boolean failClose;

    /**
     * Injected failures are Errors instead of StorageExceptions, as Hadoop's local file system
     * throws {@code FSError} when a write fails on a full disk.
     */
    public boolean failWithErrors;

    public RecordingLakeWriter(LakeWriterContext context, int failAt) {
        this.context = context;
        this.failAt = failAt;
    }

    @Override
    public void write(Row row, ChangeType changeType, int bucket, long offset, long ts) {
        if (written.size() == failAt) {
            throw failure("injected write failure");
        }
        written.add(new Written(row, changeType, bucket, offset, ts));
    }

    @Override
    public LakeWriteResult complete() {
        if (failComplete) {
            throw failure("injected flush failure");
        }
        completed = true;
        long max = written.stream().mapToLong(Written::timestamp).max().orElse(0);
        return new LakeWriteResult(
                "test",
                context.tablePath(),
                context.tableId(),
                context.epoch(),
                context.roundId(),
                context.bucket(),
                written.size(),
                written.isEmpty() ? List.of() : List.of("file-" + context.bucket()),
                written.size() * 10L,
                0,
                max,
                new byte[0]);
    }

    @Override
    public void abort() {
        aborted = true;
        if (failAbort) {
            throw failure("injected failure deleting aborted files");
        }
    }

    @Override
    public void close() {
        closed = true;
        if (failClose) {
            throw failure("injected failure closing the writer");
        }
    }

    private RuntimeException failure(String message) {
        if (failWithErrors) {
            throw new InjectedError(message);
        }
        return new StorageException(message);
    }

    /** Stands for an Error a lake library throws for an I/O failure (Hadoop's FSError). */
    public static final class InjectedError extends Error {
        InjectedError(String message) {
            super(message);
        }
    }

    public List<Long> offsets() {
        List<Long> out = new ArrayList<>();
        written.forEach(w -> out.add(w.offset()));
        return out;
    }
}

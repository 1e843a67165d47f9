package dev.tributary.client.scan;

import com.google.protobuf.ByteString;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.rpc.error.GrpcErrors;
import io.grpc.Context;
import java.util.Iterator;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The raw chunks of a log or snapshot read: each one whole log batches exactly as the store keeps
 * them, pulled from the server's stream one message at a time. Failures are the typed exceptions
 * the server raised. Close it to stop the stream early. Not thread safe.
 */
public final class LogChunkStream implements Iterator<byte[]>, AutoCloseable {
    private final Context.CancellableContext context;
    private final Iterator<?> responses;
    private final Function<Object, ByteString> records;
    private Consumer<TributaryException> onFailure = e -> {};

    @SuppressWarnings("unchecked")
    <T> LogChunkStream(
            Context.CancellableContext context,
            Iterator<T> responses,
            Function<T, ByteString> records) {
        this.context = context;
        this.responses = responses;
        this.records = (Function<Object, ByteString>) records;
    }

    /** Also tells {@code hook} of the stream's failure, before it is thrown. */
    LogChunkStream onFailure(Consumer<TributaryException> hook) {
        this.onFailure = hook;
        return this;
    }

    @Override
    public boolean hasNext() {
        try {
            return responses.hasNext();
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public byte[] next() {
        try {
            return records.apply(responses.next()).toByteArray();
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    private TributaryException failed(RuntimeException e) {
        close();
        TributaryException typed = GrpcErrors.fromThrowable(e);
        onFailure.accept(typed);
        return typed;
    }

    @Override
    public void close() {
        context.cancel(null);
    }
}

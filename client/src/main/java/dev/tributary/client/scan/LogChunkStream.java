package dev.tributary.client.scan;

import com.google.protobuf.ByteString;
import dev.tributary.rpc.error.GrpcErrors;
import io.grpc.Context;
import java.util.Iterator;

/**
 * The raw chunks of a log read: each one whole log batches exactly as the store keeps them, pulled
 * from the server's stream one message at a time. Failures are the typed exceptions the server
 * raised. Close it to stop the stream early. Not thread safe.
 */
public final class LogChunkStream implements Iterator<byte[]>, AutoCloseable {
    private final Context.CancellableContext context;
    private final Iterator<ByteString> chunks;

    LogChunkStream(Context.CancellableContext context, Iterator<ByteString> chunks) {
        this.context = context;
        this.chunks = chunks;
    }

    @Override
    public boolean hasNext() {
        try {
            return chunks.hasNext();
        } catch (RuntimeException e) {
            close();
            throw GrpcErrors.fromThrowable(e);
        }
    }

    @Override
    public byte[] next() {
        try {
            return chunks.next().toByteArray();
        } catch (RuntimeException e) {
            close();
            throw GrpcErrors.fromThrowable(e);
        }
    }

    @Override
    public void close() {
        context.cancel(null);
    }
}

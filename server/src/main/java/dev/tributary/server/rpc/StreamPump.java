package dev.tributary.server.rpc;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.function.Supplier;

/**
 * Drives a server stream with flow control: it produces the next message only while the client's
 * transport is ready for it, and resumes when gRPC signals readiness again. The producer returns
 * {@code null} when the stream is complete.
 */
final class StreamPump<T> {
    private final ServerCallStreamObserver<T> out;
    private final Supplier<T> producer;
    private final Runnable onClose;
    private boolean done;

    private StreamPump(ServerCallStreamObserver<T> out, Supplier<T> producer, Runnable onClose) {
        this.out = out;
        this.producer = producer;
        this.onClose = onClose;
    }

    /** Starts streaming; {@code onClose} runs once when the stream ends in any way. */
    static <T> void start(StreamObserver<T> observer, Supplier<T> producer, Runnable onClose) {
        ServerCallStreamObserver<T> out = (ServerCallStreamObserver<T>) observer;
        StreamPump<T> pump = new StreamPump<>(out, producer, onClose);
        out.setOnCancelHandler(pump::cancelled);
        out.setOnReadyHandler(pump::drain);
        pump.drain();
    }

    private synchronized void drain() {
        try {
            while (!done && out.isReady()) {
                T next = producer.get();
                if (next == null) {
                    finish();
                    out.onCompleted();
                    return;
                }
                out.onNext(next);
            }
        } catch (Throwable t) {
            if (!done) {
                finish();
                Calls.fail(out, t);
            }
        }
    }

    private synchronized void cancelled() {
        finish();
    }

    private void finish() {
        if (!done) {
            done = true;
            onClose.run();
        }
    }
}

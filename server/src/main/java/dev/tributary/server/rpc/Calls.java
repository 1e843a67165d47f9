package dev.tributary.server.rpc;

import dev.tributary.rpc.error.GrpcErrors;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs a service method body and answers with its value or its typed error. */
final class Calls {
    private static final Logger LOG = LoggerFactory.getLogger(Calls.class);

    private Calls() {}

    static <T> void unary(StreamObserver<T> observer, Supplier<T> body) {
        T value;
        try {
            value = body.get();
        } catch (Throwable t) {
            fail(observer, t);
            return;
        }
        observer.onNext(value);
        observer.onCompleted();
    }

    static <T> void async(StreamObserver<T> observer, Supplier<CompletableFuture<T>> body) {
        CompletableFuture<T> future;
        try {
            future = body.get();
        } catch (Throwable t) {
            fail(observer, t);
            return;
        }
        future.whenComplete(
                (value, error) -> {
                    if (error != null) {
                        fail(observer, error);
                    } else {
                        observer.onNext(value);
                        observer.onCompleted();
                    }
                });
    }

    static void fail(StreamObserver<?> observer, Throwable t) {
        Throwable cause = unwrap(t);
        if (!(cause instanceof dev.tributary.common.exception.TributaryException)) {
            LOG.error("unexpected failure in a call", cause);
        }
        try {
            observer.onError(GrpcErrors.toStatus(cause));
        } catch (IllegalStateException alreadyClosed) {
            LOG.debug("call already closed", alreadyClosed);
        }
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}

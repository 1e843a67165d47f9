package dev.tributary.rpc.error;

import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.Throwables;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.exception.UnauthenticatedException;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.io.IOException;

/**
 * Converts typed exceptions to gRPC statuses and back. The server puts the {@link ErrorCode} in a
 * trailer, so the client rethrows the exact exception family the server threw, with its message.
 */
public final class GrpcErrors {
    /** Trailer holding {@link ErrorCode#code()}. */
    public static final Metadata.Key<String> ERROR_CODE_KEY =
            Metadata.Key.of("tributary-error-code", Metadata.ASCII_STRING_MARSHALLER);

    /** Trailer of {@link ErrorCode#NOT_COORDINATOR}: the leader's server id, when known. */
    public static final Metadata.Key<String> LEADER_ID_KEY =
            Metadata.Key.of("tributary-leader-id", Metadata.ASCII_STRING_MARSHALLER);

    /** Trailer of {@link ErrorCode#NOT_COORDINATOR}: the leader's RPC host:port, when known. */
    public static final Metadata.Key<String> LEADER_ADDRESS_KEY =
            Metadata.Key.of("tributary-leader-address", Metadata.ASCII_STRING_MARSHALLER);

    /** Longest leader id or address taken from (or put in) a trailer; longer ones are dropped. */
    static final int MAX_LEADER_FIELD_CHARS = 300;

    /** Keeps a status with its trailers well under gRPC's default 8 KB header list. */
    private static final int MAX_MESSAGE_CHARS = 2048;

    private GrpcErrors() {}

    /** The status (with trailers) that carries {@code t} to the client. */
    public static StatusRuntimeException toStatus(Throwable t) {
        ErrorCode code = ErrorCode.forThrowable(t);
        String message = t.getMessage() == null ? t.getClass().getName() : t.getMessage();
        if (code == ErrorCode.INTERNAL && !(t instanceof TributaryException)) {
            message = t.getClass().getSimpleName() + ": " + message;
        }
        // a message may quote the request (a 100 KB name): past the peer's header-list limit the
        // status would arrive as an INTERNAL http2 error instead of the typed one
        if (message.length() > MAX_MESSAGE_CHARS) {
            message = message.substring(0, MAX_MESSAGE_CHARS) + "... (truncated)";
        }
        Metadata trailers = new Metadata();
        trailers.put(ERROR_CODE_KEY, Integer.toString(code.code()));
        if (t instanceof NotCoordinatorException nce) {
            nce.leaderId()
                    .filter(GrpcErrors::isSafeField)
                    .ifPresent(v -> trailers.put(LEADER_ID_KEY, v));
            nce.leaderAddress()
                    .filter(GrpcErrors::isSafeField)
                    .ifPresent(v -> trailers.put(LEADER_ADDRESS_KEY, v));
        }
        return Status.fromCode(code.grpcCode())
                .withDescription(message)
                .asRuntimeException(trailers);
    }

    /**
     * Whether a Tributary server answered the failed call with a typed error, rather than the
     * transport failing it (an unreachable server, a broken connection, a deadline).
     */
    public static boolean answeredByServer(Throwable t) {
        Metadata trailers =
                t instanceof StatusRuntimeException sre
                        ? sre.getTrailers()
                        : t instanceof StatusException se ? se.getTrailers() : null;
        return trailers != null && trailers.containsKey(ERROR_CODE_KEY);
    }

    /**
     * The typed exception for a failed call. Statuses without a Tributary trailer come from the
     * transport: unavailable, deadline exceeded and resource exhausted are retriable, and so is any
     * status caused by an I/O failure (the connection broke mid-call: gRPC reports that as UNKNOWN
     * "channel closed", INTERNAL or CANCELLED depending on where it broke), since whether the
     * server acted on the call is unknown, exactly as after a timeout.
     */
    public static TributaryException fromThrowable(Throwable t) {
        if (t instanceof TributaryException te) {
            return te;
        }
        Status status;
        Metadata trailers;
        if (t instanceof StatusRuntimeException sre) {
            status = sre.getStatus();
            trailers = sre.getTrailers();
        } else if (t instanceof StatusException se) {
            status = se.getStatus();
            trailers = se.getTrailers();
        } else {
            return new ServerInternalException(String.valueOf(t.getMessage()), t);
        }
        String description =
                status.getDescription() == null ? status.getCode().name() : status.getDescription();
        String raw = trailers == null ? null : trailers.get(ERROR_CODE_KEY);
        if (raw != null) {
            int code;
            try {
                code = Integer.parseInt(raw);
            } catch (NumberFormatException e) {
                code = ErrorCode.INTERNAL.code();
            }
            ErrorCode errorCode = ErrorCode.fromCode(code);
            TributaryException ex =
                    errorCode == ErrorCode.NOT_COORDINATOR
                            ? new NotCoordinatorException(
                                    description,
                                    leaderField(trailers, LEADER_ID_KEY),
                                    leaderField(trailers, LEADER_ADDRESS_KEY))
                            : errorCode.toException(description);
            ex.addSuppressed(t);
            return ex;
        }
        if (Throwables.causedBy(status.getCause(), IOException.class)
                || Throwables.causedBy(t.getCause(), IOException.class)) {
            return new RetriableException(
                    "the connection to the server broke (" + status.getCode() + "): " + description,
                    t);
        }
        switch (status.getCode()) {
            case UNAVAILABLE:
            case DEADLINE_EXCEEDED:
            case RESOURCE_EXHAUSTED:
            case ABORTED:
                return new RetriableException(
                        "server unavailable (" + status.getCode() + "): " + description, t);
            case UNAUTHENTICATED:
                return new UnauthenticatedException(description, t);
            default:
                return new ServerInternalException(status.getCode() + ": " + description, t);
        }
    }

    /** A trailer's leader field, or null when absent, too long or not printable ASCII. */
    private static String leaderField(Metadata trailers, Metadata.Key<String> key) {
        String v;
        try {
            v = trailers.get(key);
        } catch (RuntimeException e) {
            return null; // a malformed value: the redirect is a hint, never required
        }
        return v != null && isSafeField(v) ? v : null;
    }

    private static boolean isSafeField(String v) {
        if (v.isEmpty() || v.length() > MAX_LEADER_FIELD_CHARS) {
            return false;
        }
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c <= ' ' || c > '~') {
                return false;
            }
        }
        return true;
    }
}

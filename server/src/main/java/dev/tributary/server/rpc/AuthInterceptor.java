package dev.tributary.server.rpc;

import dev.tributary.common.exception.UnauthenticatedException;
import dev.tributary.rpc.AuthHeaders;
import dev.tributary.rpc.error.GrpcErrors;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Refuses every call that does not carry the shared bearer token. */
public final class AuthInterceptor implements ServerInterceptor {
    private final byte[] token;

    public AuthInterceptor(String token) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String presented = AuthHeaders.tokenOf(headers.get(AuthHeaders.AUTHORIZATION));
        if (presented == null || !matches(presented)) {
            StatusRuntimeException e =
                    GrpcErrors.toStatus(
                            new UnauthenticatedException(
                                    presented == null
                                            ? "this server requires a bearer token: pass --token"
                                                    + " or set it on the connection"
                                            : "the bearer token is wrong"));
            call.close(e.getStatus(), e.getTrailers());
            return new ServerCall.Listener<>() {};
        }
        return next.startCall(call, headers);
    }

    /** Constant-time comparison, so the token cannot be guessed byte by byte from timings. */
    public boolean matches(String presented) {
        return MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8));
    }
}

package dev.tributary.rpc;

import io.grpc.Metadata;

/** How a client presents the shared bearer token on every call. */
public final class AuthHeaders {
    public static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    public static final String BEARER_PREFIX = "Bearer ";

    private AuthHeaders() {}

    /** {@code Bearer <token>}. */
    public static String bearer(String token) {
        return BEARER_PREFIX + token;
    }

    /** The token in an authorization header value, or null when absent or not a bearer token. */
    public static String tokenOf(String headerValue) {
        if (headerValue == null || !headerValue.startsWith(BEARER_PREFIX)) {
            return null;
        }
        return headerValue.substring(BEARER_PREFIX.length()).trim();
    }
}

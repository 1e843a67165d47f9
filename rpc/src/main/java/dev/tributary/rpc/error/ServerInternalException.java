package dev.tributary.rpc.error;

import dev.tributary.common.exception.TributaryException;

/**
 * The server failed with an error outside Tributary's typed hierarchy (a bug), or answered with a
 * code this client does not know. The message carries the server's description.
 */
public class ServerInternalException extends TributaryException {
    private static final long serialVersionUID = 1L;

    public ServerInternalException(String message) {
        super(message);
    }

    public ServerInternalException(String message, Throwable cause) {
        super(message, cause);
    }
}

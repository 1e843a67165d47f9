package dev.tributary.common.exception;

import java.util.Optional;

/**
 * This server is not the cluster's coordinator (it does not lead the metadata quorum, or no longer
 * does): a coordinator must stop acting, a client must ask {@link #leaderId() the leader}, when
 * known, or retry once one is elected.
 */
public class NotCoordinatorException extends FencedException {
    private static final long serialVersionUID = 1L;

    private final String leaderId;

    /**
     * @param leaderId the server id of the current leader, or {@code null} when none is known
     */
    public NotCoordinatorException(String message, String leaderId) {
        super(message);
        this.leaderId = leaderId;
    }

    /** The server id of the current leader, if this server knows it. */
    public Optional<String> leaderId() {
        return Optional.ofNullable(leaderId);
    }
}

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
    private final String leaderAddress;

    /**
     * @param leaderId the server id of the current leader, or {@code null} when none is known
     */
    public NotCoordinatorException(String message, String leaderId) {
        this(message, leaderId, null);
    }

    /**
     * @param leaderId the server id of the current leader, or {@code null} when none is known
     * @param leaderAddress the leader's registered RPC {@code host:port}, or {@code null} when not
     *     known
     */
    public NotCoordinatorException(String message, String leaderId, String leaderAddress) {
        super(message);
        this.leaderId = leaderId;
        this.leaderAddress = leaderAddress;
    }

    /** The server id of the current leader, if this server knows it. */
    public Optional<String> leaderId() {
        return Optional.ofNullable(leaderId);
    }

    /**
     * The leader's registered RPC address ({@code host:port}), if this server knows it: where a
     * client sends coordinator calls instead.
     */
    public Optional<String> leaderAddress() {
        return Optional.ofNullable(leaderAddress);
    }
}

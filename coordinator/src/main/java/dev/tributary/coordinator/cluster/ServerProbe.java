package dev.tributary.coordinator.cluster;

import java.util.concurrent.CompletableFuture;

/**
 * Asks whether anything listens at a server's RPC address, so that a server whose process died
 * expires before its heartbeat timeout (T51). Only a refusal is a conclusion: a process that is
 * paused, partitioned away or on a host that went down answers nothing, which tells the coordinator
 * nothing, and the heartbeat timeout decides.
 */
public interface ServerProbe extends AutoCloseable {

    /** What a probe found at an address. */
    enum Result {
        /** A connection was accepted: something listens there. */
        LISTENING,
        /** The host refused the connection: nothing listens on that port. */
        REFUSED,
        /** No answer in time, or an address that does not resolve: nothing can be concluded. */
        NO_ANSWER
    }

    /**
     * Probes {@code hostPort} ({@code host:port}, an IPv6 host in brackets) off the caller's
     * thread. The future never completes exceptionally.
     */
    CompletableFuture<Result> probe(String hostPort);

    @Override
    void close();
}

package dev.tributary.coordinator.cluster;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * Asks whether anything listens at a server's RPC address, so that a server whose process died
 * expires before its heartbeat timeout (T51). Only a refusal is a conclusion: a process that is
 * paused, partitioned away or on a host that went down answers nothing, which tells the coordinator
 * nothing, and the heartbeat timeout decides.
 *
 * <p>A probe opens a TCP connection to the address and closes it at once, on one daemon thread of
 * its own; nothing is sent and nothing read. The coordinator probes each late server at most once
 * at a time, so the queue holds at most one probe per registered server.
 */
public final class ServerProbe implements AutoCloseable {
    /** What a probe found at an address. */
    public enum Result {
        /** A connection was accepted: something listens there. */
        LISTENING,
        /** The host refused the connection: nothing listens on that port. */
        REFUSED,
        /** No answer in time, or an address that does not resolve: nothing can be concluded. */
        NO_ANSWER
    }

    private final int timeoutMillis;
    private final ExecutorService thread =
            Executors.newSingleThreadExecutor(
                    r -> {
                        Thread t = new Thread(r, "server-probe");
                        t.setDaemon(true);
                        return t;
                    });

    /**
     * @param timeout how long a connection attempt may take before it counts as no answer
     */
    public ServerProbe(Duration timeout) {
        this.timeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    }

    /**
     * Probes {@code hostPort} ({@code host:port}, an IPv6 host in brackets) off the caller's
     * thread. The future never completes exceptionally.
     */
    public CompletableFuture<Result> probe(String hostPort) {
        try {
            return CompletableFuture.supplyAsync(() -> connect(hostPort, timeoutMillis), thread);
        } catch (RejectedExecutionException closed) {
            return CompletableFuture.completedFuture(Result.NO_ANSWER);
        }
    }

    static Result connect(String hostPort, int timeoutMillis) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            return Result.NO_ANSWER;
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            return Result.NO_ANSWER;
        }
        if (port <= 0 || port > 65535) {
            return Result.NO_ANSWER;
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            return Result.LISTENING;
        } catch (ConnectException e) {
            // ECONNREFUSED only: a connect that timed out in the kernel is a ConnectException too
            String message = e.getMessage();
            return message != null && message.startsWith("Connection refused")
                    ? Result.REFUSED
                    : Result.NO_ANSWER;
        } catch (IOException | RuntimeException e) {
            return Result.NO_ANSWER;
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}

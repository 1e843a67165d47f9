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
 * A {@link ServerProbe} that opens a TCP connection to the address and closes it at once, on one
 * daemon thread of its own. Nothing is sent and nothing read. The coordinator probes each late
 * server at most once at a time, so the queue holds at most one probe per registered server.
 */
public final class TcpServerProbe implements ServerProbe {
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
    public TcpServerProbe(Duration timeout) {
        this.timeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    }

    @Override
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

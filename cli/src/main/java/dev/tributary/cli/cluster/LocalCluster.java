package dev.tributary.cli.cluster;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.time.Clock;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The server processes one {@code tributary cluster start} runs: starts the servers of a {@link
 * LocalClusterLayout} that are not running yet, waits for a coordinator and every server ALIVE,
 * reports a server that exits, and stops the servers it started (SIGTERM, a bounded wait, then a
 * kill).
 */
public final class LocalCluster {
    /** A server's graceful shutdown waits up to server.shutdown.timeout (30 s by default). */
    private static final long STOP_WAIT_MILLIS = 45_000;

    private static final long POLL_MILLIS = 250;

    private final LocalClusterLayout layout;
    private final List<String> commonArgs;
    private final List<String> overrides;
    private final String token;
    private final PrintWriter err;
    private final Clock clock;
    private final List<LocalServerProcess> started = new CopyOnWriteArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean stopping;

    /**
     * @param commonArgs arguments of every server before its own options (the configuration file,
     *     the shared lake)
     * @param overrides the user's {@code --set} options, applied after the cluster's own
     * @param token the servers' bearer token, empty or null for none
     * @param err where an exited server is reported
     */
    public LocalCluster(
            LocalClusterLayout layout,
            List<String> commonArgs,
            List<String> overrides,
            String token,
            PrintWriter err,
            Clock clock) {
        this.layout = layout;
        this.commonArgs = List.copyOf(commonArgs);
        this.overrides = List.copyOf(overrides);
        this.token = token == null || token.isEmpty() ? null : token;
        this.err = err;
        this.clock = clock;
    }

    public LocalClusterLayout layout() {
        return layout;
    }

    /** The processes this command started (not those of the directory already running). */
    public List<LocalServerProcess> started() {
        return List.copyOf(started);
    }

    /**
     * Starts every server of the layout not running yet and waits up to {@code timeout} for a
     * coordinator and every server ALIVE. Returns the cluster as the coordinator describes it.
     *
     * @throws InvalidInputException when every server already runs or a port is in use
     * @throws StorageException when a server exits or the cluster is not ready in time
     */
    public ClusterInfo start(Duration timeout) throws InterruptedException {
        List<Integer> missing = new ArrayList<>();
        List<String> running = new ArrayList<>();
        for (int id = 1; id <= layout.servers(); id++) {
            Optional<ProcessHandle> live = LocalServerProcess.running(layout.serverDir(id));
            if (live.isPresent()) {
                running.add("server " + id + " (pid " + live.get().pid() + ")");
            } else {
                missing.add(id);
            }
        }
        if (missing.isEmpty()) {
            throw new InvalidInputException(
                    "the cluster in "
                            + layout.base()
                            + " already runs: "
                            + String.join(", ", running));
        }
        for (int id : missing) {
            checkFree(layout.raftPort(id), "server " + id + "'s Raft port", "--raft-port");
            checkFree(layout.rpcPort(id), "server " + id + "'s RPC port", "--rpc-port");
            if (layout.httpPort(id) != -1) {
                checkFree(layout.httpPort(id), "server " + id + "'s HTTP port", "--http-port");
            }
        }
        layout.write();
        if (!running.isEmpty()) {
            err.println(
                    "already running, left to the command that started them: "
                            + String.join(", ", running));
            err.flush();
        }
        for (int id : missing) {
            LocalServerProcess p =
                    LocalServerProcess.start(id, layout.serverDir(id), serverArgs(id));
            started.add(p);
            p.process().onExit().thenAccept(done -> reportExit(p, done.exitValue()));
        }
        return awaitReady(timeout);
    }

    private List<String> serverArgs(int id) {
        List<String> args = new ArrayList<>(commonArgs);
        set(args, "data.dir", layout.serverDir(id).toString());
        set(args, "cluster.id", layout.clusterId());
        set(args, "cluster.server-id", Integer.toString(id));
        set(args, "cluster.voters", layout.voters());
        if (layout.isObserver(id)) {
            set(args, "cluster.observer-address", "127.0.0.1:" + layout.raftPort(id));
        }
        set(args, "server.rpc.port", Integer.toString(layout.rpcPort(id)));
        set(args, "server.http.port", Integer.toString(layout.httpPort(id)));
        if (id != 1) {
            // one Flink MiniCluster per machine is plenty: server 1's job tiers every server's
            // buckets, following the coordinator wherever it is
            set(args, "tiering.embedded.enabled", "false");
        }
        for (String o : overrides) {
            args.add("--set");
            args.add(o);
        }
        return args;
    }

    private static void set(List<String> args, String key, String value) {
        args.add("--set");
        args.add(key + "=" + value);
    }

    private static void checkFree(int port, String what, String option) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new InvalidInputException(
                    "port "
                            + port
                            + " ("
                            + what
                            + ") is in use: stop what listens there, or choose other ports with "
                            + option
                            + " (and a new --data-dir, which keeps its cluster's ports)");
        }
    }

    private ClusterInfo awaitReady(Duration timeout) throws InterruptedException {
        long deadline = clock.nanoTime() + timeout.toNanos();
        String last = "no answer yet";
        try (Connection conn =
                Connection.builder().address(layout.addressList()).token(token).build()) {
            while (true) {
                for (LocalServerProcess p : started) {
                    if (!p.process().isAlive()) {
                        throw new StorageException(
                                "server "
                                        + p.id()
                                        + " exited with code "
                                        + p.process().exitValue()
                                        + " while the cluster started; see "
                                        + p.log());
                    }
                }
                try {
                    ClusterInfo info = conn.admin().describeCluster();
                    if (ready(info)) {
                        return info;
                    }
                    last = describe(info);
                } catch (TributaryException e) {
                    // an election is running or a server is still starting
                    last = e.getMessage();
                }
                if (clock.nanoTime() > deadline) {
                    throw new StorageException(
                            "the cluster was not ready within "
                                    + timeout.toSeconds()
                                    + " s ("
                                    + last
                                    + "); see "
                                    + layout.base()
                                    + "/server-*/server.out");
                }
                Thread.sleep(POLL_MILLIS);
            }
        }
    }

    private boolean ready(ClusterInfo info) {
        return info.coordinatorId().isPresent()
                && info.servers().size() == layout.servers()
                && info.servers().stream()
                        .allMatch(s -> s.liveness() == ClusterInfo.Liveness.ALIVE);
    }

    private static String describe(ClusterInfo info) {
        StringBuilder b = new StringBuilder();
        b.append(
                info.coordinatorId().isPresent()
                        ? "coordinator: server " + info.coordinatorId().getAsInt()
                        : "no coordinator");
        for (ClusterInfo.Server s : info.servers()) {
            b.append(", server ").append(s.serverId()).append(' ').append(s.liveness());
        }
        return b.toString();
    }

    private void reportExit(LocalServerProcess p, int code) {
        if (stopping) {
            return;
        }
        synchronized (err) {
            err.println(
                    "server "
                            + p.id()
                            + " (pid "
                            + p.pid()
                            + ") exited with code "
                            + code
                            + "; log: "
                            + p.log());
            err.flush();
        }
    }

    /** Blocks until {@link #stop} ran or the thread is interrupted. */
    public void awaitUntilInterrupted() throws InterruptedException {
        stopped.await();
    }

    /**
     * Stops the servers this command started: SIGTERM to each, then waits for all (up to 45 s, a
     * server's graceful shutdown) and kills those still running. Idempotent.
     */
    public synchronized void stop() {
        if (stopped.getCount() == 0) {
            return;
        }
        stopping = true;
        for (LocalServerProcess p : started) {
            p.terminate();
        }
        long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MILLIS);
        boolean interrupted = false;
        for (LocalServerProcess p : started) {
            long left = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - clock.nanoTime()));
            try {
                if (!p.awaitExitOrKill(left)) {
                    err.println("server " + p.id() + " did not stop in time: killed");
                }
            } catch (InterruptedException e) {
                // stopping must finish: kill what is left, then restore the flag
                interrupted = true;
                p.process().destroyForcibly();
            }
        }
        err.flush();
        stopped.countDown();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

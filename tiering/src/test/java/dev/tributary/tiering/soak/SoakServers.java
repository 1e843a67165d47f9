package dev.tributary.tiering.soak;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The soak's server processes ({@link SoakServerMain}, one JVM each, so the soak can SIGKILL and
 * SIGSTOP them): a lone server, or a cluster on loopback (T49), its first servers voters of the
 * metadata quorum and any others observers, that share one lake and one {@link SoakControl}
 * directory (only the coordinator commits to the lake, so a trigger fires on whichever server
 * coordinates). Servers are numbered from 1; each keeps its ports and data directory across
 * restarts.
 */
final class SoakServers implements AutoCloseable {
    private final int count;
    private final int voters;
    private final Path data;
    private final Path logs;
    private final Path controlDir;
    private final Map<String, String> conf;
    private final int[] rpcPorts;
    private final int[] raftPorts;
    private final SoakProcess[] processes;
    private final NetworkNamespaces network;

    /**
     * @param voters how many of the servers, from 1, vote in the metadata quorum; the others join
     *     as observers
     * @param conf every server's options (the cluster options are added here)
     * @param network a network namespace per server (so one can be cut off), or null: loopback
     */
    SoakServers(
            int count,
            int voters,
            Path data,
            Path logs,
            Path controlDir,
            Map<String, String> conf,
            NetworkNamespaces network)
            throws IOException {
        if (count < 1) {
            throw new IllegalArgumentException("servers must be at least 1, got " + count);
        }
        if (voters < 1 || voters > count) {
            throw new IllegalArgumentException(
                    "voters must be 1 to " + count + " (the servers), got " + voters);
        }
        this.count = count;
        this.voters = voters;
        this.data = data;
        this.logs = logs;
        this.controlDir = controlDir;
        this.conf = Map.copyOf(conf);
        this.rpcPorts = freePorts(count);
        this.raftPorts = count > 1 ? freePorts(count) : new int[0];
        this.processes = new SoakProcess[count + 1];
        this.network = network;
    }

    int count() {
        return count;
    }

    boolean cluster() {
        return count > 1;
    }

    IntStream ids() {
        return IntStream.rangeClosed(1, count);
    }

    int randomId(Random random) {
        return 1 + random.nextInt(count);
    }

    /** Every server's {@code host:port}, comma separated: what clients and jobs are given. */
    String addressList() {
        return ids().mapToObj(id -> host(id) + ":" + rpcPort(id)).collect(Collectors.joining(","));
    }

    /** {@link #addressList()} without server {@code id}. */
    String addressListWithout(int id) {
        return ids().filter(i -> i != id)
                .mapToObj(i -> host(i) + ":" + rpcPort(i))
                .collect(Collectors.joining(","));
    }

    private String host(int id) {
        return network == null ? "127.0.0.1" : network.host(id);
    }

    /** Cuts server {@code id} off from every other server and client (network namespaces only). */
    void cut(int id) throws IOException {
        network().cut(id);
    }

    /** Ends the cut of server {@code id}. */
    void heal(int id) throws IOException {
        network().heal(id);
    }

    /** Whether servers can be cut off from each other (each has a network namespace). */
    boolean partitionable() {
        return network != null;
    }

    private NetworkNamespaces network() {
        if (network == null) {
            throw new IllegalStateException(
                    "the servers share the loopback network: none can be cut off");
        }
        return network;
    }

    int rpcPort(int id) {
        return rpcPorts[id - 1];
    }

    Path dataDir(int id) {
        return cluster() ? data.resolve("s" + id) : data;
    }

    SoakProcess process(int id) {
        return processes[id];
    }

    /**
     * Saves every live server's thread dump ({@code jcmd <pid> Thread.print}) to {@code
     * server-<id>-threads-<tag>.txt} beside its output: what a stalled server was doing.
     */
    void dumpThreads(String tag) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        for (int id = 1; id <= count; id++) {
            if (!isAlive(id)) {
                continue;
            }
            String name = cluster() ? "server-" + id : "server";
            try {
                new ProcessBuilder(
                                jcmd.toString(), Long.toString(processes[id].pid()), "Thread.print")
                        .redirectErrorStream(true)
                        .redirectOutput(logs.resolve(name + "-threads-" + tag + ".txt").toFile())
                        .start()
                        .waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
            } catch (IOException e) {
                System.out.println("cannot dump the threads of " + name + ": " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Starts every server together (the voters of a new cluster need each other to elect). */
    void startAll() throws Exception {
        for (int id = 1; id <= count; id++) {
            processes[id] = launch(id);
        }
        for (int id = 1; id <= count; id++) {
            awaitStarted(id);
        }
    }

    /** (Re)starts server {@code id} on its data directory and ports; returns once it serves. */
    void start(int id) throws Exception {
        processes[id] = launch(id);
        awaitStarted(id);
    }

    void kill(int id) throws InterruptedException {
        processes[id].kill();
    }

    boolean isAlive(int id) {
        return processes[id] != null && processes[id].isAlive();
    }

    /** The first server whose process has ended, if any. */
    OptionalInt exited() {
        return ids().filter(id -> !isAlive(id)).findFirst();
    }

    private SoakProcess launch(int id) throws IOException {
        String name = cluster() ? "server-" + id : "server";
        return SoakProcess.start(
                name,
                logs.resolve(name + ".out"),
                network == null ? List.of() : network.prefix(id),
                null,
                SoakProcess.smallJvm("768m"),
                SoakServerMain.class.getName(),
                args(id),
                Map.of());
    }

    private void awaitStarted(int id) throws InterruptedException {
        if (!processes[id].awaitOutput("started ", Duration.ofSeconds(120))) {
            throw new IllegalStateException(
                    processes[id].name()
                            + " did not start:\n"
                            + StandaloneJobs.tail(processes[id].outputOfThisRun()));
        }
    }

    private List<String> args(int id) {
        List<String> a = new ArrayList<>();
        a.add(dataDir(id).toString());
        a.add(Integer.toString(rpcPort(id)));
        a.add(controlDir.toString());
        Map<String, String> c = new LinkedHashMap<>();
        if (network != null) {
            c.put("server.bind-host", host(id));
        }
        if (cluster()) {
            c.put("cluster.id", "soak");
            c.put("cluster.server-id", Integer.toString(id));
            c.put(
                    "cluster.voters",
                    IntStream.rangeClosed(1, voters)
                            .mapToObj(v -> v + "@" + host(v) + ":" + raftPorts[v - 1])
                            .collect(Collectors.joining(",")));
            if (id > voters) {
                c.put("cluster.observer-address", host(id) + ":" + raftPorts[id - 1]);
            }
        }
        c.putAll(conf);
        c.forEach((k, v) -> a.add(k + "=" + v));
        return a;
    }

    private static int[] freePorts(int n) throws IOException {
        List<ServerSocket> open = new ArrayList<>();
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                open.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : open) {
                s.close();
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (int id = 1; id <= count; id++) {
            if (processes[id] != null) {
                processes[id].close();
            }
        }
        if (network != null) {
            network.close();
        }
    }
}

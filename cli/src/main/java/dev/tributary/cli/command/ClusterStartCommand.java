package dev.tributary.cli.command;

import dev.tributary.cli.cluster.LocalCluster;
import dev.tributary.cli.cluster.LocalClusterLayout;
import dev.tributary.cli.cluster.LocalServerProcess;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.time.Clock;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.server.config.ServerConfigLoader;
import dev.tributary.server.config.ServerOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tributary cluster start}: a cluster of server processes on this machine (T49). */
@Command(
        name = "start",
        mixinStandardHelpOptions = true,
        description = {
            "Starts a cluster of N server processes on this machine and stays in the foreground.",
            "Server i runs 'tributary server' with data.dir <data-dir>/server-i, cluster.server-id"
                    + " i, the Raft, RPC and HTTP ports base + i - 1, every server of a new"
                    + " cluster a voter of the metadata quorum, one lake warehouse"
                    + " <data-dir>/lake shared by all (so"
                    + " whichever server coordinates commits to the same lake tables). Only server"
                    + " 1 runs the embedded tiering job (tiering.embedded.enabled=false on the"
                    + " others): one Flink MiniCluster is enough on one machine.",
            "Each server's output goes to <data-dir>/server-i/server.out, its pid to"
                    + " server.pid. Once a coordinator is elected and every server is ALIVE, prints"
                    + " the cluster, the address list for -a and each server's console URL. A"
                    + " server that exits is reported and the others keep running. SIGTERM or"
                    + " Ctrl-C stops every server gracefully.",
            "Running it again on the same --data-dir restarts the same cluster (same ports,"
                    + " same data); servers of that directory still running are left alone and"
                    + " only the others are started. With a larger --servers it adds servers to"
                    + " the running cluster; 'tributary cluster rebalance' then moves replicas"
                    + " onto them. With a smaller one it no longer starts the servers past it"
                    + " (added ones, once drained, stopped and taken out with 'tributary cluster"
                    + " remove-server')."
        })
public final class ClusterStartCommand implements Callable<Integer> {
    @Option(
            names = {"-n", "--servers"},
            description =
                    "Number of servers, 1..9 (default: 3, or the directory's cluster). More than"
                            + " the directory's cluster has adds servers to it: they join as"
                            + " observers (they hold replicas; the metadata quorum stays the"
                            + " servers the cluster was made with). Fewer leaves out the added"
                            + " servers past it, which must be stopped.")
    Integer servers;

    @Option(
            names = "--data-dir",
            defaultValue = "tributary-cluster",
            description =
                    "Base directory of the servers' data and the lake (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(
            names = "--cluster-id",
            description = "cluster.id of every server (default: local, or the directory's).")
    String clusterId;

    @Option(
            names = "--raft-port",
            description = "First metadata Raft port; server i uses it + i - 1 (default: 9301).")
    Integer raftPort;

    @Option(
            names = "--rpc-port",
            description = "First gRPC port; server i uses it + i - 1 (default: 9123).")
    Integer rpcPort;

    @Option(
            names = "--http-port",
            description =
                    "First HTTP (console) port; server i uses it + i - 1; -1 turns the console"
                            + " off (default: 8080).")
    Integer httpPort;

    @Option(
            names = "--start-timeout",
            defaultValue = "60s",
            converter = DurationConverter.class,
            description =
                    "Longest wait for a coordinator and every server ALIVE, e.g. 60s or 2min"
                            + " (default: ${DEFAULT-VALUE}).")
    Duration startTimeout;

    @Option(
            names = {"-c", "--config"},
            description =
                    "YAML configuration file of every server (default: as 'tributary server').")
    Path config;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description =
                    "An option for every server, e.g. --set cluster.server.heartbeat-timeout=5s"
                            + " (repeatable; applied after the command's own).")
    List<String> overrides = new ArrayList<>();

    @Spec CommandSpec spec;

    private volatile LocalCluster cluster;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path file = config != null ? config : ServerCommand.defaultConfigFile();
        Configuration conf = ServerConfigLoader.load(file, overrides);
        LocalClusterLayout layout = layout();
        int stored =
                LocalClusterLayout.read(layout.base())
                        .map(LocalClusterLayout::servers)
                        .orElse(layout.servers());
        if (layout.servers() < stored) {
            // written before anything starts, so that no later start brings them back
            layout.write();
            out.println(
                    "left "
                            + (layout.servers() + 1 == stored
                                    ? "server " + stored
                                    : "servers " + (layout.servers() + 1) + ".." + stored)
                            + " out of the cluster in "
                            + layout.base()
                            + " (data directories kept); it now has "
                            + layout.servers()
                            + " servers");
            out.flush();
            if (allRunning(layout)) {
                return 0;
            }
        }
        List<String> common = new ArrayList<>();
        if (file != null) {
            common.add("--config");
            common.add(file.toAbsolutePath().toString());
        }
        String format = conf.get(LakeStorageOptions.DATALAKE_FORMAT);
        String warehouseKey = "datalake." + format + ".warehouse";
        if (!conf.toMap().containsKey(warehouseKey)) {
            common.add("--set");
            common.add(warehouseKey + "=" + layout.lake().toUri());
        }
        LocalCluster c =
                new LocalCluster(
                        layout,
                        common,
                        overrides,
                        conf.get(ServerOptions.SECURITY_TOKEN),
                        err,
                        Clock.system());
        cluster = c;
        Thread hook =
                new Thread(
                        () -> {
                            err.println("stopping (SIGTERM): stopping every server");
                            err.flush();
                            c.stop();
                            err.println("stopped");
                            err.flush();
                            // the JVM would exit 143 after a signal; stopping was the request
                            Runtime.getRuntime().halt(0);
                        },
                        "tributary-cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            ClusterInfo info = c.start(startTimeout);
            printReady(out, layout, info);
            c.awaitUntilInterrupted();
            return 0;
        } catch (InterruptedException e) {
            return 0;
        } finally {
            c.stop();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it stops the servers and exits
            }
        }
    }

    private static void printReady(PrintWriter out, LocalClusterLayout layout, ClusterInfo info) {
        ClusterCommand.print(out, info);
        out.println();
        out.println("addresses: " + layout.addressList());
        out.println("  e.g. tributary cluster -a " + layout.addressList());
        for (int id = 1; id <= layout.servers(); id++) {
            out.println(
                    "server "
                            + id
                            + ": console "
                            + (layout.httpPort(id) == -1
                                    ? "off"
                                    : "http://127.0.0.1:" + layout.httpPort(id) + "/")
                            + "   log "
                            + layout.serverDir(id).resolve("server.out"));
        }
        out.println("running; Ctrl-C or SIGTERM stops every server");
        out.flush();
    }

    /** The running cluster, once {@link #call} created it (tests). */
    public Optional<LocalCluster> cluster() {
        return Optional.ofNullable(cluster);
    }

    /** The requested layout, checked against the one the directory holds. */
    private LocalClusterLayout layout() {
        Path base = dataDir.toAbsolutePath().normalize();
        boolean serversExist = hasServerDirectories(base);
        // a layout whose servers never started (e.g. a port was in use) may still change
        Optional<LocalClusterLayout> stored =
                serversExist ? LocalClusterLayout.read(base) : Optional.empty();
        if (stored.isEmpty()) {
            if (serversExist) {
                throw new InvalidInputException(
                        base
                                + " holds server directories but no "
                                + "cluster.properties: it is not a directory 'tributary cluster"
                                + " start' created; choose another --data-dir");
            }
            LocalClusterLayout fresh =
                    new LocalClusterLayout(
                            base,
                            clusterId == null ? "local" : clusterId,
                            servers == null ? 3 : servers,
                            raftPort == null ? 9301 : raftPort,
                            rpcPort == null ? 9123 : rpcPort,
                            httpPort == null ? 8080 : httpPort);
            return fresh;
        }
        LocalClusterLayout s = stored.get();
        if (servers != null && servers > s.servers()) {
            // more servers than the directory's cluster: the new ones join it as observers
            s = s.withServers(servers);
        } else if (servers != null && servers < s.servers() && servers >= s.voterCount()) {
            s = withoutServersPast(s, servers);
        }
        List<String> conflicts = new ArrayList<>();
        conflict(conflicts, "--servers", servers, s.servers());
        conflict(conflicts, "--raft-port", raftPort, s.raftPort());
        conflict(conflicts, "--rpc-port", rpcPort, s.rpcPort());
        conflict(conflicts, "--http-port", httpPort, s.httpPort());
        if (clusterId != null && !clusterId.equals(s.clusterId())) {
            conflicts.add("--cluster-id " + s.clusterId());
        }
        if (!conflicts.isEmpty()) {
            throw new InvalidInputException(
                    base
                            + " holds another cluster's servers (cluster '"
                            + s.clusterId()
                            + "' of "
                            + s.servers()
                            + " servers: "
                            + String.join(", ", conflicts)
                            + "); run without these options to restart it, with a larger"
                            + " --servers to add servers to it, or choose another --data-dir");
        }
        return s;
    }

    /**
     * The layout without the servers past {@code n} (added ones: observers taken out of the cluster
     * with {@code tributary cluster remove-server}). Their data directories stay.
     *
     * @throws InvalidInputException if one of them runs
     */
    private static LocalClusterLayout withoutServersPast(LocalClusterLayout s, int n) {
        for (int id = n + 1; id <= s.servers(); id++) {
            Optional<ProcessHandle> live = LocalServerProcess.running(s.serverDir(id));
            if (live.isPresent()) {
                throw new InvalidInputException(
                        "--servers "
                                + n
                                + " leaves out server "
                                + id
                                + ", which runs (pid "
                                + live.get().pid()
                                + "): drain it ('tributary cluster rebalance --drain "
                                + id
                                + "'), stop it and take it out ('tributary cluster remove-server "
                                + id
                                + "') first");
            }
        }
        return s.withServers(n);
    }

    private static void conflict(List<String> out, String option, Integer given, int stored) {
        if (given != null && given != stored) {
            out.add(option + " " + stored);
        }
    }

    private static boolean allRunning(LocalClusterLayout layout) {
        for (int id = 1; id <= layout.servers(); id++) {
            if (LocalServerProcess.running(layout.serverDir(id)).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasServerDirectories(Path base) {
        if (!Files.isDirectory(base)) {
            return false;
        }
        try (var entries = Files.list(base)) {
            return entries.anyMatch(
                    p -> p.getFileName().toString().startsWith("server-") && Files.isDirectory(p));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Reads {@code 60s}, {@code 2min}, {@code 500ms}. */
    static final class DurationConverter implements picocli.CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.trim();
            try {
                if (v.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
                }
                if (v.endsWith("min")) {
                    return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 3)));
                }
                if (v.endsWith("s")) {
                    return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
                }
                return Duration.ofSeconds(Long.parseLong(v));
            } catch (NumberFormatException e) {
                throw new picocli.CommandLine.TypeConversionException(
                        "'" + value + "' is not a duration such as 60s, 2min or 500ms");
            }
        }
    }
}

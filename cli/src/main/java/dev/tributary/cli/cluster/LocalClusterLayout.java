package dev.tributary.cli.cluster;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Where the servers of a local cluster ({@code tributary cluster start}) live: one base directory
 * with a data directory per server and the shared lake, and consecutive ports from three bases.
 * Server {@code i} (1-based) uses {@code base + i - 1} of each. The layout is kept in {@code
 * <base>/cluster.properties} so that running the command again restarts the same cluster.
 *
 * <p>Servers {@code 1..voterCount} are the metadata quorum's voters; servers added later (a larger
 * {@code --servers} on a running cluster) are observers: they hold replicas but do not vote, so the
 * quorum, fixed when the cluster was made, does not change.
 */
public record LocalClusterLayout(
        Path base,
        String clusterId,
        int servers,
        int voterCount,
        int raftPort,
        int rpcPort,
        int httpPort) {
    /** Most servers one command starts: the metadata quorum is every server, 3 or 5 is usual. */
    public static final int MAX_SERVERS = 9;

    static final String FILE_NAME = "cluster.properties";

    public LocalClusterLayout {
        base = base.toAbsolutePath().normalize();
        if (servers < 1 || servers > MAX_SERVERS) {
            throw new InvalidInputException(
                    "--servers must be between 1 and " + MAX_SERVERS + ", got " + servers);
        }
        if (voterCount < 1 || voterCount > servers) {
            throw new InvalidInputException(
                    "the cluster's voters (" + voterCount + ") must be 1.." + servers);
        }
        if (clusterId.isBlank()) {
            throw new InvalidInputException("--cluster-id must not be empty");
        }
        checkPortRange("--raft-port", raftPort, servers);
        checkPortRange("--rpc-port", rpcPort, servers);
        if (httpPort != -1) {
            checkPortRange("--http-port", httpPort, servers);
        }
    }

    /** A new cluster: every server a voter. */
    public LocalClusterLayout(
            Path base, String clusterId, int servers, int raftPort, int rpcPort, int httpPort) {
        this(base, clusterId, servers, servers, raftPort, rpcPort, httpPort);
    }

    /** This layout with {@code n} servers, those past the current ones added as observers. */
    public LocalClusterLayout withServers(int n) {
        return new LocalClusterLayout(base, clusterId, n, voterCount, raftPort, rpcPort, httpPort);
    }

    /** Whether server {@code id} was added after the cluster was made (it does not vote). */
    public boolean isObserver(int id) {
        return id > voterCount;
    }

    private static void checkPortRange(String option, int base, int servers) {
        if (base < 1 || base + servers - 1 > 65535) {
            throw new InvalidInputException(
                    option
                            + " "
                            + base
                            + ": the ports "
                            + base
                            + ".."
                            + (base + servers - 1)
                            + " must lie in 1..65535");
        }
    }

    /** Server {@code id}'s data directory. */
    public Path serverDir(int id) {
        return base.resolve("server-" + id);
    }

    /** The lake warehouse every server shares. */
    public Path lake() {
        return base.resolve("lake");
    }

    public int raftPort(int id) {
        return raftPort + id - 1;
    }

    public int rpcPort(int id) {
        return rpcPort + id - 1;
    }

    /** Server {@code id}'s HTTP port, or -1 when the console is off. */
    public int httpPort(int id) {
        return httpPort == -1 ? -1 : httpPort + id - 1;
    }

    /** The {@code cluster.voters} value: servers {@code 1..voterCount}, on loopback. */
    public String voters() {
        List<String> out = new ArrayList<>();
        for (int id = 1; id <= voterCount; id++) {
            out.add(id + "@127.0.0.1:" + raftPort(id));
        }
        return String.join(",", out);
    }

    /** The RPC addresses, comma separated: what {@code -a} takes. */
    public String addressList() {
        List<String> out = new ArrayList<>();
        for (int id = 1; id <= servers; id++) {
            out.add("127.0.0.1:" + rpcPort(id));
        }
        return String.join(",", out);
    }

    /** The layout stored in {@code base}, if a cluster was started there before. */
    public static java.util.Optional<LocalClusterLayout> read(Path base) {
        Path file = base.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return java.util.Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
            return java.util.Optional.of(
                    new LocalClusterLayout(
                            base,
                            p.getProperty("cluster-id", ""),
                            Integer.parseInt(p.getProperty("servers", "0")),
                            // written before servers could be added: every server votes
                            Integer.parseInt(
                                    p.getProperty("voters", p.getProperty("servers", "0"))),
                            Integer.parseInt(p.getProperty("raft-port", "0")),
                            Integer.parseInt(p.getProperty("rpc-port", "0")),
                            Integer.parseInt(p.getProperty("http-port", "0"))));
        } catch (IOException e) {
            throw new StorageException("cannot read " + file + ": " + e.getMessage(), e);
        } catch (NumberFormatException | InvalidInputException e) {
            throw new InvalidInputException(
                    file
                            + " is damaged ("
                            + e.getMessage()
                            + "); remove it or use another"
                            + " --data-dir");
        }
    }

    /** Stores this layout in {@code <base>/cluster.properties} (temporary file, then rename). */
    public void write() {
        Properties p = new Properties();
        p.setProperty("cluster-id", clusterId);
        p.setProperty("servers", Integer.toString(servers));
        p.setProperty("voters", Integer.toString(voterCount));
        p.setProperty("raft-port", Integer.toString(raftPort));
        p.setProperty("rpc-port", Integer.toString(rpcPort));
        p.setProperty("http-port", Integer.toString(httpPort));
        Path file = base.resolve(FILE_NAME);
        Path tmp = base.resolve(FILE_NAME + ".tmp");
        try {
            Files.createDirectories(base);
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "tributary cluster start: the servers of this directory");
            }
            Files.move(
                    tmp,
                    file,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new StorageException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}

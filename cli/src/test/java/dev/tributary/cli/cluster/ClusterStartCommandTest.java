package dev.tributary.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.TributaryCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary cluster start}'s refusals: one error line, exit 1, no stack trace, and no server
 * started. The happy path and the restart run real processes in {@link ClusterStartITCase}.
 */
class ClusterStartCommandTest {
    @TempDir Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        List<String> all = new ArrayList<>(List.of("cluster", "start"));
        all.addAll(List.of(args));
        return TributaryCli.execute(
                all.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
    }

    private void assertOneErrorLine(String... fragments) {
        assertThat(err.toString()).startsWith("error: ").doesNotContain("\tat ");
        assertThat(err.toString().strip().lines()).hasSize(1);
        assertThat(err.toString()).contains(fragments);
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void serverCountOutOfRange() {
        assertThat(run("--servers", "10", "--data-dir", dir.resolve("c").toString()))
                .isEqualTo(TributaryCli.USER_ERROR);
        assertOneErrorLine("--servers must be between 1 and 9, got 10");
        assertThat(dir.resolve("c")).doesNotExist();
    }

    @Test
    void aPortInUseIsNamedWithItsOption() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            // server 2's RPC port is the one in use
            assertThat(
                            run(
                                    "--servers",
                                    "2",
                                    "--data-dir",
                                    dir.resolve("c").toString(),
                                    "--raft-port",
                                    Integer.toString(freePort()),
                                    "--http-port",
                                    "-1",
                                    "--rpc-port",
                                    Integer.toString(port - 1)))
                    .isEqualTo(TributaryCli.USER_ERROR);
            assertOneErrorLine("port " + port + " (server 2's RPC port) is in use", "--rpc-port");
        }
        assertThat(dir.resolve("c").resolve("server-1")).doesNotExist();
        assertThat(dir.resolve("c").resolve("cluster.properties"))
                .as("a layout is kept only once its servers start")
                .doesNotExist();
    }

    @Test
    void aDirectoryHoldingAnotherClustersServers() throws Exception {
        Path base = dir.resolve("c");
        new LocalClusterLayout(base, "local", 3, 9301, 9123, 8080).write();
        Files.createDirectories(base.resolve("server-1"));
        // fewer servers is another cluster (more would add servers to this one)
        assertThat(run("--data-dir", base.toString(), "--servers", "2", "--cluster-id", "other"))
                .isEqualTo(TributaryCli.USER_ERROR);
        assertOneErrorLine(
                "holds another cluster's servers",
                "--servers 3",
                "--cluster-id local",
                "larger --servers to add servers");
    }

    @Test
    void serverDirectoriesWithoutALayoutAreRefused() throws Exception {
        Path base = dir.resolve("c");
        Files.createDirectories(base.resolve("server-1"));
        assertThat(run("--data-dir", base.toString())).isEqualTo(TributaryCli.USER_ERROR);
        assertOneErrorLine("not a directory 'tributary cluster start' created");
    }

    @Test
    void aClusterWhoseServersAllRunIsNotStartedTwice() throws Exception {
        Path base = dir.resolve("c");
        LocalClusterLayout layout = new LocalClusterLayout(base, "local", 1, 9301, 9123, 8080);
        layout.write();
        Path server = layout.serverDir(1);
        Process p = standIn(server);
        try {
            assertThat(LocalServerProcess.running(server)).isPresent();
            assertThat(run("--data-dir", base.toString())).isEqualTo(TributaryCli.USER_ERROR);
            assertOneErrorLine("already runs: server 1 (pid " + p.pid() + ")");
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(LocalServerProcess.running(server)).as("a dead pid does not count").isEmpty();
    }

    @Test
    void aPidReusedByAnotherProgramDoesNotCount() throws Exception {
        Path server = dir.resolve("server-1");
        Files.createDirectories(server);
        Process p = new ProcessBuilder("sh", "-c", "sleep 60").start();
        try {
            Files.writeString(server.resolve("server.pid"), Long.toString(p.pid()));
            assertThat(LocalServerProcess.running(server)).isEmpty();
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void layoutRoundTripAndPorts() {
        LocalClusterLayout layout =
                new LocalClusterLayout(dir.resolve("c"), "local", 3, 9301, 9123, -1);
        layout.write();
        assertThat(LocalClusterLayout.read(dir.resolve("c"))).contains(layout);
        assertThat(layout.voters()).isEqualTo("1@127.0.0.1:9301,2@127.0.0.1:9302,3@127.0.0.1:9303");
        assertThat(layout.addressList()).isEqualTo("127.0.0.1:9123,127.0.0.1:9124,127.0.0.1:9125");
        assertThat(layout.httpPort(2)).isEqualTo(-1);
        assertThat(layout.serverDir(2)).isEqualTo(dir.resolve("c").resolve("server-2"));

        // servers added later are observers: the voters stay those the cluster was made with
        LocalClusterLayout grown = layout.withServers(5);
        grown.write();
        assertThat(LocalClusterLayout.read(dir.resolve("c"))).contains(grown);
        assertThat(grown.voters()).isEqualTo(layout.voters());
        assertThat(grown.isObserver(3)).isFalse();
        assertThat(grown.isObserver(4)).isTrue();
        assertThat(grown.addressList()).endsWith(",127.0.0.1:9126,127.0.0.1:9127");
    }

    @Test
    void aLayoutWrittenBeforeObserversHasEveryServerVote() throws Exception {
        Path base = dir.resolve("old");
        Files.createDirectories(base);
        Files.writeString(
                base.resolve("cluster.properties"),
                "cluster-id=local\nservers=3\nraft-port=9301\nrpc-port=9123\nhttp-port=8080\n");
        LocalClusterLayout old = LocalClusterLayout.read(base).orElseThrow();
        assertThat(old.voterCount()).isEqualTo(3);
        assertThat(old.isObserver(3)).isFalse();
    }

    @Test
    void fewerServersLeaveOutStoppedAddedOnesOnly() throws Exception {
        Path base = dir.resolve("c");
        LocalClusterLayout four = new LocalClusterLayout(base, "local", 3, 9301, 9123, -1);
        four = four.withServers(4);
        four.write();
        List<Process> standIns = new ArrayList<>();
        try {
            for (int id = 1; id <= 4; id++) {
                standIns.add(standIn(four.serverDir(id)));
            }
            assertThat(run("--data-dir", base.toString(), "--servers", "3"))
                    .isEqualTo(TributaryCli.USER_ERROR);
            assertOneErrorLine(
                    "leaves out server 4, which runs (pid " + standIns.get(3).pid() + ")",
                    "tributary cluster remove-server 4");
            assertThat(LocalClusterLayout.read(base)).contains(four);

            standIns.get(3).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            // servers 1..3 run: nothing to start, the layout leaves server 4 out from now on
            assertThat(run("--data-dir", base.toString(), "--servers", "3")).isZero();
            assertThat(out.toString()).startsWith("left server 4 out of the cluster in ");
            LocalClusterLayout three = LocalClusterLayout.read(base).orElseThrow();
            assertThat(three.servers()).isEqualTo(3);
            assertThat(three.voterCount()).isEqualTo(3);
            assertThat(four.serverDir(4)).as("its data stays").isDirectory();
        } finally {
            for (Process p : standIns) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** A process whose command line names {@code server} as a server process's does. */
    private static Process standIn(Path server) throws Exception {
        Files.createDirectories(server);
        Process p =
                new ProcessBuilder(
                                "sh",
                                "-c",
                                "sleep 60",
                                "sh",
                                "-Dtributary.cluster.server-dir=" + server)
                        .start();
        Files.writeString(server.resolve("server.pid"), Long.toString(p.pid()));
        return p;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}

package dev.tributary.cli.command;

import dev.tributary.cli.output.LogDirectory;
import dev.tributary.common.config.Configuration;
import dev.tributary.server.TributaryServer;
import dev.tributary.server.config.ServerConfigLoader;
import dev.tributary.server.config.ServerOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Runs a server in the foreground until SIGTERM / Ctrl-C, then shuts it down gracefully. */
@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        description = {
            "Runs a Tributary server in the foreground.",
            "Prints the bound addresses once listening; stops gracefully on SIGTERM or Ctrl-C."
        })
public final class ServerCommand implements Callable<Integer> {
    @Option(
            names = {"-c", "--config"},
            description =
                    "YAML configuration file (default: $TRIBUTARY_CONF_DIR/server.yaml when it"
                            + " exists).")
    Path config;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description = "Overrides one option, e.g. --set server.rpc.port=0 (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Spec CommandSpec spec;

    /** $TRIBUTARY_CONF_DIR/server.yaml (or conf/server.yaml) when it exists, else null. */
    static Path defaultConfigFile() {
        String dir = System.getenv("TRIBUTARY_CONF_DIR");
        Path candidate = Paths.get(dir == null ? "conf" : dir, "server.yaml");
        return Files.isRegularFile(candidate) ? candidate : null;
    }

    @Override
    public Integer call() throws Exception {
        Path file = config != null ? config : defaultConfigFile();
        Configuration conf = ServerConfigLoader.load(file, overrides);
        // before the server starts, so that the libraries' start-up warnings land in the file
        Path log = LogDirectory.underDataDir(Paths.get(conf.get(ServerOptions.DATA_DIR)));
        TributaryServer server = TributaryServer.start(conf);
        PrintWriter err = spec.commandLine().getErr();
        Thread hook =
                new Thread(
                        () -> {
                            err.println("stopping (SIGTERM): finishing in-flight calls");
                            err.flush();
                            server.close();
                            err.println("stopped");
                            err.flush();
                        },
                        "tributary-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        PrintWriter out = spec.commandLine().getOut();
        out.println(
                "Tributary server listening: rpc="
                        + server.rpcTarget()
                        + server.httpAddress()
                                .map(a -> " http=http://" + a.getHostString() + ":" + a.getPort())
                                .orElse("")
                        + " data="
                        + server.dataDir()
                        + " log="
                        + log);
        out.flush();
        server.awaitTermination();
        if (server.fatalError().isPresent()) {
            // stopped by a fault, not by the operator: non-zero, so a supervisor restarts it
            err.println(
                    "stopped: "
                            + server.fatalError().get().getMessage()
                            + "; restart the server (its state is durable), details in "
                            + log);
            err.flush();
            return 1;
        }
        return 0;
    }
}

package dev.tributary.cli.command;

import dev.tributary.cli.output.LogDirectory;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.tiering.job.TieringJobMain;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs a tiering job against a server's coordinator: the same code path as {@code flink run -c
 * dev.tributary.tiering.job.TieringJobMain}, here on a local Flink MiniCluster in this process.
 * Several jobs may serve one coordinator (T26).
 */
@Command(
        name = "tiering-job",
        mixinStandardHelpOptions = true,
        description = {
            "Runs a tiering job for a server's coordinator on a local Flink MiniCluster, until"
                    + " stopped (Ctrl-C).",
            "Give it the server's lake settings, e.g. --set"
                    + " datalake.paimon.warehouse=/data/tributary-data/lake; on a Flink cluster run"
                    + " dev.tributary.tiering.job.TieringJobMain with the same --key value pairs."
        })
public final class TieringJobCommand implements Callable<Integer> {
    @Option(
            names = "--coordinator",
            required = true,
            paramLabel = "HOST:PORT",
            description = "gRPC address of the Tributary server whose tables this job tiers.")
    String coordinator;

    @Option(
            names = "--token",
            defaultValue = "${env:TRIBUTARY_TOKEN}",
            description = "The server's bearer token (env TRIBUTARY_TOKEN).")
    String token;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description =
                    "A job, lake or client setting, e.g. --set tiering.embedded.parallelism=2"
                            + " --set datalake.format=paimon (repeatable).")
    List<String> settings = new ArrayList<>();

    @Option(
            names = "--log-dir",
            paramLabel = "DIR",
            description =
                    "Write every log line, Flink's included, to DIR/tributary.log; the terminal then"
                            + " shows Tributary's own warnings only (default: library warnings"
                            + " on stderr too).")
    Path logDir;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (logDir != null) {
            Path file = LogDirectory.use(logDir);
            spec.commandLine().getErr().println("log: " + file);
            spec.commandLine().getErr().flush();
        }
        TieringJobMain.main(arguments().toArray(new String[0]));
        return 0;
    }

    /** The {@code --key value} line {@link TieringJobMain} takes. */
    List<String> arguments() {
        List<String> args = new ArrayList<>(List.of("--coordinator", coordinator));
        if (token != null && !token.isEmpty()) {
            args.add("--token");
            args.add(token);
        }
        for (String s : settings) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new InvalidInputException(
                        "--set '"
                                + s
                                + "' is not KEY=VALUE, e.g. --set tiering.commit.order=assignment");
            }
            args.add("--" + s.substring(0, eq));
            args.add(s.substring(eq + 1));
        }
        return args;
    }
}

package dev.tributary.cli;

import dev.tributary.cli.command.DbCommand;
import dev.tributary.cli.command.LookupCommand;
import dev.tributary.cli.command.ScanCommand;
import dev.tributary.cli.command.ServerCommand;
import dev.tributary.cli.command.TableCommand;
import dev.tributary.cli.command.TieringCommand;
import dev.tributary.cli.command.WriteCommand;
import dev.tributary.common.exception.TributaryException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code tributary} command. User errors (bad input, unknown table, refused token, server down)
 * print one line to stderr and exit with 1; usage errors exit with 2; {@code --verbose} adds the
 * stack trace.
 */
@Command(
        name = "tributary",
        mixinStandardHelpOptions = true,
        version = "tributary 0.1.0-SNAPSHOT",
        description = "A streaming table store with a lake tiering service.",
        subcommands = {
            ServerCommand.class,
            DbCommand.class,
            TableCommand.class,
            dev.tributary.cli.command.PartitionCommand.class,
            WriteCommand.class,
            ScanCommand.class,
            dev.tributary.cli.command.QueryCommand.class,
            LookupCommand.class,
            TieringCommand.class,
            dev.tributary.cli.command.ClusterCommand.class,
            dev.tributary.cli.command.PlanCommand.class,
            dev.tributary.cli.command.TieringJobCommand.class,
            dev.tributary.cli.demo.DemoCommand.class,
            CommandLine.HelpCommand.class
        })
public final class TributaryCli implements Runnable {
    /** Exit code of a user error (the request was refused or could not be served). */
    public static final int USER_ERROR = 1;

    /** Exit code of a command-line usage error. */
    public static final int USAGE_ERROR = 2;

    @Option(
            names = "--verbose",
            scope = CommandLine.ScopeType.INHERIT,
            description = "Print stack traces of errors.")
    boolean verbose;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(
                execute(
                        args,
                        new PrintWriter(System.out, true),
                        new PrintWriter(System.err, true)));
    }

    /** Runs the command line and returns the exit code (tests call this). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new TributaryCli());
        cli.setOut(out);
        cli.setErr(err);
        // --verbose is inherited by every subcommand, wherever it appears on the line
        boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
        cli.setExecutionExceptionHandler(
                (e, commandLine, parseResult) -> {
                    Throwable cause = e;
                    while (!(cause instanceof TributaryException)
                            && cause.getCause() != null
                            && cause != cause.getCause()) {
                        cause = cause.getCause();
                    }
                    Throwable shown = cause instanceof TributaryException ? cause : e;
                    commandLine.getErr().println("error: " + describe(shown));
                    if (verbose) {
                        e.printStackTrace(commandLine.getErr());
                    }
                    commandLine.getErr().flush();
                    return USER_ERROR;
                });
        cli.setParameterExceptionHandler(
                (e, args1) -> {
                    CommandLine c = e.getCommandLine();
                    c.getErr().println("error: " + e.getMessage());
                    c.getErr()
                            .println(
                                    "Run '"
                                            + c.getCommandSpec().qualifiedName()
                                            + " --help' for usage.");
                    c.getErr().flush();
                    return USAGE_ERROR;
                });
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        if (m == null || m.isBlank()) {
            return t.getClass().getSimpleName();
        }
        // one line, whatever the server said
        return m.replace('\n', ' ');
    }
}

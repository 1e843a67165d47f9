package dev.tributary.cli.command;

import dev.tributary.client.Connection;
import dev.tributary.common.id.TablePath;
import java.io.PrintWriter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * What every command on one table takes: the server connection and the {@code DB.TABLE} argument
 * (always the first positional one), and where the command prints. A picocli mixin.
 */
final class TableArgument {
    @Mixin ConnectionOptions connection;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Parameters(index = "0", paramLabel = "DB.TABLE", description = "Table path.")
    String table;

    /** The table's path as given; a malformed one is the user's mistake. */
    TablePath path() {
        return TablePath.parse(table);
    }

    Connection connect() {
        return connection.connect();
    }

    /** The command's standard output. */
    PrintWriter out() {
        return command.commandLine().getOut();
    }
}

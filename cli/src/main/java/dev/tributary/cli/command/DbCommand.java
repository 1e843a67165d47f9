package dev.tributary.cli.command;

import dev.tributary.client.Connection;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Databases. */
@Command(
        name = "db",
        mixinStandardHelpOptions = true,
        description = "Creates, lists and drops databases.",
        subcommands = {DbCommand.Create.class, DbCommand.ListDbs.class, DbCommand.Drop.class})
public final class DbCommand {

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Creates a database.")
    static final class Create implements Callable<Integer> {
        @Mixin ConnectionOptions connection;
        @Spec CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "Database name.")
        String name;

        @Option(names = "--if-not-exists", description = "Succeed if it already exists.")
        boolean ifNotExists;

        @Override
        public Integer call() {
            try (Connection c = connection.connect()) {
                c.admin().createDatabase(name, ifNotExists);
            }
            spec.commandLine().getOut().println("created database " + name);
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists databases.")
    static final class ListDbs implements Callable<Integer> {
        @Mixin ConnectionOptions connection;
        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            try (Connection c = connection.connect()) {
                c.admin().listDatabases().forEach(spec.commandLine().getOut()::println);
            }
            return 0;
        }
    }

    @Command(name = "drop", mixinStandardHelpOptions = true, description = "Drops a database.")
    static final class Drop implements Callable<Integer> {
        @Mixin ConnectionOptions connection;
        @Spec CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "Database name.")
        String name;

        @Option(names = "--if-exists", description = "Succeed if it does not exist.")
        boolean ifExists;

        @Option(names = "--cascade", description = "Drop its tables too.")
        boolean cascade;

        @Override
        public Integer call() {
            try (Connection c = connection.connect()) {
                c.admin().dropDatabase(name, ifExists, cascade);
            }
            spec.commandLine().getOut().println("dropped database " + name);
            return 0;
        }
    }
}

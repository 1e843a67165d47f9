package dev.tributary.cli.command;

import dev.tributary.cli.input.ValueParser;
import dev.tributary.cli.output.Values;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Looks up one row of a primary-key table. */
@Command(
        name = "lookup",
        mixinStandardHelpOptions = true,
        description = "Prints the current row with the given primary key (exit 1 if absent).")
public final class LookupCommand implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DB.TABLE", description = "Table path.")
    String table;

    @Parameters(
            index = "1..*",
            paramLabel = "KEY",
            description = "Primary-key values in key order.")
    List<String> key;

    @Override
    public Integer call() {
        TablePath path = TablePath.parse(table);
        try (Connection c = connection.connect()) {
            TableInfo info = c.admin().describeTable(path);
            List<String> pk = info.schema().primaryKey();
            if (pk.isEmpty()) {
                throw new InvalidInputException(
                        "table " + path + " has no primary key: use 'tributary scan'");
            }
            if (key.size() != pk.size()) {
                throw new InvalidInputException(
                        "table "
                                + path
                                + " has primary key "
                                + pk
                                + ": give "
                                + pk.size()
                                + " values");
            }
            Object[] values = new Object[pk.size()];
            for (int i = 0; i < pk.size(); i++) {
                values[i] =
                        ValueParser.parse(
                                info.schema().columns().get(info.schema().indexOf(pk.get(i))),
                                key.get(i));
            }
            Optional<Row> row = c.lookuper(path).lookup(Row.wrap(values));
            if (row.isEmpty()) {
                throw new NotFoundException("no row with key " + key + " in " + path);
            }
            spec.commandLine().getOut().println(Values.format(row.get()));
        }
        return 0;
    }
}

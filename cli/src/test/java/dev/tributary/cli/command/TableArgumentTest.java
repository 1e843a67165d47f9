package dev.tributary.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The table and partition commands take the connection and the table path from one mixin. */
class TableArgumentTest {

    @Test
    void theTablePathIsTheFirstArgumentAndTheConnectionOptionsComeAlong() {
        PartitionCommand.Drop drop = new PartitionCommand.Drop();
        CommandLine line = new CommandLine(drop);
        StringWriter text = new StringWriter();
        line.setOut(new PrintWriter(text, true));

        line.parseArgs(
                "--address", "127.0.0.1:19", "--token", "t0k", "shop.orders", "dt=2026-12-01");

        assertThat(drop.target.table).isEqualTo("shop.orders");
        assertThat(drop.target.path()).isEqualTo(TablePath.of("shop", "orders"));
        assertThat(drop.partition).isEqualTo("dt=2026-12-01");
        assertThat(drop.target.connection.address).isEqualTo("127.0.0.1:19");
        assertThat(drop.target.connection.token).isEqualTo("t0k");
        drop.target.out().println("to the command's output");
        assertThat(text.toString()).isEqualTo("to the command's output" + System.lineSeparator());
    }

    @Test
    void theUsageOfATableCommandStillNamesTheTableAndTheConnectionOptions() {
        String usage = new CommandLine(new TableCommand.Describe()).getUsageMessage();

        assertThat(usage).contains("DB.TABLE", "Table path.", "--address", "--token");
    }
}

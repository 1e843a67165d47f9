package dev.tributary.cli.command;

import dev.tributary.cli.output.TextTable;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.admin.TieringOverview;
import dev.tributary.common.id.TablePath;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The coordinator's view of tiering. */
@Command(
        name = "tiering",
        mixinStandardHelpOptions = true,
        description = "Shows the lake tiering status.",
        subcommands = {TieringCommand.Status.class})
public final class TieringCommand {

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = {
                "Per lake table: state, epoch, queue position, last round (start, duration, rows,"
                        + " bytes, files, force-finished), lake lag in time and records, failures;"
                        + " then a warning line per table whose layout needs attention."
            })
    static final class Status implements Callable<Integer> {
        @Mixin ConnectionOptions connection;
        @Spec CommandSpec spec;

        @Parameters(arity = "0..1", paramLabel = "DB.TABLE", description = "Only this table.")
        String table;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Connection c = connection.connect()) {
                List<TableTieringStatus> tables;
                if (table != null) {
                    tables = List.of(c.admin().tieringStatus(TablePath.parse(table)));
                } else {
                    TieringOverview o = c.admin().tieringStatus();
                    tables = o.tables();
                    out.println("pending: " + o.queueLength() + "   live jobs: " + o.liveJobs());
                }
                TextTable t =
                        new TextTable(
                                "TABLE",
                                "STATE",
                                "EPOCH",
                                "QUEUE",
                                "LAST ROUND START",
                                "DURATION",
                                "ROWS",
                                "BYTES",
                                "FILES",
                                "FORCED",
                                "LAG",
                                "LAG RECORDS",
                                "FAILURES");
                for (TableTieringStatus s : tables) {
                    var r = s.lastRound();
                    t.row(
                            s.path(),
                            s.state(),
                            s.epoch(),
                            s.queuePosition() < 0 ? "-" : s.queuePosition(),
                            r.map(x -> Instant.ofEpochMilli(x.startedAtMillis()).toString())
                                    .orElse("-"),
                            r.map(x -> human(x.durationMillis())).orElse("-"),
                            r.map(x -> Long.toString(x.rows())).orElse("-"),
                            r.map(x -> Long.toString(x.bytes())).orElse("-"),
                            r.map(x -> Long.toString(x.files())).orElse("-"),
                            r.map(x -> x.forceFinished() ? "yes" : "no").orElse("-"),
                            lag(s),
                            s.lagRecords().isPresent()
                                    ? Long.toString(s.lagRecords().getAsLong())
                                    : "?",
                            s.failures() + s.lastFailure().map(f -> " (" + f + ")").orElse(""));
                }
                t.print(out);
                for (TableTieringStatus s : tables) {
                    for (String w : s.warnings()) {
                        out.println("warning: " + s.path() + ": " + w);
                    }
                }
            }
            return 0;
        }

        /** The lag, or "?" with the reason when the server could not measure it. */
        private static String lag(TableTieringStatus s) {
            return s.lagMillis().isPresent()
                    ? human(s.lagMillis().getAsLong())
                    : "? (" + s.lagError().orElse("not measured") + ")";
        }

        private static String human(long millis) {
            Duration d = Duration.ofMillis(millis);
            if (d.toHours() > 0) {
                return d.toHours() + "h" + d.toMinutesPart() + "m";
            }
            if (d.toMinutes() > 0) {
                return d.toMinutes() + "m" + d.toSecondsPart() + "s";
            }
            return String.format("%.1fs", millis / 1000.0);
        }
    }
}

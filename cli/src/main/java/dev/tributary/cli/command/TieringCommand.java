package dev.tributary.cli.command;

import dev.tributary.cli.output.ReplicaText;
import dev.tributary.cli.output.TextTable;
import dev.tributary.cli.output.TieringText;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.LakeMaintenance;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.client.admin.TieringOverview;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.EpochFormat;
import dev.tributary.common.id.TablePath;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
                "The lake (format, catalog, warehouse: never a credential), then per lake table: state, epoch, queue position, last round (start, duration, rows,"
                        + " bytes, files, force-finished), lake lag in time and records, failures;"
                        + " then its lake maintenance: compaction state, live files (most in a"
                        + " bucket against max-files), snapshots retained, the last compaction,"
                        + " compactions by outcome and bytes reclaimed by snapshot expiry; then"
                        + " how each primary-key table retracts rows in the lake (by position or by"
                        + " key, and for Iceberg how many buckets the server's lake row index"
                        + " describes, at which lake snapshot); then, for each table with"
                        + " several copies of its buckets, the copies and the buckets"
                        + " under-replicated or without a leader; then a"
                        + " warning line per table whose layout needs attention. With"
                        + " --partitions, also the lag of each partition of partitioned tables."
            })
    static final class Status implements Callable<Integer> {
        @Mixin ConnectionOptions connection;
        @Spec CommandSpec spec;

        @Parameters(arity = "0..1", paramLabel = "DB.TABLE", description = "Only this table.")
        String table;

        @Option(
                names = "--partitions",
                description =
                        "Also a line per partition of partitioned tables: state (ACTIVE or"
                                + " DROPPING), lake lag in time and records, records stored.")
        boolean partitions;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Connection c = connection.connect()) {
                List<TableTieringStatus> tables;
                if (table != null) {
                    tables = List.of(c.admin().tieringStatus(TablePath.parse(table), partitions));
                } else {
                    TieringOverview o = c.admin().tieringStatus(partitions);
                    tables = o.tables();
                    o.lakeLocation()
                            .ifPresent(
                                    l ->
                                            out.println(
                                                    "lake: "
                                                            + l.format()
                                                            + "   catalog: "
                                                            + l.catalog()
                                                            + "   warehouse: "
                                                            + l.warehouse()));
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
                            EpochFormat.format(s.epoch()),
                            s.queuePosition() < 0 ? "-" : s.queuePosition(),
                            r.map(x -> Instant.ofEpochMilli(x.startedAtMillis()).toString())
                                    .orElse("-"),
                            r.map(x -> TieringText.duration(x.durationMillis())).orElse("-"),
                            r.map(x -> Long.toString(x.rows())).orElse("-"),
                            r.map(x -> Long.toString(x.bytes())).orElse("-"),
                            r.map(x -> Long.toString(x.files())).orElse("-"),
                            r.map(x -> x.forceFinished() ? "yes" : "no").orElse("-"),
                            lag(s),
                            s.lagRecords().isPresent()
                                    ? Long.toString(s.lagRecords().getAsLong())
                                    : "?",
                            s.failures() == 0 ? "0" : s.failures() + " in a row");
                }
                t.print(out);
                if (partitions) {
                    printPartitions(out, tables);
                }
                printMaintenance(out, tables);
                printRowDeletes(out, tables);
                printReplicas(c, out, tables);
                for (TableTieringStatus s : tables) {
                    for (String w : s.warnings()) {
                        out.println("warning: " + s.path() + ": " + w);
                    }
                }
                printFailures(out, tables, System.currentTimeMillis());
            }
            return 0;
        }

        /**
         * Below the table, one paragraph per table whose last rounds failed: the message (too long
         * for a column), how many in a row and when the table is tried again.
         */
        static void printFailures(PrintWriter out, List<TableTieringStatus> tables, long now) {
            for (TableTieringStatus s : tables) {
                if (s.failures() == 0) {
                    continue;
                }
                var lastFailed =
                        s.recentRounds().stream()
                                .filter(r -> r.outcome().equals("FAILED"))
                                .reduce((a, b) -> b);
                out.println();
                out.println(
                        s.path()
                                + ": "
                                + s.failures()
                                + (s.failures() == 1 ? " round" : " rounds")
                                + " failed in a row"
                                + lastFailed
                                        .map(
                                                r ->
                                                        ", the last one round "
                                                                + r.roundId()
                                                                + " (epoch "
                                                                + EpochFormat.format(r.epoch())
                                                                + ")")
                                        .orElse("")
                                + "; "
                                + TieringText.nextTry(s, now));
                out.println(
                        "  "
                                + lastFailed
                                        .flatMap(TableTieringStatus.Round::failure)
                                        .or(s::lastFailure)
                                        .orElse("(no message)"));
            }
        }

        /** One line per partition of the partitioned tables, oldest name first (T35). */
        static void printPartitions(PrintWriter out, List<TableTieringStatus> tables) {
            TextTable t =
                    new TextTable("TABLE", "PARTITION", "STATE", "LAG", "LAG RECORDS", "RECORDS");
            boolean any = false;
            for (TableTieringStatus s : tables) {
                for (TableTieringStatus.PartitionLag p : s.partitions()) {
                    any = true;
                    t.row(
                            s.path(),
                            p.name(),
                            p.state(),
                            p.lagMillis().isPresent()
                                    ? TieringText.duration(p.lagMillis().getAsLong())
                                    : "?",
                            p.lagRecords().isPresent()
                                    ? Long.toString(p.lagRecords().getAsLong())
                                    : "?",
                            p.records());
                }
            }
            out.println();
            if (any) {
                t.print(out);
            } else {
                out.println("no partitioned lake table");
            }
        }

        /** Lake maintenance (T38, T39) of the tables whose server runs it. */
        static void printMaintenance(PrintWriter out, List<TableTieringStatus> tables) {
            List<TableTieringStatus> maintained =
                    tables.stream().filter(s -> s.maintenance().isPresent()).toList();
            if (maintained.isEmpty()) {
                return;
            }
            out.println();
            TextTable t =
                    new TextTable(
                            "TABLE",
                            "COMPACTION",
                            "FILES/BUCKET",
                            "LIVE FILES",
                            "DELETE FILES",
                            "SNAPSHOTS",
                            "LAST COMPACTION",
                            "COMPACTIONS",
                            "RECLAIMED BYTES");
            for (TableTieringStatus s : maintained) {
                LakeMaintenance m = s.maintenance().get();
                boolean known = m.statsAtMillis().isPresent();
                t.row(
                        s.path(),
                        m.autoCompaction() ? m.state() : "off",
                        known ? m.maxFilesPerBucket() + " of " + m.maxFiles() : "?",
                        known ? Integer.toString(m.liveDataFiles()) : "?",
                        known ? Integer.toString(m.deleteFiles()) : "?",
                        known ? Integer.toString(m.snapshotsRetained()) : "?",
                        m.lastCompaction()
                                .map(
                                        c ->
                                                TieringText.TIME.format(
                                                                Instant.ofEpochMilli(
                                                                        c.endedAtMillis()))
                                                        + " "
                                                        + c.outcome()
                                                        + " "
                                                        + c.filesRemoved()
                                                        + "->"
                                                        + c.filesAdded()
                                                        + " files")
                                .orElse("-"),
                        m.compactions()
                                + " ok, "
                                + m.compactionsYielded()
                                + " gave way, "
                                + m.compactionFailures()
                                + " failed",
                        Long.toString(m.bytesReclaimed()));
            }
            t.print(out);
            for (TableTieringStatus s : maintained) {
                s.maintenance()
                        .flatMap(LakeMaintenance::lastError)
                        .ifPresent(e -> out.println("maintenance: " + s.path() + ": " + e));
            }
        }

        /**
         * One line per primary-key table: how its lake copy retracts rows (T48) and, for Iceberg,
         * how much of it the server's lake row index describes.
         */
        static void printRowDeletes(PrintWriter out, List<TableTieringStatus> tables) {
            List<TableTieringStatus> pk =
                    tables.stream().filter(s -> s.pkDeletes().isPresent()).toList();
            if (pk.isEmpty()) {
                return;
            }
            out.println();
            for (TableTieringStatus s : pk) {
                out.println(s.path() + ": " + TieringText.rowDeletes(s.pkDeletes().get()));
            }
        }

        /**
         * One line per replicated table (T50), or per partition of a partitioned one listed with
         * --partitions: copies per bucket, how many are under-replicated or without a leader, and
         * which. Tables with one copy per bucket (every table of a lone server) print nothing.
         */
        static void printReplicas(Connection c, PrintWriter out, List<TableTieringStatus> tables) {
            List<String> lines = new ArrayList<>();
            for (TableTieringStatus s : tables) {
                if (s.partitionCount() == 0) {
                    replicaLine(c, s.path(), null).ifPresent(lines::add);
                }
                for (TableTieringStatus.PartitionLag p : s.partitions()) {
                    replicaLine(c, s.path(), p.name()).ifPresent(lines::add);
                }
            }
            if (!lines.isEmpty()) {
                out.println();
                lines.forEach(out::println);
            }
        }

        private static Optional<String> replicaLine(
                Connection c, TablePath path, String partition) {
            try {
                return ReplicaText.summary(c.admin().describeBuckets(path, partition))
                        .map(l -> path + (partition == null ? "" : " " + partition) + ": " + l);
            } catch (NotFoundException gone) {
                return Optional.empty(); // dropped since the status was read
            }
        }

        /** The lag, or "?" with the reason when the server could not measure it. */
        private static String lag(TableTieringStatus s) {
            return s.lagMillis().isPresent()
                    ? TieringText.duration(s.lagMillis().getAsLong())
                    : "? (" + s.lagError().orElse("not measured") + ")";
        }
    }
}

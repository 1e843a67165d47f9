package dev.tributary.cli.command;

import dev.tributary.cli.output.TextTable;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.PartitionDrop;
import dev.tributary.client.admin.PartitionInfo;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.PartitionSpec;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Partitions of partitioned tables (T30, T33). */
@Command(
        name = "partition",
        mixinStandardHelpOptions = true,
        description = "Adds, drops and lists the partitions of a partitioned table.",
        subcommands = {
            PartitionCommand.Add.class,
            PartitionCommand.Drop.class,
            PartitionCommand.ListPartitions.class
        })
public final class PartitionCommand {

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Adds a partition.")
    static final class Add implements Callable<Integer> {
        @Mixin TableArgument target;

        @Parameters(
                index = "1",
                paramLabel = "PARTITION",
                description = "Its values, e.g. dt=2026-12-01 or dt=2026-12-01/region=eu.")
        String partition;

        @Option(names = "--if-not-exists", description = "Succeed if it already exists.")
        boolean ifNotExists;

        @Override
        public Integer call() {
            try (Connection c = target.connect()) {
                PartitionInfo p =
                        c.admin()
                                .createPartition(
                                        target.path(), PartitionSpec.parse(partition), ifNotExists);
                target.out()
                        .println(
                                "partition "
                                        + p.name()
                                        + " of "
                                        + target.table
                                        + " (id "
                                        + p.partitionId()
                                        + ")");
            }
            return 0;
        }
    }

    @Command(
            name = "drop",
            mixinStandardHelpOptions = true,
            description = {
                "Drops a partition. A partition of a lake-enabled table goes once it is tiered to"
                        + " its end; until then it is DROPPING: it refuses writes and is still"
                        + " tiered.",
                "Its lake partition stays unless --drop-lake-partition is given."
            })
    static final class Drop implements Callable<Integer> {
        @Mixin TableArgument target;

        @Parameters(index = "1", paramLabel = "PARTITION", description = "e.g. dt=2026-12-01.")
        String partition;

        @Option(names = "--if-exists", description = "Succeed if it does not exist.")
        boolean ifExists;

        @Option(
                names = "--drop-lake-partition",
                description = "Also drop the lake table's partition and its data when it goes.")
        boolean dropLake;

        @Override
        public Integer call() {
            PrintWriter out = target.out();
            String table = target.table;
            try (Connection c = target.connect()) {
                Optional<PartitionDrop> d =
                        c.admin()
                                .dropPartition(
                                        target.path(),
                                        PartitionSpec.parse(partition),
                                        ifExists,
                                        dropLake);
                if (d.isEmpty()) {
                    out.println("partition " + partition + " of " + table + " does not exist");
                } else if (d.get().removed()) {
                    out.println(
                            "dropped partition "
                                    + d.get().partition().name()
                                    + " of "
                                    + table
                                    + (dropLake ? " and its lake partition" : ""));
                } else {
                    out.println(
                            "partition "
                                    + d.get().partition().name()
                                    + " of "
                                    + table
                                    + " is DROPPING: it refuses writes and goes once it is tiered"
                                    + " to its end"
                                    + (dropLake ? ", with its lake partition" : ""));
                }
            }
            return 0;
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "Lists a table's partitions: id, state, creation time, records.")
    static final class ListPartitions implements Callable<Integer> {
        @Mixin TableArgument target;

        @Override
        public Integer call() {
            try (Connection c = target.connect()) {
                TableInfo info = c.admin().describeTable(target.path());
                printPartitions(c, info, target.out());
            }
            return 0;
        }
    }

    /** Prints a partitioned table's partitions with their record counts (sum of end offsets). */
    static void printPartitions(Connection c, TableInfo info, PrintWriter out) {
        Map<PartitionBucket, Long> ends = c.logScanner(info.path()).partitionEndOffsets();
        TextTable t = new TextTable("PARTITION", "ID", "STATE", "CREATED", "RECORDS");
        for (PartitionInfo p : c.admin().listPartitions(info.path())) {
            long records =
                    ends.entrySet().stream()
                            .filter(e -> e.getKey().partitionId() == p.partitionId())
                            .mapToLong(Map.Entry::getValue)
                            .sum();
            t.row(
                    p.name(),
                    Long.toString(p.partitionId()),
                    p.state(),
                    Instant.ofEpochMilli(p.createdAtMillis()).toString(),
                    Long.toString(records));
        }
        t.print(out);
    }
}

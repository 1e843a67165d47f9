package dev.tributary.cli.command;

import dev.tributary.cli.output.Values;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.PartitionInfo;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.PartitionNotFoundException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.PartitionRouter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Prints a table's log (a PK table's changelog) by bucket and offset range. */
@Command(
        name = "scan",
        mixinStandardHelpOptions = true,
        description = {
            "Prints records of a table's log: bucket, offset, change type and values (tab"
                    + " separated).",
            "For a primary-key table this is its changelog (+I, -U, +U, -D)."
        })
public final class ScanCommand implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "DB.TABLE", description = "Table path.")
    String table;

    @Option(names = "--bucket", description = "Only this bucket (default: all).")
    Integer bucket;

    @Option(
            names = "--partition",
            description =
                    "Partitioned tables: only this partition, e.g. dt=2026-12-01 (default: all)."
                            + " Lines then start with the partition.")
    String partition;

    @Option(names = "--from", defaultValue = "0", description = "First offset (default 0).")
    long from;

    @Option(names = "--to", description = "End offset, exclusive (default: the current end).")
    Long to;

    @Option(names = "--limit", description = "Stop after this many records.")
    Long limit;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Connection c = connection.connect()) {
            LogScanner scanner = c.logScanner(TablePath.parse(table));
            List<PartitionInfo> partitions = List.of();
            if (scanner.table().descriptor().isPartitioned()) {
                partitions = c.admin().listPartitions(scanner.table().path());
                if (partition != null) {
                    String wanted =
                            PartitionRouter.of(scanner.table().descriptor())
                                    .normalize(PartitionSpec.parse(partition))
                                    .name();
                    partitions = partitions.stream().filter(p -> p.name().equals(wanted)).toList();
                    if (partitions.isEmpty()) {
                        throw new PartitionNotFoundException(
                                "partition " + wanted + " of " + table + " does not exist");
                    }
                }
            } else if (partition != null) {
                throw new InvalidInputException(
                        "table " + table + " is not partitioned; drop --partition");
            }
            List<Integer> buckets = new ArrayList<>();
            if (bucket != null) {
                buckets.add(bucket);
            } else {
                for (int b = 0; b < scanner.table().bucketCount(); b++) {
                    buckets.add(b);
                }
            }
            long printed = 0;
            for (PartitionInfo p : partitions) {
                for (int b : buckets) {
                    try (RecordIterator it =
                            scanner.scan(
                                    p.partitionId(), b, from, to == null ? Long.MAX_VALUE : to)) {
                        while (it.hasNext() && (limit == null || printed < limit)) {
                            LogRecord r = it.next();
                            out.println(
                                    p.name()
                                            + "\t"
                                            + b
                                            + "\t"
                                            + r.offset()
                                            + "\t"
                                            + r.changeType().shortString()
                                            + "\t"
                                            + Values.format(r.row()));
                            printed++;
                        }
                    }
                }
            }
            if (scanner.table().descriptor().isPartitioned()) {
                out.flush();
                return 0;
            }
            for (int b : buckets) {
                try (RecordIterator it = scanner.scan(b, from, to == null ? Long.MAX_VALUE : to)) {
                    while (it.hasNext() && (limit == null || printed < limit)) {
                        LogRecord r = it.next();
                        out.println(
                                b
                                        + "\t"
                                        + r.offset()
                                        + "\t"
                                        + r.changeType().shortString()
                                        + "\t"
                                        + Values.format(r.row()));
                        printed++;
                    }
                }
            }
            out.flush();
        }
        return 0;
    }
}

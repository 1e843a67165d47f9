package dev.tributary.cli.command;

import dev.tributary.cli.output.Values;
import dev.tributary.client.Connection;
import dev.tributary.client.scan.LogScanner;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
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
            List<Integer> buckets = new ArrayList<>();
            if (bucket != null) {
                buckets.add(bucket);
            } else {
                for (int b = 0; b < scanner.table().bucketCount(); b++) {
                    buckets.add(b);
                }
            }
            long printed = 0;
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

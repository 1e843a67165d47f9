package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.demo.DemoTables;
import dev.tributary.common.id.TablePath;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary demo --fast} through the CLI's main entry: an in-process server with the
 * embedded tiering job (found through the ServerExtension service file), real Flink MiniCluster,
 * real Paimon warehouse under the data directory.
 */
class DemoITCase {
    @TempDir Path dataDir;

    @Test
    @DisplayName(
            "T6 T28 T32 demo --fast commits rounds for all three tables, readable with Paimon,"
                    + " shop.orders partitioned by day")
    void demoShowsCommittedRoundsAndTheLakeHoldsRows() throws Exception {
        DemoRun run =
                DemoRun.of(
                                "demo",
                                "--fast",
                                "--duration",
                                "50s",
                                "--rate",
                                "400",
                                "--parallelism",
                                "2",
                                "--seed",
                                "7",
                                "--data-dir",
                                dataDir.toString())
                        .assertRoundsOfAllTables();
        Map<String, Long> tieredRows = run.tieredRows();

        // T40: the closing counts by union read hold every written row of the log tables, the
        // lake-only counts what tiering committed
        java.util.regex.Matcher written =
                java.util.regex.Pattern.compile("written: clicks (\\d+), orders (\\d+)")
                        .matcher(run.out());
        assertThat(written.find()).as(run.out()).isTrue();
        Map<String, Long> writtenRows =
                Map.of(
                        DemoTables.CLICKS.toString(), Long.parseLong(written.group(1)),
                        DemoTables.ORDERS.toString(), Long.parseLong(written.group(2)));
        // shop.orders is partitioned by day: its union read reads every partition (T32)
        for (TablePath t : List.of(DemoTables.CLICKS, DemoTables.ORDERS, DemoTables.CUSTOMERS)) {
            java.util.regex.Matcher count =
                    java.util.regex.Pattern.compile(
                                    "count:\\s+"
                                            + java.util.regex.Pattern.quote(t.toString())
                                            + "\\s+(\\d+) by union read, (\\d+) in the lake alone")
                            .matcher(run.out());
            assertThat(count.find()).as("a count line for %s in:%n%s", t, run.out()).isTrue();
            long union = Long.parseLong(count.group(1));
            long lakeOnly = Long.parseLong(count.group(2));
            assertThat(lakeOnly).as("lake rows of %s", t).isPositive();
            if (!t.equals(DemoTables.CUSTOMERS)) {
                assertThat(union)
                        .as("union count of %s", t)
                        .isEqualTo(writtenRows.get(t.toString()));
                assertThat(union).isGreaterThanOrEqualTo(lakeOnly);
            }
        }

        for (TablePath t : List.of(DemoTables.CLICKS, DemoTables.ORDERS, DemoTables.CUSTOMERS)) {
            long lakeRows = countPaimonRows(dataDir.resolve("lake"), t);
            assertThat(lakeRows).as("rows of %s in the Paimon table", t).isPositive();
            if (!t.equals(DemoTables.CUSTOMERS)) {
                // log tables: every tiered row is one lake row
                assertThat(lakeRows).isGreaterThanOrEqualTo(tieredRows.get(t.toString()));
            }
        }
        // T32: shop.orders is partitioned by day in the store and in the lake
        assertThat(lakePartitions(dataDir.resolve("lake"), DemoTables.ORDERS))
                .isNotEmpty()
                .allMatch(p -> p.matches("dt=\\d{4}-\\d{2}-\\d{2}"), "a day partition");
    }

    /** The names of the table's partitions that hold files, as Paimon plans them. */
    private static java.util.Set<String> lakePartitions(Path warehouse, TablePath path)
            throws Exception {
        Options options =
                Options.fromMap(
                        Map.of(
                                "warehouse",
                                warehouse.toUri().toString(),
                                "cache-enabled",
                                "false"));
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
            assertThat(table.partitionKeys()).containsExactly("dt");
            java.util.Set<String> out = new java.util.TreeSet<>();
            for (var split : table.newReadBuilder().newScan().plan().splits()) {
                var partition = ((org.apache.paimon.table.source.DataSplit) split).partition();
                out.add("dt=" + partition.getString(0));
            }
            return out;
        }
    }

    private static long countPaimonRows(Path warehouse, TablePath path) throws Exception {
        Options options =
                Options.fromMap(
                        Map.of(
                                "warehouse",
                                warehouse.toUri().toString(),
                                "cache-enabled",
                                "false"));
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
            ReadBuilder rb = table.newReadBuilder();
            long[] n = {0};
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan().splits())) {
                reader.forEachRemaining(r -> n[0]++);
            }
            return n[0];
        }
    }
}

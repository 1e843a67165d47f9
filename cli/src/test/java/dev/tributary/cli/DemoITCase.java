package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.demo.DemoTables;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.EpochFormat;
import dev.tributary.common.id.TablePath;
import dev.tributary.server.TributaryServer;
import dev.tributary.server.config.ServerConfigLoader;
import java.nio.file.Path;
import java.util.HashMap;
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
 * {@code tributary demo --fast --server} through the CLI's main entry against a server with the
 * embedded tiering job (found through the ServerExtension service file, as the demo's in-process
 * server does), real Flink MiniCluster, real Paimon warehouse; DemoIcebergITCase runs the demo's
 * in-process server.
 */
class DemoITCase {
    private static final List<TablePath> TABLES =
            List.of(DemoTables.CLICKS, DemoTables.ORDERS, DemoTables.CUSTOMERS);

    @TempDir Path dataDir;

    @Test
    @DisplayName(
            "T6 T28 T32 demo --fast --server commits rounds for all three tables, readable with"
                    + " Paimon, shop.orders partitioned by day; its closing lines come after the"
                    + " last rounds")
    void demoShowsCommittedRoundsAndTheLakeHoldsRows() throws Exception {
        // a server of the test's (what the demo starts in-process, with embedded tiering), so that
        // the rounds it recorded can be compared with what the demo printed
        Path lake = dataDir.resolve("lake");
        Configuration conf =
                ServerConfigLoader.load(
                        null,
                        List.of(
                                "data.dir=" + dataDir.resolve("data"),
                                "server.rpc.port=0",
                                "server.http.port=-1",
                                "datalake.format=paimon",
                                "datalake.paimon.warehouse=" + lake.toUri(),
                                "tiering.embedded.parallelism=2"));
        DemoRun run;
        Map<TablePath, List<TableTieringStatus.Round>> recorded = new HashMap<>();
        try (TributaryServer server = TributaryServer.start(conf)) {
            run =
                    DemoRun.of(
                                    "demo",
                                    "--fast",
                                    "--server",
                                    server.rpcTarget(),
                                    // 20 s of writes, under the slowest table's
                                    // freshness (30 s): its first round holds every
                                    // row, so the demo's wait for each table's last
                                    // round ends a freshness sooner than after 50 s
                                    "--duration",
                                    "20s",
                                    "--rate",
                                    "400",
                                    "--seed",
                                    "7")
                            .assertRoundsOfAllTables()
                            .assertClosingLinesAfterTheLastRounds();
            try (Connection conn = Connection.open(server.rpcTarget())) {
                for (TablePath t : TABLES) {
                    recorded.put(t, conn.admin().tieringStatus(t).recentRounds());
                }
            }
        }
        Map<String, Long> tieredRows = run.tieredRows();

        // the summary counts every round the server recorded up to the demo's last line (later
        // ones, after the demo ended, carry no rows), the last one carrying rows included
        List<DemoRun.PrintedRound> printed = run.printedRounds();
        for (TablePath t : TABLES) {
            List<DemoRun.PrintedRound> mine =
                    printed.stream().filter(r -> r.table().equals(t.toString())).toList();
            DemoRun.PrintedRound lastPrinted = mine.get(mine.size() - 1);
            List<TableTieringStatus.Round> server =
                    recorded.get(t).stream().filter(r -> !r.outcome().equals("FAILED")).toList();
            assertThat(server.size())
                    .as("the server keeps the last 50 rounds; this run has fewer")
                    .isLessThan(50);
            // the server's rounds are oldest first; epochs grow, round ids grow within one
            int last = -1;
            for (int i = 0; i < server.size(); i++) {
                TableTieringStatus.Round r = server.get(i);
                if (EpochFormat.format(r.epoch()).equals(lastPrinted.epoch())
                        && r.roundId() == lastPrinted.roundId()) {
                    last = i;
                }
            }
            assertThat(last)
                    .as("the demo's last round of %s among the server's %s", t, server)
                    .isNotNegative();
            assertThat(run.summary(t.toString())[0])
                    .as("rounds of %s in the summary, the server recorded %s", t, server)
                    .isEqualTo(last + 1);
            assertThat(server.subList(last + 1, server.size()))
                    .as("rounds of %s after the demo's last line carry no rows", t)
                    .allMatch(r -> r.rows() <= 0);
        }

        // T40: the closing counts by union read hold every written row (of the log tables: see
        // assertClosingLinesAfterTheLastRounds); shop.orders is partitioned by day, its union read
        // reads every partition (T32)
        for (TablePath t : TABLES) {
            long[] counts = run.counts(t.toString());
            assertThat(counts[1]).as("lake rows of %s", t).isPositive();
            assertThat(counts[0]).as("union rows of %s", t).isEqualTo(counts[1]);
        }

        for (TablePath t : TABLES) {
            long lakeRows = countPaimonRows(lake, t);
            assertThat(lakeRows).as("rows of %s in the Paimon table", t).isPositive();
            if (!t.equals(DemoTables.CUSTOMERS)) {
                // log tables: every tiered row is one lake row
                assertThat(lakeRows).isEqualTo(tieredRows.get(t.toString()));
            }
        }
        // T32: shop.orders is partitioned by day in the store and in the lake
        assertThat(lakePartitions(lake, DemoTables.ORDERS))
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
